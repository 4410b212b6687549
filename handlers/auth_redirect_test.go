package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// offSite are callbackUrl values that once sent a signed-in person to
// another site: a path that browsers read as scheme-relative once they
// drop the tab, and absolute URLs on this origin whose path starts with //.
var offSite = []string{
	"http://127.0.0.1:8080//evil.example/x",
	"/\t/evil.example",
	"http://127.0.0.1:8080///evil.example",
	"/%09/evil.example", // as typed: the form decodes it once more below
	"/\\evil.example",
	"https://evil.example/steal",
	"//evil.example/steal",
	"http://127.0.0.1:8080@evil.example/",
	"/admin\n/x",
	" /admin",
}

// TestSignInNeverRedirectsOffSite walks every door that redirects after
// sign-in (the form, its htmx variant's HX-Redirect, the two-factor code
// step, an external provider's begin and callback) with each off-site
// callbackUrl: all land on the console.
func TestSignInNeverRedirectsOffSite(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, f := newOAuthApp(t, db)
		app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		// Lin signs in through GitLab: her account is made on the first round.
		f.gitlabUser = `{"id":78,"username":"lin","name":"Lin","email":"lin@example.com","confirmed_at":"2024-01-02T03:04:05Z"}`
		for _, cb := range offSite {
			h, body := form(url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}, "callbackUrl": {cb}})
			if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", h, body); res.Header().Get("Location") != "/admin" {
				t.Errorf("form with callbackUrl %q: %d to %q, want /admin", cb, res.Code, res.Header().Get("Location"))
			}
			h.Set("HX-Request", "true")
			if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", h, body); res.Header().Get("HX-Redirect") != "/admin" {
				t.Errorf("htmx form with callbackUrl %q: %d HX-Redirect %q, want /admin", cb, res.Code, res.Header().Get("HX-Redirect"))
			}
			if res := signInWith(t, app, "gitlab", "?callbackUrl="+url.QueryEscape(cb), nil); res.Header().Get("Location") != "/admin" {
				t.Errorf("provider with callbackUrl %q: %d to %q, want /admin", cb, res.Code, res.Header().Get("Location"))
			}
		}
	})
}

// TestTwoFactorStepNeverRedirectsOffSite: the code step takes the
// callbackUrl again, from the second form.
func TestTwoFactorStepNeverRedirectsOffSite(t *testing.T) {
	clock := newClock()
	app := clockedApp(t, dbtest.Open(t, "sqlite"), clock)
	u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	secret, _ := enrol(t, app, clock, app.SessionFor(t, u.ID))
	hdr := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"text/html"}}
	for _, cb := range offSite {
		clock.Add(30 * time.Second) // a fresh TOTP step for each sign-in
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", hdr, url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}}.Encode())
		h := hdr.Clone()
		h["Cookie"] = cookieHeader(sessionCookie(t, res.Result()))["Cookie"]
		done := apptest.DoBody(t, app, "POST", "/api/auth/signin", h, url.Values{"code": {code(t, secret, clock.Now())}, "callbackUrl": {cb}}.Encode())
		if done.Code != http.StatusSeeOther || done.Header().Get("Location") != "/admin" {
			t.Errorf("code step with callbackUrl %q: %d to %q, want 303 to /admin", cb, done.Code, done.Header().Get("Location"))
		}
	}
}
