package handlers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
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

var verifyLink = regexp.MustCompile(`/verify-email\?token=([A-Z2-7]+)`)

// verifyToken reads the token of the newest mail of kind to email, kept
// in the outbox (no SMTP_URL).
func verifyToken(t *testing.T, a *apptest.App, email string, kind mail.Kind) string {
	t.Helper()
	msgs := mailsTo(t, a, email, kind)
	if len(msgs) == 0 {
		t.Fatalf("no %s mail to %s", kind, email)
	}
	m := verifyLink.FindStringSubmatch(msgs[0].TextBody)
	if m == nil {
		t.Fatalf("no verification link in %q", msgs[0].TextBody)
	}
	return m[1]
}

func verifyEmail(t *testing.T, a *apptest.App, token string) *httptest.ResponseRecorder {
	t.Helper()
	return apptest.DoBody(t, a, "POST", api.PathEmailVerify, nil, `{"token":"`+token+`"}`)
}

// register signs up email through the API, with the password "correct
// horse battery", and gives the account.
func register(t *testing.T, a *apptest.App, email string) *models.User {
	t.Helper()
	res := apptest.DoBody(t, a, "POST", api.PathUsers, nil, `{"name":"Ada","email":"`+email+`","password":"correct horse battery"}`)
	if res.Code != http.StatusCreated {
		t.Fatalf("register %s: %d %s", email, res.Code, res.Body)
	}
	u, err := a.Store.Users.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// verified verifies u's address through a link asked for again.
func verified(t *testing.T, a *apptest.App, u *models.User) {
	t.Helper()
	if res := apptest.Do(t, a, "POST", api.PathEmailResend, a.SessionFor(t, u.ID)); res.Code != http.StatusAccepted {
		t.Fatalf("resend for %s: %d %s", u.Email, res.Code, res.Body)
	}
	if res := verifyEmail(t, a, verifyToken(t, a, u.Email, mail.KindEmailVerify)); res.Code != 200 {
		t.Fatalf("verify %s: %d %s", u.Email, res.Code, res.Body)
	}
}

func userNow(t *testing.T, a *apptest.App, id int64) *models.User {
	t.Helper()
	u, err := a.Store.Users.UserByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestRegistrationVerifiesTheAddress: a sign-up's address gets a link,
// held (no SMTP_URL), secret, on PUBLIC_APP_URL; the link verifies it
// once, and the verification is audited.
func TestRegistrationVerifiesTheAddress(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := register(t, a, "ada@example.com")
		if u.EmailVerified != nil {
			t.Fatalf("a new sign-up is verified at once: %v", u.EmailVerified)
		}
		msgs := mailsTo(t, a, u.Email, mail.KindEmailVerify)
		if len(msgs) != 1 || msgs[0].Status != models.MailHeld || !msgs[0].Secret ||
			!strings.Contains(msgs[0].TextBody, a.Deps.Config.PublicAppURL+"/verify-email?token=") {
			t.Fatalf("verification mail to the new address: %+v", msgs)
		}
		token := verifyToken(t, a, u.Email, mail.KindEmailVerify)
		var stored models.EmailVerification
		if err := a.Store.DB.NewSelect().Model(&stored).Where("user_id = ?", u.ID).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(token))
		if stored.TokenHash != hex.EncodeToString(sum[:]) || stored.Email != u.Email {
			t.Errorf("stored %+v, want the token's SHA-256 in hex, never the token", stored)
		}

		res := verifyEmail(t, a, token)
		var got api.User
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || got.EmailVerified == nil || got.Email != u.Email || got.ID != itoa(u.ID) {
			t.Fatalf("verify: %d %s, want 200 with the user, emailVerified set", res.Code, res.Body)
		}
		if userNow(t, a, u.ID).EmailVerified == nil {
			t.Error("the account's address is not verified after the link")
		}
		if again := verifyEmail(t, a, token); again.Code != 422 || !strings.Contains(again.Body.String(), "not valid any more") {
			t.Errorf("the link used again: %d %s, want 422 on token", again.Code, again.Body)
		}
		if res := verifyEmail(t, a, "NOTATOKEN"); res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"token"`) {
			t.Errorf("an unknown token: %d %s, want 422 on token", res.Code, res.Body)
		}
		audited := 0
		for _, e := range a.AuditEntries(t) {
			if e.Action == "auth.email_verify" && e.TargetID == itoa(u.ID) && e.Status == 200 {
				audited++
			}
		}
		if audited != 1 {
			t.Errorf("%d audited verifications of the account, want 1", audited)
		}
	})
}

// TestEmailVerifyExpiresAndIsReplaced: a link works for 24 hours, and a
// newer one replaces the older.
func TestEmailVerifyExpiresAndIsReplaced(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, clock := resetApp(t, db)
		u := register(t, a, "ada@example.com")
		session := a.SessionFor(t, u.ID)
		older := verifyToken(t, a, u.Email, mail.KindEmailVerify)
		if res := apptest.Do(t, a, "POST", api.PathEmailResend, session); res.Code != http.StatusAccepted {
			t.Fatalf("resend: %d %s", res.Code, res.Body)
		}
		newer := verifyToken(t, a, u.Email, mail.KindEmailVerify)
		if older == newer {
			t.Fatal("two links with one token")
		}
		if res := verifyEmail(t, a, older); res.Code != 422 {
			t.Errorf("the replaced link: %d %s, want 422", res.Code, res.Body)
		}
		clock.Add(24*time.Hour + time.Second)
		if res := verifyEmail(t, a, newer); res.Code != 422 {
			t.Errorf("a link over 24 hours old: %d %s, want 422", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "POST", api.PathEmailResend, a.SessionFor(t, u.ID)); res.Code != http.StatusAccepted {
			t.Fatalf("resend: %d %s", res.Code, res.Body)
		}
		fresh := verifyToken(t, a, u.Email, mail.KindEmailVerify)
		clock.Add(23 * time.Hour)
		if res := verifyEmail(t, a, fresh); res.Code != 200 {
			t.Errorf("a link 23 hours old: %d %s, want 200", res.Code, res.Body)
		}
	})
}

// TestEmailResend: a link asked for again goes to the account's own
// address, for a session or a token with account:write, at most
// ResendPerAccount times an hour; a verified address is 409.
func TestEmailResend(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		session := a.SessionFor(t, u.ID)
		if res := apptest.Do(t, a, "POST", api.PathEmailResend, nil); res.Code != 401 {
			t.Errorf("nobody signed in: %d %s, want 401", res.Code, res.Body)
		}
		read, _ := a.TokenFor(t, u.ID, access.ScopeAccountRead)
		if res := apptest.Do(t, a, "POST", api.PathEmailResend, read); res.Code != 403 {
			t.Errorf("a token with account:read: %d %s, want 403", res.Code, res.Body)
		}
		write, _ := a.TokenFor(t, u.ID, access.ScopeAccountWrite)
		res := apptest.Do(t, a, "POST", api.PathEmailResend, write)
		if res.Code != http.StatusAccepted || !strings.Contains(res.Body.String(), api.EmailResent) {
			t.Fatalf("a token with account:write: %d %s, want 202", res.Code, res.Body)
		}
		for i := 1; i < web.ResendPerAccount; i++ {
			if res := apptest.Do(t, a, "POST", api.PathEmailResend, session); res.Code != http.StatusAccepted {
				t.Fatalf("resend %d: %d %s", i+1, res.Code, res.Body)
			}
		}
		if n := len(mailsTo(t, a, u.Email, mail.KindEmailVerify)); n != web.ResendPerAccount {
			t.Errorf("%d links mailed, want %d", n, web.ResendPerAccount)
		}
		res = apptest.Do(t, a, "POST", api.PathEmailResend, session)
		if res.Code != 429 || res.Header().Get("Retry-After") == "" {
			t.Errorf("resend %d: %d %s, want 429 with Retry-After", web.ResendPerAccount+1, res.Code, res.Body)
		}

		grace := a.UserWithPassword(t, "grace@example.com", "correct horse")
		verified(t, a, grace)
		res = apptest.Do(t, a, "POST", api.PathEmailResend, a.SessionFor(t, grace.ID))
		if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "verified already") {
			t.Errorf("a verified address: %d %s, want 409", res.Code, res.Body)
		}
	})
}

func changeEmail(t *testing.T, a *apptest.App, h http.Header, email, password string) *httptest.ResponseRecorder {
	t.Helper()
	body, _ := json.Marshal(api.EmailChange{Email: email, Password: password})
	return apptest.DoBody(t, a, "POST", api.PathEmailChange, h, string(body))
}

// TestEmailChange: a change needs the password; the new address gets a
// link and the old one is told; the account's address changes only when
// the link is used, and the new address then signs in.
func TestEmailChange(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		session := a.SessionFor(t, u.ID)
		a.User(t, "taken@example.com")

		refusals := []struct {
			name, email, password, field string
			status                       int
		}{
			{"no password", "ada.new@example.com", "", "password", 422},
			{"a wrong password", "ada.new@example.com", "wrong horse", "password", 422},
			{"no address", "", "correct horse", "email", 422},
			{"not an address", "ada at example", "correct horse", "email", 422},
			{"the address it has", "Ada@example.com", "correct horse", "email", 422},
			{"another account's address", "taken@example.com", "correct horse", "email", 422},
		}
		for _, tt := range refusals {
			res := changeEmail(t, a, session, tt.email, tt.password)
			if res.Code != tt.status || !strings.Contains(res.Body.String(), `"field":"`+tt.field+`"`) {
				t.Errorf("%s: %d %s, want %d on %s", tt.name, res.Code, res.Body, tt.status, tt.field)
			}
		}
		token, _ := a.TokenFor(t, u.ID, access.ScopeAccountWrite)
		if res := changeEmail(t, a, token, "ada.new@example.com", "correct horse"); res.Code != 403 {
			t.Errorf("a bearer token: %d %s, want 403", res.Code, res.Body)
		}

		res := changeEmail(t, a, session, "Ada.New@example.com", "correct horse")
		if res.Code != http.StatusAccepted || !strings.Contains(res.Body.String(), api.EmailChangeStarted) {
			t.Fatalf("change: %d %s, want 202", res.Code, res.Body)
		}
		if got := userNow(t, a, u.ID).Email; got != "ada@example.com" {
			t.Errorf("the address changed to %s before the link was used", got)
		}
		told := mailsTo(t, a, "ada@example.com", mail.KindEmailChangeNotice)
		if len(told) != 1 || !strings.Contains(told[0].TextBody, "ada.new@example.com") || told[0].Secret {
			t.Errorf("the old address told: %+v, want one notice naming the new address", told)
		}
		link := verifyToken(t, a, "ada.new@example.com", mail.KindEmailChange)
		if n := len(mailsTo(t, a, "ada@example.com", mail.KindEmailChange)); n != 0 {
			t.Errorf("%d change links went to the old address", n)
		}

		res = verifyEmail(t, a, link)
		var got api.User
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || got.Email != "ada.new@example.com" || got.EmailVerified == nil {
			t.Fatalf("verify the new address: %d %s", res.Code, res.Body)
		}
		if now := userNow(t, a, u.ID); now.Email != "ada.new@example.com" || now.EmailVerified == nil {
			t.Errorf("after the link: %s verified %v", now.Email, now.EmailVerified)
		}
		if res := apptest.DoBody(t, a, "POST", api.PathSignIn, nil, `{"email":"ada.new@example.com","password":"correct horse"}`); res.Code != 200 {
			t.Errorf("sign in with the new address: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, a, "POST", api.PathSignIn, nil, `{"email":"ada@example.com","password":"correct horse"}`); res.Code != 401 {
			t.Errorf("sign in with the old address: %d %s, want 401", res.Code, res.Body)
		}
	})
}

// TestEmailChangeTakenMeanwhile: a new address that someone signs up with
// before the link is used stays theirs: the link is refused on email and
// the account keeps its address.
func TestEmailChangeTakenMeanwhile(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		if res := changeEmail(t, a, a.SessionFor(t, u.ID), "ada.new@example.com", "correct horse"); res.Code != http.StatusAccepted {
			t.Fatalf("change: %d %s", res.Code, res.Body)
		}
		link := verifyToken(t, a, "ada.new@example.com", mail.KindEmailChange)
		register(t, a, "ada.new@example.com")
		res := verifyEmail(t, a, link)
		if res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"email"`) {
			t.Errorf("verify an address taken meanwhile: %d %s, want 422 on email", res.Code, res.Body)
		}
		if got := userNow(t, a, u.ID); got.Email != "ada@example.com" {
			t.Errorf("the account's address is now %s", got.Email)
		}
	})
}

// TestRequireVerifiedEmail: with REQUIRE_VERIFIED_EMAIL, an account whose
// address is not verified may neither post nor report (403
// EMAIL_UNVERIFIED), and may once it is; without it, it may.
func TestRequireVerifiedEmail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		strict := apptest.New(t, db, func(d *web.Deps) { d.Config.RequireVerifiedEmail = true })
		author := strict.User(t, "author@example.com")
		verified(t, strict, author)
		post := writePost(t, strict, strict.SessionFor(t, author.ID), `{"title":"Beans","content":"Up the poles.","published":true}`)
		u := register(t, strict, "ada@example.com")
		session := strict.SessionFor(t, u.ID)
		report := fmt.Sprintf("/api/posts/%s/report", post.ID)

		for _, w := range [][2]string{{api.PathPosts, `{"title":"Hello","content":"First post","published":true}`}, {report, `{"reason":"spam"}`}} {
			res := apptest.DoBody(t, strict, "POST", w[0], session, w[1])
			var e api.GeneralError
			json.Unmarshal(res.Body.Bytes(), &e)
			if res.Code != 403 || e.Error.Code != api.CodeEmailUnverified || !strings.Contains(e.Error.Message, "Verify your email address") {
				t.Errorf("POST %s unverified: %d %s, want 403 EMAIL_UNVERIFIED", w[0], res.Code, res.Body)
			}
		}
		if res := verifyEmail(t, strict, verifyToken(t, strict, u.Email, mail.KindEmailVerify)); res.Code != 200 {
			t.Fatalf("verify: %d %s", res.Code, res.Body)
		}
		writePost(t, strict, session, `{"title":"Hello","content":"First post","published":true}`)
		if res := apptest.DoBody(t, strict, "POST", report, session, `{"reason":"spam"}`); res.Code != http.StatusCreated {
			t.Errorf("report once verified: %d %s, want 201", res.Code, res.Body)
		}

		lax := apptest.New(t, db)
		grace := register(t, lax, "grace@example.com")
		writePost(t, lax, lax.SessionFor(t, grace.ID), `{"title":"Hi","content":"Unverified, and fine here","published":true}`)
	})
}

// TestVerifyEmailPage: the page a link opens verifies nothing by itself;
// its plain form posts the token and gets the page back saying the
// address is verified, or the refusal beside the form.
func TestVerifyEmailPage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := register(t, a, "ada@example.com")
		token := verifyToken(t, a, u.Email, mail.KindEmailVerify)

		res := apptest.Do(t, a, http.MethodGet, api.PathVerifyEmailPage+"?token="+token, nil)
		doc := page(t, res)
		hidden, _ := doc.Find(`[data-testid="verify-form"] input[name="token"]`).Attr("value")
		action, _ := doc.Find(`[data-testid="verify-form"]`).Attr("action")
		method, _ := doc.Find(`[data-testid="verify-form"]`).Attr("method")
		if res.Code != 200 || hidden != token || action != api.PathEmailVerify || method != "post" || res.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("verify page: %d, token %q, form %s to %q", res.Code, hidden, method, action)
		}
		if doc.Find("script[src*='htmx'], script[src*='console']").Length() != 0 {
			t.Error("the verify page loads the console's scripts")
		}
		if userNow(t, a, u.ID).EmailVerified != nil {
			t.Fatal("opening the link verified the address")
		}

		res = postForm(t, a, api.PathEmailVerify, map[string][]string{"token": {"NOTATOKEN"}})
		doc = page(t, res)
		if res.Code != 422 || !strings.Contains(testid(doc, "verify-token-error"), "not valid any more") {
			t.Errorf("a bad token: %d, error %q", res.Code, testid(doc, "verify-token-error"))
		}
		res = postForm(t, a, api.PathEmailVerify, map[string][]string{"token": {token}})
		doc = page(t, res)
		href, _ := doc.Find(`[data-testid="verify-signin"]`).Attr("href")
		if res.Code != 200 || !strings.Contains(testid(doc, "verify-done"), "ada@example.com is verified") || href != api.PathSignIn {
			t.Errorf("the form: %d, answer %q, sign-in link %q", res.Code, testid(doc, "verify-done"), href)
		}
		if userNow(t, a, u.ID).EmailVerified == nil {
			t.Error("the form did not verify the address")
		}
	})
}

// TestAccountPagesTellOfAnUnverifiedAddress: one's account pages say when
// the address is not verified, with the button that sends the link again,
// and say nothing once it is; the two-factor page offers the change of
// address to an account with a password.
func TestAccountPagesTellOfAnUnverifiedAddress(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		member := a.UserWithPassword(t, "ada@example.com", "correct horse")
		mod := a.UserWithPassword(t, "mod@example.com", "correct horse", access.RoleModerator)
		html := http.Header{"Accept": {"text/html"}}
		pages := []struct {
			path string
			u    *models.User
		}{{api.PathConsoleTwoFactor, member}, {api.PathConsoleAccountSessions, mod}}
		for _, p := range pages {
			h := a.SessionFor(t, p.u.ID)
			h.Set("Accept", html.Get("Accept"))
			doc := page(t, apptest.Do(t, a, http.MethodGet, p.path, h))
			resend, _ := doc.Find(`[data-testid="email-resend"]`).Attr("hx-post")
			if !strings.Contains(testid(doc, "email-unverified"), p.u.Email) || resend != api.PathEmailResend {
				t.Errorf("%s unverified: notice %q, resend posts to %q", p.path, testid(doc, "email-unverified"), resend)
			}
			verified(t, a, p.u)
			doc = page(t, apptest.Do(t, a, http.MethodGet, p.path, h))
			if doc.Find(`[data-testid="email-unverified"]`).Length() != 0 {
				t.Errorf("%s verified: the notice is still shown", p.path)
			}
		}
		h := a.SessionFor(t, member.ID)
		h.Set("Accept", "text/html")
		doc := page(t, apptest.Do(t, a, http.MethodGet, api.PathConsoleTwoFactor, h))
		change, _ := doc.Find(`[data-testid="email-change-form"]`).Attr("hx-post")
		if change != api.PathEmailChange || doc.Find(`[data-testid="email-change-password"]`).Length() != 1 {
			t.Errorf("the change of address form posts to %q", change)
		}
	})
}
