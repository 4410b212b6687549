package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// resetApp is the app on a clock the test moves (the store's too, which
// decides a link's expiry), without SMTP_URL: mail is kept in the outbox,
// where the tests read it.
func resetApp(t *testing.T, db *bun.DB) (*apptest.App, *twoFactorClock) {
	t.Helper()
	clock := newClock()
	return apptest.New(t, db, func(d *web.Deps) { d.Now = clock.Now; d.Store.Now = clock.Now }), clock
}

var resetLink = regexp.MustCompile(`/reset-password\?token=([A-Z2-7]+)`)

// forgot asks a reset link for email and checks the one answer.
func forgot(t *testing.T, a *apptest.App, email string) {
	t.Helper()
	res := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"`+email+`"}`)
	if res.Code != http.StatusAccepted || !strings.Contains(res.Body.String(), api.ForgotAccepted) {
		t.Fatalf("forgot %s: %d %s, want 202 with the one answer", email, res.Code, res.Body)
	}
}

// mailsTo are the outbox's messages to email of kind, newest first.
func mailsTo(t *testing.T, a *apptest.App, email string, kind mail.Kind) []models.MailMessage {
	t.Helper()
	rows, err := a.Store.Mail.MailTo(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	var out []models.MailMessage
	for _, r := range rows {
		if r.Kind == string(kind) {
			out = append(out, r)
		}
	}
	return out
}

// resetToken asks a reset link for u through the API and reads its token
// from the mail kept in the outbox.
func resetToken(t *testing.T, a *apptest.App, u *models.User) string {
	t.Helper()
	forgot(t, a, u.Email)
	msgs := mailsTo(t, a, u.Email, mail.KindPasswordReset)
	if len(msgs) == 0 {
		t.Fatalf("no reset mail to %s", u.Email)
	}
	m := resetLink.FindStringSubmatch(msgs[0].TextBody)
	if m == nil {
		t.Fatalf("no reset link in %q", msgs[0].TextBody)
	}
	return m[1]
}

func reset(t *testing.T, a *apptest.App, token, password, code string) *httptest.ResponseRecorder {
	t.Helper()
	body, _ := json.Marshal(api.PasswordReset{Token: token, Password: password, Code: code})
	return apptest.DoBody(t, a, "POST", api.PathPasswordReset, nil, string(body))
}

const newPassword = "battery staple 42"

// TestPasswordForgotSameAnswer: a known and an unknown address get the
// same 202 and body; only the known one gets mail, held (no SMTP_URL),
// secret, with a link on PUBLIC_APP_URL.
func TestPasswordForgotSameAnswer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		known := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"Ada@Example.com"}`)
		unknown := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"nobody@example.com"}`)
		if known.Code != 202 || unknown.Code != 202 || known.Body.String() != unknown.Body.String() {
			t.Errorf("known %d %s, unknown %d %s: want the same 202", known.Code, known.Body, unknown.Code, unknown.Body)
		}
		msgs := mailsTo(t, a, u.Email, mail.KindPasswordReset)
		if len(msgs) != 1 || msgs[0].Status != models.MailHeld || !msgs[0].Secret ||
			!strings.Contains(msgs[0].TextBody, a.Deps.Config.PublicAppURL+"/reset-password?token=") {
			t.Fatalf("reset mail to the known address: %+v", msgs)
		}
		if m := mailsTo(t, a, "nobody@example.com", mail.KindPasswordReset); len(m) != 0 {
			t.Errorf("mail to an unknown address: %+v", m)
		}
		bad := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"not an address"}`)
		if bad.Code != 422 {
			t.Errorf("a malformed address: %d %s, want 422", bad.Code, bad.Body)
		}
		// The first admin's default address has no dot in its domain; a
		// password is forgotten there too.
		first := a.UserWithPassword(t, "admin@localhost", "correct horse")
		if res := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"admin@localhost"}`); res.Code != 202 {
			t.Errorf("admin@localhost: %d %s, want 202", res.Code, res.Body)
		}
		if m := mailsTo(t, a, first.Email, mail.KindPasswordReset); len(m) != 1 {
			t.Errorf("reset mail to admin@localhost: %d messages, want 1", len(m))
		}
	})
}

// TestPasswordForgotLimited: past the limit per email, asking again is
// 429, known address or not.
func TestPasswordForgotLimited(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		for i := 0; i < web.ForgotPerEmail; i++ {
			forgot(t, a, "nobody@example.com")
		}
		res := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"nobody@example.com"}`)
		if res.Code != 429 {
			t.Errorf("request %d for one email: %d %s, want 429", web.ForgotPerEmail+1, res.Code, res.Body)
		}
	})
}

// TestPasswordResetOnce: a link sets the password once; every session
// ends, every API token is revoked, the address is told, and the new
// password signs in.
func TestPasswordResetOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		session := a.SessionFor(t, u.ID)
		bearer, _ := a.TokenFor(t, u.ID, "account:read")
		token := resetToken(t, a, u)

		if res := reset(t, a, token, "short", ""); res.Code != 422 || !strings.Contains(res.Body.String(), "password") {
			t.Errorf("a weak password: %d %s, want 422 on password", res.Code, res.Body)
		}
		res := reset(t, a, token, newPassword, "")
		var out api.PasswordChanged
		json.Unmarshal(res.Body.Bytes(), &out)
		if res.Code != 200 || out.RevokedSessions != 1 || out.RevokedTokens != 1 {
			t.Fatalf("reset: %d %s, want 200 ending 1 session and 1 token", res.Code, res.Body)
		}
		if again := reset(t, a, token, "another fine password", ""); again.Code != 422 || !strings.Contains(again.Body.String(), "token") {
			t.Errorf("the link used again: %d %s, want 422 on token", again.Code, again.Body)
		}
		for name, h := range map[string]http.Header{"session": session, "token": bearer} {
			if res := apptest.Do(t, a, "GET", api.PathSessions, h); res.Code != 401 {
				t.Errorf("the old %s after the reset: %d, want 401", name, res.Code)
			}
		}
		if told := mailsTo(t, a, u.Email, mail.KindPasswordChanged); len(told) != 1 {
			t.Errorf("%d password-changed mails, want 1", len(told))
		}
		signIn := apptest.DoBody(t, a, "POST", api.PathSignIn, nil, `{"email":"ada@example.com","password":"`+newPassword+`"}`)
		if signIn.Code != 200 {
			t.Errorf("sign-in with the new password: %d %s", signIn.Code, signIn.Body)
		}
	})
}

// TestPasswordResetExpiresAndIsReplaced: a link works for 60 minutes, and
// a newer one replaces the older.
func TestPasswordResetExpiresAndIsReplaced(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, clock := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		older := resetToken(t, a, u)
		newer := resetToken(t, a, u)
		if older == newer {
			t.Fatal("two links with one token")
		}
		if res := reset(t, a, older, newPassword, ""); res.Code != 422 {
			t.Errorf("the replaced link: %d %s, want 422", res.Code, res.Body)
		}
		clock.Add(60*time.Minute + time.Second)
		if res := reset(t, a, newer, newPassword, ""); res.Code != 422 {
			t.Errorf("a link over 60 minutes old: %d %s, want 422", res.Code, res.Body)
		}
		fresh := resetToken(t, a, u)
		clock.Add(59 * time.Minute)
		if res := reset(t, a, fresh, newPassword, ""); res.Code != 200 {
			t.Errorf("a link 59 minutes old: %d %s, want 200", res.Code, res.Body)
		}
	})
}

// TestPasswordResetAsksTheSecondFactor: an account with two-factor sign-in
// needs a code beside the link (401 TOTP_REQUIRED without; a wrong one is
// 422), and its recovery code or current code then works.
func TestPasswordResetAsksTheSecondFactor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, clock := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		secret, recovery := enrol(t, a, clock, a.SessionFor(t, u.ID))
		token := resetToken(t, a, u)

		res := reset(t, a, token, newPassword, "")
		if res.Code != 401 || !strings.Contains(res.Body.String(), api.CodeTOTPRequired) {
			t.Errorf("no code: %d %s, want 401 TOTP_REQUIRED", res.Code, res.Body)
		}
		clock.Add(30 * time.Second)
		if res := reset(t, a, token, newPassword, wrongCode(t, secret, clock.Now())); res.Code != 422 {
			t.Errorf("a wrong code: %d %s, want 422", res.Code, res.Body)
		}
		if res := reset(t, a, token, newPassword, recovery[0]); res.Code != 200 {
			t.Errorf("a recovery code: %d %s, want 200", res.Code, res.Body)
		}
	})
}
