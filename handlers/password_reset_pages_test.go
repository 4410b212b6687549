package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// postForm sends a browser's plain form (no JavaScript: no HX-Request,
// no Accept naming JSON).
func postForm(t *testing.T, a *apptest.App, path string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"text/html,application/xhtml+xml"}}
	return apptest.DoBody(t, a, http.MethodPost, path, h, form.Encode())
}

// page parses an HTML answer, failing the test on anything else.
func page(t *testing.T, res *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("answer is %s, want HTML: %d %.300s", ct, res.Code, res.Body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.Body.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func testid(doc *goquery.Document, id string) string {
	return strings.TrimSpace(doc.Find(`[data-testid="` + id + `"]`).Text())
}

// TestPasswordResetPagesRender: the sign-in page leads to the forgot page,
// whose form posts to the forgot route; the reset page carries the link's
// token to the reset route; the sign-in page opens with the notice after a
// reset.
func TestPasswordResetPagesRender(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		signIn := page(t, apptest.Do(t, a, http.MethodGet, api.PathSignIn, nil))
		if href, _ := signIn.Find(`[data-testid="signin-forgot"]`).Attr("href"); href != api.PathForgotPasswordPage {
			t.Errorf("sign-in page's forgot link goes to %q", href)
		}
		res := apptest.Do(t, a, http.MethodGet, api.PathForgotPasswordPage, nil)
		forgot := page(t, res)
		if action, _ := forgot.Find(`[data-testid="forgot-form"]`).Attr("action"); res.Code != 200 || action != api.PathPasswordForgot {
			t.Errorf("forgot page: %d, form posts to %q", res.Code, action)
		}
		res = apptest.Do(t, a, http.MethodGet, api.PathResetPasswordPage+"?token=TOK7", nil)
		reset := page(t, res)
		token, _ := reset.Find(`[data-testid="reset-form"] input[name="token"]`).Attr("value")
		action, _ := reset.Find(`[data-testid="reset-form"]`).Attr("action")
		if res.Code != 200 || token != "TOK7" || action != api.PathPasswordReset {
			t.Errorf("reset page: %d, token %q, form posts to %q", res.Code, token, action)
		}
		if reset.Find(`[data-testid="reset-code"]`).Length() != 0 {
			t.Error("reset page asks for a code before the server said the account needs one")
		}
		notice := page(t, apptest.Do(t, a, http.MethodGet, api.PathSignIn+"?notice="+api.SignInNoticeReset, nil))
		if got := testid(notice, "signin-notice"); got != api.PasswordResetDone {
			t.Errorf("sign-in notice %q, want %q", got, api.PasswordResetDone)
		}
	})
}

// TestForgotPasswordFormSameAnswer: a browser's form gets the page with
// the one answer, the same for a known and an unknown address, saying the
// mail is kept on the console (no SMTP_URL); a malformed address is
// refused beside its field.
func TestForgotPasswordFormSameAnswer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		a.UserWithPassword(t, "ada@example.com", "correct horse")
		known := postForm(t, a, api.PathPasswordForgot, url.Values{"email": {"ada@example.com"}})
		unknown := postForm(t, a, api.PathPasswordForgot, url.Values{"email": {"nobody@example.com"}})
		if known.Code != 202 || unknown.Code != 202 || known.Body.String() != unknown.Body.String() {
			t.Fatalf("known %d, unknown %d: want the same 202 page\nknown: %.400s\nunknown: %.400s", known.Code, unknown.Code, known.Body, unknown.Body)
		}
		doc := page(t, known)
		if got := testid(doc, "forgot-sent"); got != api.ForgotAccepted {
			t.Errorf("the answer reads %q", got)
		}
		if testid(doc, "forgot-mail-kept") == "" {
			t.Error("without SMTP_URL the page does not say the mail is kept on the console")
		}
		if n := len(mailsTo(t, a, "ada@example.com", "password_reset")); n != 1 {
			t.Errorf("%d reset mails to the known address, want 1", n)
		}
		bad := postForm(t, a, api.PathPasswordForgot, url.Values{"email": {"not an address"}})
		doc = page(t, bad)
		value, _ := doc.Find(`[data-testid="forgot-email"]`).Attr("value")
		if bad.Code != 422 || testid(doc, "email-error") == "" || value != "not an address" {
			t.Errorf("a malformed address: %d, error %q, value kept %q", bad.Code, testid(doc, "email-error"), value)
		}
	})
}

// TestResetPasswordForm: a browser's form is refused beside its field (a
// token no longer valid, two passwords that differ), asks for the code of
// an account with two-factor sign-in, and, once set, goes on to sign-in
// with the notice; the new password then signs in.
func TestResetPasswordForm(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, clock := resetApp(t, db)
		u := a.UserWithPassword(t, "ada@example.com", "correct horse")
		form := func(token, password, confirm string) url.Values {
			return url.Values{"token": {token}, "password": {password}, "confirm": {confirm}}
		}

		res := postForm(t, a, api.PathPasswordReset, form("NOTATOKEN", newPassword, newPassword))
		doc := page(t, res)
		if res.Code != 422 || !strings.Contains(testid(doc, "reset-token-error"), "not valid any more") {
			t.Errorf("a bad token: %d, token error %q", res.Code, testid(doc, "reset-token-error"))
		}

		token := resetToken(t, a, u)
		res = postForm(t, a, api.PathPasswordReset, form(token, newPassword, newPassword+"!"))
		doc = page(t, res)
		if res.Code != 422 || testid(doc, "confirm-error") == "" {
			t.Errorf("passwords that differ: %d, confirm error %q", res.Code, testid(doc, "confirm-error"))
		}
		res = postForm(t, a, api.PathPasswordReset, form(token, "short", "short"))
		if doc = page(t, res); res.Code != 422 || testid(doc, "password-error") == "" {
			t.Errorf("a password the rule refuses: %d, password error %q", res.Code, testid(doc, "password-error"))
		}

		_, recovery := enrol(t, a, clock, a.SessionFor(t, u.ID))
		res = postForm(t, a, api.PathPasswordReset, form(token, newPassword, newPassword))
		doc = page(t, res)
		if res.Code != 401 || doc.Find(`[data-testid="reset-code"]`).Length() != 1 || testid(doc, "code-error") == "" {
			t.Fatalf("an account with two-factor sign-in, no code: %d, code field %d, error %q",
				res.Code, doc.Find(`[data-testid="reset-code"]`).Length(), testid(doc, "code-error"))
		}
		withCode := form(token, newPassword, newPassword)
		withCode.Set("code", recovery[0])
		res = postForm(t, a, api.PathPasswordReset, withCode)
		if loc := res.Header().Get("Location"); res.Code != http.StatusSeeOther || loc != api.PathSignIn+"?notice="+api.SignInNoticeReset {
			t.Fatalf("reset with the recovery code: %d to %q, want 303 to sign-in with the notice", res.Code, loc)
		}
		signIn := apptest.DoBody(t, a, http.MethodPost, api.PathSignIn, nil, `{"email":"ada@example.com","password":"`+newPassword+`","recoveryCode":"`+recovery[1]+`"}`)
		if signIn.Code != 200 {
			t.Errorf("sign in with the new password: %d %s", signIn.Code, signIn.Body)
		}
	})
}

// TestForgotPasswordFormLimited: past the limit per email, a browser's
// form gets the page with the refusal above the form, not JSON.
func TestForgotPasswordFormLimited(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		for i := 0; i < web.ForgotPerEmail; i++ {
			forgot(t, a, "nobody@example.com")
		}
		res := postForm(t, a, api.PathPasswordForgot, url.Values{"email": {"nobody@example.com"}})
		doc := page(t, res)
		if res.Code != 429 || testid(doc, "forgot-error") == "" || res.Header().Get("Retry-After") == "" {
			t.Errorf("past the limit: %d, error %q, Retry-After %q", res.Code, testid(doc, "forgot-error"), res.Header().Get("Retry-After"))
		}
	})
}
