package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// signUpFrom posts a sign-up of name from ip with the extra JSON fields.
func signUpFrom(t *testing.T, app *apptest.App, ip, name, extra string) (int, string) {
	t.Helper()
	body := fmt.Sprintf(`{"name":%q,"email":"%s@example.org","password":"long enough secret"%s}`, name, name, extra)
	res := fromIP(t, app, ip, "POST", api.PathUsers, body)
	return res.Code, res.Body.String()
}

// setRules changes the registration rules as a super admin, and fails
// the test unless they are stored.
func setRules(t *testing.T, app *apptest.App, super http.Header, body string) api.RegistrationRules {
	t.Helper()
	res := apptest.DoBody(t, app, "PUT", api.PathAdminV1Registration, super, body)
	if res.Code != http.StatusOK {
		t.Fatalf("PUT registration %s: %d %s", body, res.Code, res.Body)
	}
	return decodeAs[api.V1Of[api.RegistrationRules]](t, res).Data
}

// wantRefused fails unless a sign-up answered 403 with code.
func wantRefused(t *testing.T, what string, code int, body, want string) {
	t.Helper()
	if code != http.StatusForbidden || !strings.Contains(body, `"code":"`+want+`"`) {
		t.Fatalf("%s: %d %s, want 403 %s", what, code, body, want)
	}
}

// TestRegistrationModes: open admits at once; closed and invite-only
// refuse with their codes and a message saying how to get in; approval
// opens an inactive account with a pending application that cannot sign
// in, and asks the question's answer when one is set.
func TestRegistrationModes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		if code, body := signUpFrom(t, app, "203.0.113.1", "opener", ""); code != http.StatusCreated || !strings.Contains(body, `"status":"active"`) && strings.Contains(body, `"application"`) {
			t.Fatalf("open: %d %s", code, body)
		}

		setRules(t, app, super, `{"mode":"closed"}`)
		code, body := signUpFrom(t, app, "203.0.113.2", "closer", "")
		wantRefused(t, "closed", code, body, "REGISTRATION_CLOSED")
		if !strings.Contains(body, "not accepting new accounts") {
			t.Errorf("closed says %s", body)
		}

		setRules(t, app, super, `{"mode":"invite"}`)
		code, body = signUpFrom(t, app, "203.0.113.3", "uninvited", "")
		wantRefused(t, "invite-only", code, body, "INVITATION_REQUIRED")
		if !strings.Contains(body, "invitation link") {
			t.Errorf("invite-only says %s", body)
		}

		rules := setRules(t, app, super, `{"mode":"approval","question":"What brings you here?"}`)
		if rules.Mode != "approval" || rules.Question != "What brings you here?" || rules.Paused {
			t.Fatalf("rules stored %+v", rules)
		}
		code, body = signUpFrom(t, app, "203.0.113.4", "terse", "")
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, `"answer"`) {
			t.Fatalf("an application without the answer: %d %s, want 422 on answer", code, body)
		}
		code, body = signUpFrom(t, app, "203.0.113.4", "applicant", `,"answer":"  I garden.  "`)
		if code != http.StatusCreated || !strings.Contains(body, `"status":"inactive"`) || !strings.Contains(body, `"application":"pending"`) {
			t.Fatalf("approval: %d %s, want 201 inactive with a pending application", code, body)
		}
		ctx := context.Background()
		u, err := app.Store.Users.UserByEmail(ctx, "applicant@example.org")
		if err != nil || u.Status != models.UserInactive || u.IsActive {
			t.Fatalf("the applicant's account: %+v %v", u, err)
		}
		ap, err := app.Store.Users.ApplicationOf(ctx, u.ID)
		if err != nil || ap.Status != models.ApplicationPending || ap.Answer != "I garden." || ap.Why != "mode" {
			t.Fatalf("the application: %+v %v", ap, err)
		}
		if res := apptest.DoBody(t, app, "POST", api.PathSignIn, nil, `{"email":"applicant@example.org","password":"long enough secret"}`); res.Code == http.StatusOK {
			t.Fatalf("a pending applicant signed in: %s", res.Body)
		}

		setRules(t, app, super, `{"mode":"open"}`)
		if code, body := signUpFrom(t, app, "203.0.113.5", "reopened", ""); code != http.StatusCreated || strings.Contains(body, `"application"`) {
			t.Fatalf("open again: %d %s", code, body)
		}
	})
}

// TestRegistrationPause: a pause refuses every sign-up, whatever the mode,
// with when it ends, and ends by itself at that time; 0 ends it at once.
func TestRegistrationPause(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		var ahead atomic.Int64
		app := apptest.New(t, db, func(d *web.Deps) {
			d.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
		})
		super, _ := app.Admin(t)
		rules := setRules(t, app, super, `{"pauseHours":2}`)
		if !rules.Paused || rules.PausedUntil == nil || rules.Mode != "open" {
			t.Fatalf("paused rules %+v", rules)
		}
		code, body := signUpFrom(t, app, "203.0.113.1", "hasty", "")
		wantRefused(t, "paused", code, body, "REGISTRATION_PAUSED")
		if !strings.Contains(body, *rules.PausedUntil) {
			t.Errorf("the refusal does not say when the pause ends (%s): %s", *rules.PausedUntil, body)
		}
		public := apptest.Do(t, app, "GET", api.PathRegistration, nil)
		if public.Code != http.StatusOK || !strings.Contains(public.Body.String(), `"paused":true`) {
			t.Fatalf("the public rules during a pause: %d %s", public.Code, public.Body)
		}

		ahead.Store(int64(2*time.Hour + time.Second))
		if code, body := signUpFrom(t, app, "203.0.113.1", "patient", ""); code != http.StatusCreated {
			t.Fatalf("after the pause: %d %s", code, body)
		}

		ahead.Store(0)
		setRules(t, app, super, `{"pauseHours":1}`)
		if rules := setRules(t, app, super, `{"pauseHours":0}`); rules.Paused || rules.PausedUntil != nil {
			t.Fatalf("ended pause %+v", rules)
		}
		if code, body := signUpFrom(t, app, "203.0.113.1", "resumed", ""); code != http.StatusCreated {
			t.Fatalf("after ending the pause: %d %s", code, body)
		}
	})
}

// TestSetRegistrationRules: only a super admin changes the rules, each
// change is audited with the rules before and after, bad input is 422 on
// its field, and the change holds at once on another instance over the
// same database.
func TestSetRegistrationRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		other := apptest.New(t, db)
		super, _ := app.Admin(t)
		_, admin := userWith(t, app, "admin@example.com", access.RoleAdmin)
		if res := apptest.DoBody(t, app, "PUT", api.PathAdminV1Registration, admin, `{"mode":"closed"}`); res.Code != http.StatusForbidden {
			t.Fatalf("an admin changed the rules: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", api.PathAdminV1Registration, admin); res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `"mode":"open"`) {
			t.Fatalf("an admin reads the rules: %d %s", res.Code, res.Body)
		}
		for body, field := range map[string]string{
			`{"mode":"ajar"}`:    "mode",
			`{"pauseHours":169}`: "pauseHours",
			`{"pauseHours":-1}`:  "pauseHours",
			`{"question":"` + strings.Repeat("q", 501) + `"}`: "question",
		} {
			res := apptest.DoBody(t, app, "PUT", api.PathAdminV1Registration, super, body)
			if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `"`+field+`"`) {
				t.Errorf("%s: %d %s, want 422 on %s", body, res.Code, res.Body, field)
			}
		}
		if res := apptest.DoBody(t, app, "PUT", api.PathAdminV1Registration, super, `{}`); res.Code != http.StatusUnprocessableEntity {
			t.Errorf("an empty change: %d %s", res.Code, res.Body)
		}

		setRules(t, app, super, `{"mode":"closed"}`)
		code, body := signUpFrom(t, other, "203.0.113.9", "elsewhere", "")
		wantRefused(t, "another instance", code, body, "REGISTRATION_CLOSED")

		found := 0
		for _, e := range app.AuditEntries(t) {
			if e.Action != "registration.update" || e.Status != http.StatusOK {
				continue
			}
			found++
			details := fmt.Sprint(e.Details)
			if !strings.Contains(details, "before:map[mode:open") || !strings.Contains(details, "after:map[mode:closed") {
				t.Errorf("audit details %s, want before open and after closed", details)
			}
		}
		if found != 1 {
			t.Fatalf("%d registration.update entries that changed the rules among %v, want 1", found, auditActions(t, app))
		}
	})
}

// TestBlockSeverities: a range's block refuses sign-up (403
// SIGNUP_BLOCKED) while the range still signs in, or requires approval;
// an email domain's block requires approval or refuses sign-up (422 on
// email, as ever); an email domain cannot be blocked from all access; a
// range's block of all access still refuses everything.
func TestBlockSeverities(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		block := func(kind, value, severity string) *httptest.ResponseRecorder {
			body := fmt.Sprintf(`{"kind":%q,"value":%q,"severity":%q}`, kind, value, severity)
			return apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, super, body)
		}
		if code, body := signUpFrom(t, app, "198.51.100.7", "resident", ""); code != http.StatusCreated {
			t.Fatalf("sign-up before blocks: %d %s", code, body)
		}
		if res := block("ip", "198.51.100.0/24", "signup"); res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"severity":"signup"`) {
			t.Fatalf("signup block: %d %s", res.Code, res.Body)
		}
		code, body := signUpFrom(t, app, "198.51.100.8", "blockedjoiner", "")
		wantRefused(t, "signup block", code, body, "SIGNUP_BLOCKED")
		if res := fromIP(t, app, "198.51.100.9", "POST", api.PathSignIn, `{"email":"resident@example.org","password":"long enough secret"}`); res.Code != http.StatusOK {
			t.Fatalf("a signup block refused a sign-in: %d %s", res.Code, res.Body)
		}

		if res := block("ip", "2001:db8:7::/48", "approval"); res.Code != http.StatusCreated {
			t.Fatalf("approval block: %d %s", res.Code, res.Body)
		}
		if code, body := signUpFrom(t, app, "[2001:db8:7::1]", "vetted", ""); code != http.StatusCreated || !strings.Contains(body, `"application":"pending"`) {
			t.Fatalf("from an approval range: %d %s, want a pending application", code, body)
		}
		if res := block("email_domain", "slow.example", "approval"); res.Code != http.StatusCreated {
			t.Fatalf("approval domain block: %d %s", res.Code, res.Body)
		}
		res := fromIP(t, app, "192.0.2.1", "POST", api.PathUsers, `{"name":"Slow","email":"slow@mail.slow.example","password":"long enough secret"}`)
		if res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"application":"pending"`) {
			t.Fatalf("from an approval domain: %d %s", res.Code, res.Body)
		}
		u, err := app.Store.Users.UserByEmail(context.Background(), "slow@mail.slow.example")
		if err != nil {
			t.Fatal(err)
		}
		if ap, err := app.Store.Users.ApplicationOf(context.Background(), u.ID); err != nil || ap.Why != "email_domain" {
			t.Fatalf("application %+v %v, want one made by the domain", ap, err)
		}

		if res := block("email_domain", "spam.example", "all"); res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `"severity"`) {
			t.Fatalf("an email domain blocked from all access: %d %s, want 422 on severity", res.Code, res.Body)
		}
		if res := block("email_domain", "spam.example", ""); res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"severity":"signup"`) {
			t.Fatalf("a domain block's default: %d %s", res.Code, res.Body)
		}
		res = fromIP(t, app, "192.0.2.2", "POST", api.PathUsers, `{"name":"Spam","email":"x@spam.example","password":"long enough secret"}`)
		if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `"email"`) {
			t.Fatalf("a blocked domain signs up: %d %s", res.Code, res.Body)
		}
		if res := block("ip", "192.0.2.128/25", ""); res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"severity":"all"`) {
			t.Fatalf("a range block's default: %d %s", res.Code, res.Body)
		}
		code, body = signUpFrom(t, app, "192.0.2.200", "walledoff", "")
		wantRefused(t, "all access", code, body, "IP_BLOCKED")
	})
}

// TestProviderSignUpFollowsTheRules: a sign-in provider opens a new
// account only while sign-ups are open to all, since it carries neither an
// invitation nor an answer; it is refused with the rule's message
// otherwise, and an account that exists signs in as ever.
func TestProviderSignUpFollowsTheRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		f := newFakeOAuth(t)
		app := apptest.New(t, db, func(d *web.Deps) { d.OAuthProviders = f.providers(d.Config.PublicAppURL) })
		f.githubUser, f.githubEmails = adaGitHub, adaEmails
		super, _ := app.Admin(t)
		for body, says := range map[string]string{
			`{"mode":"closed"}`:   "not accepting new accounts",
			`{"mode":"approval"}`: "approval",
			`{"mode":"invite"}`:   "invitation",
		} {
			setRules(t, app, super, body)
			res := signInWith(t, app, "github", "", nil)
			if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), says) || len(links(t, app)) != 0 {
				t.Errorf("%s: a provider's new account: %d %s, want it refused saying %q", body, res.Code, res.Body, says)
			}
		}
		app.User(t, "ada@example.com")
		if res := signInWith(t, app, "github", "", nil); res.Code != http.StatusSeeOther {
			t.Errorf("an existing account through its provider under invite-only: %d %s", res.Code, res.Body)
		}
	})
}

// TestSignUpPageFollowsTheRules: the sign-up page says what the rules
// say to a visitor; under approval it asks the question, refuses a form
// without the answer under its field, and says an application is
// received; closed, it says so.
func TestSignUpPageFollowsTheRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		post := func(form url.Values) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", api.PathUsers, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept", "text/html")
			req.Header.Set("Origin", "http://127.0.0.1:8080")
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			return rec
		}
		setRules(t, app, super, `{"mode":"approval","question":"What do you grow?"}`)
		page := apptest.Do(t, app, "GET", api.PathSignUpPage, nil).Body.String()
		if !strings.Contains(page, `data-testid="signup-mode"`) || !strings.Contains(page, "What do you grow?") || !strings.Contains(page, `name="answer"`) {
			t.Fatalf("the page under approval: %s", page)
		}
		form := url.Values{"name": {"Gardener"}, "email": {"gardener@example.org"}, "password": {"long enough secret"}}
		if res := post(form); res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `data-testid="answer-error"`) ||
			!strings.Contains(res.Body.String(), "What do you grow?") {
			t.Fatalf("no answer: %d %s", res.Code, res.Body)
		}
		form.Set("answer", "Tomatoes")
		if res := post(form); res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), "application is received") {
			t.Fatalf("an application: %d %s", res.Code, res.Body)
		}
		setRules(t, app, super, `{"mode":"closed"}`)
		if page := apptest.Do(t, app, "GET", api.PathSignUpPage, nil).Body.String(); !strings.Contains(page, "not accepting new accounts") || strings.Contains(page, `name="answer"`) {
			t.Fatalf("the page when closed: %s", page)
		}
	})
}

// TestInvitationsOpenTheDoor: under invite-only a valid invitation opens
// an active account and a wrong one is 422 on invitation (an invitation
// of spaces counts as none); under approval an invited sign-up needs no
// approval; a pause holds for the invited too.
func TestInvitationsOpenTheDoor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := invitationApp(t, db)
		super, _ := app.Admin(t)
		inv := invite(t, app, api.PathAdminV1Invitations, super, `{"maxUses":5}`)
		setRules(t, app, super, `{"mode":"invite"}`)
		code, body := signUpFrom(t, app, "203.0.113.1", "blank", `,"invitation":"   "`)
		wantRefused(t, "an invitation of spaces", code, body, "INVITATION_REQUIRED")
		if code, body := signUpFrom(t, app, "203.0.113.1", "forger", `,"invitation":"not-a-token"`); code != http.StatusUnprocessableEntity || !strings.Contains(body, `"invitation"`) {
			t.Fatalf("a wrong invitation: %d %s", code, body)
		}
		if code, body := signUpFrom(t, app, "203.0.113.1", "guest", `,"invitation":"`+inv.Token+`"`); code != http.StatusCreated || strings.Contains(body, `"application"`) {
			t.Fatalf("an invited sign-up under invite-only: %d %s", code, body)
		}
		setRules(t, app, super, `{"mode":"approval","question":"Why?"}`)
		if code, body := signUpFrom(t, app, "203.0.113.1", "vouched", `,"invitation":"`+inv.Token+`"`); code != http.StatusCreated || strings.Contains(body, `"application"`) {
			t.Fatalf("an invited sign-up under approval: %d %s, want an active account", code, body)
		}
		setRules(t, app, super, `{"pauseHours":1}`)
		code, body = signUpFrom(t, app, "203.0.113.1", "latecomer", `,"invitation":"`+inv.Token+`"`)
		wantRefused(t, "an invited sign-up during a pause", code, body, "REGISTRATION_PAUSED")
	})
}
