package handlers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// invitationApp is an app whose registrations, all from one address in
// tests, are not held back by the registration limit.
func invitationApp(t *testing.T, db *bun.DB) *apptest.App {
	return apptest.New(t, db, func(d *web.Deps) { d.Config.RateLimit.Register = 1000 })
}

// signUp registers email through POST /api/users with invitation token
// (none when empty).
func signUp(t *testing.T, a *apptest.App, email, token string) *httptest.ResponseRecorder {
	t.Helper()
	body := `{"name":"Invited","email":"` + email + `","password":"correct horse battery"`
	if token != "" {
		body += `,"invitation":"` + token + `"`
	}
	return apptest.DoBody(t, a, "POST", api.PathUsers, nil, body+"}")
}

// invite makes an invitation through door path as header, with body.
func invite(t *testing.T, a *apptest.App, path string, header http.Header, body string) api.NewInvitation {
	t.Helper()
	res := apptest.DoBody(t, a, "POST", path, header, body)
	if res.Code != http.StatusCreated {
		t.Fatalf("invite: %d %s", res.Code, res.Body)
	}
	return decodeAs[struct{ Data api.NewInvitation }](t, res).Data
}

// storedInvitation puts an invitation in the store as it could stand
// (expired, revoked, used up), with token tok.
func storedInvitation(t *testing.T, a *apptest.App, tok string, inv models.Invitation) *models.Invitation {
	t.Helper()
	sum := sha256.Sum256([]byte(tok))
	inv.TokenHash = hex.EncodeToString(sum[:])
	ctx := context.Background()
	if err := a.Store.Change(ctx, func(ctx context.Context) error { return a.Store.Invitations.CreateInvitation(ctx, &inv) }); err != nil {
		t.Fatal(err)
	}
	return &inv
}

// TestInvitations: an admin makes an invitation through the versioned
// family and gets its token and link once; the list and the invitation's
// page show it (never the token); the token is stored only as its
// SHA-256, and neither the audit log nor any column holds it; revoking
// it is audited and a second revoke is 409.
func TestInvitations(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		inv := invite(t, a, api.PathAdminV1Invitations, admin, `{"maxUses":3,"validFor":"2d","note":"Meetup"}`)
		if inv.MaxUses != 3 || inv.Uses != 0 || inv.State != "active" || inv.Note != "Meetup" || inv.Email != nil {
			t.Fatalf("created %+v", inv)
		}
		if want := "http://127.0.0.1:8080/signup?invite=" + url.QueryEscape(inv.Token); inv.URL != want {
			t.Errorf("url %q, want %q", inv.URL, want)
		}
		expires, _ := time.Parse(time.RFC3339, inv.ExpiresAt)
		if d := time.Until(expires); d < 47*time.Hour || d > 48*time.Hour {
			t.Errorf("expires in %v, want 2 days", d)
		}

		res := apptest.Do(t, a, "GET", api.PathAdminV1Invitations+"?state=active", admin)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"id":"`+inv.ID+`"`) || strings.Contains(res.Body.String(), inv.Token) {
			t.Fatalf("list: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "GET", api.PathAdminV1Invitations+"?state=revoked", admin); strings.Contains(res.Body.String(), `"id":"`+inv.ID+`"`) {
			t.Errorf("an active invitation listed as revoked: %s", res.Body)
		}
		if res := apptest.Do(t, a, "GET", api.PathAdminV1Invitations+"?state=nope", admin); res.Code != 422 {
			t.Errorf("unknown state: %d %s", res.Code, res.Body)
		}

		// The token is kept only as its SHA-256: no column of the row, and
		// no audit entry, holds it.
		var row map[string]any
		if err := db.NewSelect().Table("invitations").Where("id = ?", inv.ID).Scan(context.Background(), &row); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(inv.Token))
		if row["token_hash"] != hex.EncodeToString(sum[:]) {
			t.Errorf("token_hash %v, want the token's SHA-256", row["token_hash"])
		}
		for col, v := range row {
			if strings.Contains(fmt.Sprint(v), inv.Token) {
				t.Errorf("column %s holds the token", col)
			}
		}
		a.FlushAudit(t)
		created := false
		for _, e := range a.AuditEntries(t) {
			if strings.Contains(fmt.Sprintf("%+v", e), inv.Token) {
				t.Errorf("audit entry %s holds the token", e.Action)
			}
			created = created || e.Action == "invitation.create" && e.TargetID == inv.ID
		}
		if !created {
			t.Error("no invitation.create entry naming the invitation")
		}

		res = apptest.Do(t, a, "DELETE", api.PathAdminV1Invitations+"/"+inv.ID, admin)
		if res.Code != 200 || decodeAs[struct{ Data api.Invitation }](t, res).Data.State != "revoked" {
			t.Fatalf("revoke: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "DELETE", api.PathAdminV1Invitations+"/"+inv.ID, admin); res.Code != http.StatusConflict {
			t.Errorf("revoke again: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "DELETE", api.PathAdminV1Invitations+"/999999", admin); res.Code != http.StatusNotFound {
			t.Errorf("revoke an unknown id: %d %s", res.Code, res.Body)
		}
		a.FlushAudit(t)
		revoked := false
		for _, e := range a.AuditEntries(t) {
			revoked = revoked || e.Action == "invitation.revoke" && e.TargetID == inv.ID && e.Status == 200
		}
		if !revoked {
			t.Error("no invitation.revoke entry naming the invitation")
		}
	})
}

// TestInvitationLimits: every limit is refused on its field, at the
// versioned door and at the console's, with the same words.
func TestInvitationLimits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		long := strings.Repeat("n", 201)
		for body, field := range map[string]string{
			`{"maxUses":0}`:                    "maxUses",
			`{"maxUses":1001}`:                 "maxUses",
			`{"validFor":"30m"}`:               "validFor",
			`{"validFor":"91d"}`:               "validFor",
			`{"validFor":"soon"}`:              "validFor",
			`{"note":"` + long + `"}`:          "note",
			`{"email":"not an address"}`:       "email",
			`{"maxUses":1000,"validFor":"1h"}`: "",
			`{"maxUses":1,"validFor":"90d"}`:   "",
		} {
			res := apptest.DoBody(t, a, "POST", api.PathAdminV1Invitations, admin, body)
			if field == "" {
				if res.Code != http.StatusCreated {
					t.Errorf("%s at the limits: %d %s", body, res.Code, res.Body)
				}
				continue
			}
			if res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"`+field+`"`) {
				t.Errorf("%s: %d %s, want 422 on %s", body, res.Code, res.Body, field)
			}
		}
	})
}

// TestRegisterWithInvitation: a registration with a valid invitation
// spends one use and records the account; one for an address verifies
// it (no verification mail) and takes no other; an unknown, revoked,
// expired or used-up invitation is 422 on invitation, opening no account
// and spending nothing.
func TestRegisterWithInvitation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		ctx := context.Background()
		inv := invite(t, a, api.PathAdminV1Invitations, admin, `{"maxUses":2}`)

		if res := signUp(t, a, "first@example.com", inv.Token); res.Code != http.StatusCreated {
			t.Fatalf("sign up: %d %s", res.Code, res.Body)
		}
		first, err := a.Store.Users.UserByEmail(ctx, "first@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if first.EmailVerified != nil || len(mailsTo(t, a, "first@example.com", mail.KindEmailVerify)) != 1 {
			t.Errorf("an invitation for anyone verified the address, or no link was mailed")
		}
		res := apptest.Do(t, a, "GET", api.PathAdminV1Invitations+"/"+inv.ID, admin)
		detail := decodeAs[struct{ Data api.InvitationDetail }](t, res).Data
		if detail.Uses != 1 || len(detail.UsedBy) != 1 || detail.UsedBy[0].UserID == nil ||
			*detail.UsedBy[0].UserID != fmt.Sprint(first.ID) || detail.UsedBy[0].Username != first.Username {
			t.Fatalf("after one sign-up: %s", res.Body)
		}
		if res := signUp(t, a, "second@example.com", inv.Token); res.Code != http.StatusCreated {
			t.Fatalf("second sign-up: %d %s", res.Code, res.Body)
		}
		res = signUp(t, a, "third@example.com", inv.Token)
		wantError(t, res, 422, api.CodeValidationError, "invitation")
		if !strings.Contains(res.Body.String(), "used as many times") {
			t.Errorf("used up: %s", res.Body)
		}

		// For one address: only that address, which still gets its
		// verification link (holding the link proves nothing of the
		// mailbox).
		only := invite(t, a, api.PathAdminV1Invitations, admin, `{"email":"Guest@Example.com"}`)
		wantError(t, signUp(t, a, "someone.else@example.com", only.Token), 422, api.CodeValidationError, "invitation")
		if res := signUp(t, a, "guest@example.com", only.Token); res.Code != http.StatusCreated ||
			decodeAs[api.User](t, res).EmailVerified != nil {
			t.Fatalf("sign up for the invited address: %d %s", res.Code, res.Body)
		}
		if n := len(mailsTo(t, a, "guest@example.com", mail.KindEmailVerify)); n != 1 {
			t.Errorf("%d verification mails to the invited address, want 1", n)
		}

		now := time.Now()
		maker := first.ID
		storedInvitation(t, a, "EXPIREDTOKEN", models.Invitation{MaxUses: 5, ExpiresAt: now.Add(-time.Minute), CreatedBy: &maker})
		storedInvitation(t, a, "REVOKEDTOKEN", models.Invitation{MaxUses: 5, ExpiresAt: now.Add(time.Hour), RevokedAt: &now})
		for token, words := range map[string]string{"NOSUCHTOKEN": "not valid", "EXPIREDTOKEN": "expired", "REVOKEDTOKEN": "withdrawn"} {
			res := signUp(t, a, "refused-"+strings.ToLower(token)+"@example.com", token)
			wantError(t, res, 422, api.CodeValidationError, "invitation")
			if !strings.Contains(res.Body.String(), words) {
				t.Errorf("%s: %s, want it to say %q", token, res.Body, words)
			}
			if _, err := a.Store.Users.UserByEmail(ctx, "refused-"+strings.ToLower(token)+"@example.com"); err == nil {
				t.Errorf("%s opened an account", token)
			}
		}
		var uses int
		if err := db.NewSelect().Table("invitations").ColumnExpr("SUM(uses)").Scan(ctx, &uses); err != nil || uses != 3 {
			t.Errorf("%d uses spent in all (%v), want 3", uses, err)
		}
	})
}

// TestInvitationRace: registrations racing for the one use of an
// invitation open exactly one account; the others are refused on
// invitation and open none (the conditional update spends the use).
func TestInvitationRace(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		inv := invite(t, a, api.PathAdminV1Invitations, admin, `{"maxUses":1}`)
		const racers = 6
		codes := make([]int, racers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				body := fmt.Sprintf(`{"name":"Racer %d","email":"racer%d@example.com","password":"correct horse battery","invitation":"%s"}`, i, i, inv.Token)
				req := httptest.NewRequest("POST", api.PathUsers, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				a.ServeHTTP(rec, req)
				codes[i] = rec.Code
			}()
		}
		close(start)
		wg.Wait()
		created := 0
		for _, c := range codes {
			switch c {
			case http.StatusCreated:
				created++
			case http.StatusUnprocessableEntity:
			default:
				t.Errorf("a racer got %d", c)
			}
		}
		if created != 1 {
			t.Fatalf("%d registrations succeeded on a 1-use invitation (%v), want exactly 1", created, codes)
		}
		ctx := context.Background()
		accounts, err := db.NewSelect().Table("users").Where("email LIKE 'racer%'").Count(ctx)
		if err != nil || accounts != 1 {
			t.Errorf("%d racer accounts (%v), want 1", accounts, err)
		}
		used, err := db.NewSelect().Table("invitation_uses").Count(ctx)
		stored, serr := a.Store.Invitations.InvitationByToken(ctx, hashOf(inv.Token))
		if err != nil || serr != nil || used != 1 || stored.Uses != 1 {
			t.Errorf("uses recorded %d, counted %v (%v %v), want 1", used, stored, err, serr)
		}
	})
}

func hashOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TestInvitationPolicy: members may not list, make or revoke
// invitations; a moderator makes and revokes their own through the
// console but not someone else's (an admin's rule), and has no door in
// the versioned family; an admin revokes a moderator's.
func TestInvitationPolicy(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		member := a.SessionFor(t, a.User(t, "member@example.com").ID)
		mod := a.SessionFor(t, a.User(t, "mod@example.com", access.RoleModerator).ID)
		other := a.SessionFor(t, a.User(t, "other-mod@example.com", access.RoleModerator).ID)
		json := func(h http.Header) http.Header {
			h = h.Clone()
			h.Set("Accept", "application/json")
			return h
		}

		for _, r := range []struct{ method, path, body string }{
			{"GET", api.PathConsoleInvitations, ""},
			{"POST", api.PathConsoleInvitations, `{"maxUses":1}`},
			{"GET", api.PathAdminV1Invitations, ""},
			{"POST", api.PathAdminV1Invitations, `{"maxUses":1}`},
		} {
			if res := apptest.DoBody(t, a, r.method, r.path, json(member), r.body); res.Code != http.StatusForbidden {
				t.Errorf("a member's %s %s: %d %s", r.method, r.path, res.Code, res.Body)
			}
		}
		if res := apptest.DoBody(t, a, "POST", api.PathAdminV1Invitations, json(mod), `{"maxUses":1}`); res.Code != http.StatusForbidden {
			t.Errorf("a moderator at the versioned door: %d %s", res.Code, res.Body)
		}

		mine := invite(t, a, api.PathConsoleInvitations, json(mod), `{"maxUses":2,"note":"mine"}`)
		theirs := invite(t, a, api.PathConsoleInvitations, json(other), `{"maxUses":2,"note":"theirs"}`)
		if res := apptest.Do(t, a, "GET", api.PathConsoleInvitations, json(mod)); res.Code != 200 ||
			!strings.Contains(res.Body.String(), `"note":"theirs"`) {
			t.Errorf("a moderator's list: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "POST", api.ConsoleInvitationRevokePath(theirs.ID), json(mod)); res.Code != http.StatusForbidden {
			t.Errorf("a moderator revokes another's invitation: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "POST", api.ConsoleInvitationRevokePath(mine.ID), json(mod)); res.Code != 200 {
			t.Errorf("a moderator revokes their own: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "DELETE", api.PathAdminV1Invitations+"/"+theirs.ID, admin); res.Code != 200 {
			t.Errorf("an admin revokes a moderator's: %d %s", res.Code, res.Body)
		}

		// The page offers Revoke only where it works.
		page := func(h http.Header) string {
			h = h.Clone()
			h.Set("Accept", "text/html")
			res := apptest.Do(t, a, "GET", api.PathConsoleInvitations, h)
			if res.Code != 200 {
				t.Fatalf("page: %d", res.Code)
			}
			return res.Body.String()
		}
		fresh := invite(t, a, api.PathConsoleInvitations, json(other), `{"maxUses":1}`)
		if strings.Contains(page(mod), "invitation-revoke-"+fresh.ID) {
			t.Error("the page offers a moderator Revoke on another's invitation")
		}
		if !strings.Contains(page(other), "invitation-revoke-"+fresh.ID) {
			t.Error("the page does not offer its maker Revoke")
		}
	})
}

// TestSignUpPage: the page carries the link's invitation hidden; its form
// posts to POST /api/users and comes back with the account made, or the
// form again with the refusal under its field.
func TestSignUpPage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := invitationApp(t, db)
		admin, _ := a.Admin(t)
		inv := invite(t, a, api.PathAdminV1Invitations, admin, `{"maxUses":1}`)
		res := apptest.Do(t, a, "GET", "/signup?invite="+url.QueryEscape(inv.Token), nil)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `type="hidden" name="invitation" value="`+inv.Token+`"`) {
			t.Fatalf("page: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "GET", api.PathSignIn, nil); !strings.Contains(res.Body.String(), `href="/signup"`) {
			t.Error("the sign-in page does not lead to /signup")
		}
		post := func(form url.Values) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", api.PathUsers, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept", "text/html")
			req.Header.Set("Origin", "http://127.0.0.1:8080")
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, req)
			return rec
		}
		res = post(url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "password": {"correct horse battery"}, "invitation": {"WRONG"}})
		if res.Code != 422 || !strings.Contains(res.Body.String(), `data-testid="invitation-error"`) ||
			!strings.Contains(res.Body.String(), `value="ada@example.com"`) || strings.Contains(res.Body.String(), "correct horse battery") {
			t.Fatalf("refused form: %d %s", res.Code, res.Body)
		}
		res = post(url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "password": {"correct horse battery"}, "invitation": {inv.Token}})
		if res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `data-testid="signup-created"`) ||
			!strings.Contains(res.Body.String(), "check your mail") {
			t.Fatalf("sign-up: %d %s", res.Code, res.Body)
		}
		if res := post(url.Values{"name": {"Ada"}, "email": {"ada@example.com"}, "password": {"short"}}); res.Code != 422 ||
			!strings.Contains(res.Body.String(), `data-testid="password-error"`) {
			t.Errorf("a short password: %d %s", res.Code, res.Body)
		}
	})
}
