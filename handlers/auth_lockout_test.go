package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// sendFrom sends a JSON request as if from ip (the socket peer), with
// header, checked against the OpenAPI document.
func sendFrom(t *testing.T, app *apptest.App, ip, method, target string, header http.Header, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = ip + ":40000"
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	app.CheckDocumented(t, req, rec)
	return rec
}

func deviceCookie(res *http.Response) string {
	for _, c := range res.Cookies() {
		if c.Name == "plaza_device" {
			return c.Value
		}
	}
	return ""
}

const (
	attacker = "203.0.113.9"
	office   = "198.51.100.7"
	home     = "192.0.2.55"
)

// TestSignInLockoutSparesTheOwner: a stranger's wrong passwords for an
// admin's email, from one address, keep that address out but not the
// owner: from another address, or from a browser the owner signed in
// with before (the device cookie), sign-in, confirmation and password
// change still work. Only past the per-email ceiling, which no single
// address reaches, are unknown browsers kept out too; the owner's own
// browser is not.
func TestSignInLockoutSparesTheOwner(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.RateLimit.SignInByEmailTotal = 25 })
		ada := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		right := `{"email":"ada@example.com","password":"correct horse"}`
		wrong := `{"email":"ada@example.com","password":"wrong horse"}`

		// Ada signed in at the office once: that browser has a device cookie.
		res := sendFrom(t, app, office, "POST", "/api/auth/signin", nil, right)
		device := deviceCookie(res.Result())
		if res.Code != 200 {
			t.Fatalf("first sign-in: %d %s", res.Code, res.Body)
		}
		if device == "" {
			t.Errorf("first sign-in set no device cookie")
		}
		own := http.Header{"Cookie": {"plaza_device=" + device}}

		limit := app.Deps.Config.RateLimit.SignInByEmail
		for i := range limit {
			if res := sendFrom(t, app, attacker, "POST", "/api/auth/signin", nil, wrong); res.Code != 401 {
				t.Fatalf("stranger's failure %d: %d", i+1, res.Code)
			}
		}
		if res := sendFrom(t, app, attacker, "POST", "/api/auth/signin", nil, right); res.Code != 429 {
			t.Errorf("from the stranger's address, without the device cookie: %d, want 429", res.Code)
		}
		if res := sendFrom(t, app, home, "POST", "/api/auth/signin", nil, right); res.Code != 200 {
			t.Errorf("the owner from another address: %d %s, want 200", res.Code, res.Body)
		}
		if res := sendFrom(t, app, attacker, "POST", "/api/auth/signin", own, right); res.Code != 200 {
			t.Errorf("the owner's browser at the stranger's address: %d %s, want 200", res.Code, res.Body)
		}
		session := app.SessionFor(t, ada.ID)
		session.Set("Origin", app.Deps.Config.PublicAppURL)
		if res := sendFrom(t, app, home, "POST", "/api/auth/confirm", session, `{"password":"correct horse"}`); res.Code != 200 {
			t.Errorf("confirmation from another address: %d %s, want 200", res.Code, res.Body)
		}
		if res := sendFrom(t, app, home, "POST", "/api/auth/password", session, `{"currentPassword":"correct horse","newPassword":"battery staple horse"}`); res.Code != 200 {
			t.Errorf("password change from another address: %d %s, want 200", res.Code, res.Body)
		}
		right = `{"email":"ada@example.com","password":"battery staple horse"}`

		// Strangers from many addresses reach the per-email ceiling:
		// unknown browsers are then refused everywhere, the owner's is not.
		// (the refused try from the stranger's address counted too)
		for i := range 25 - limit - 1 {
			ip := "203.0.113." + strconv.Itoa(20+i)
			if res := sendFrom(t, app, ip, "POST", "/api/auth/signin", nil, wrong); res.Code != 401 {
				t.Fatalf("failure %d from %s: %d", i+1, ip, res.Code)
			}
		}
		if res := sendFrom(t, app, "192.0.2.99", "POST", "/api/auth/signin", nil, right); res.Code != 429 {
			t.Errorf("a new browser past the ceiling: %d, want 429", res.Code)
		}
		if res := sendFrom(t, app, "192.0.2.99", "POST", "/api/auth/signin", own, right); res.Code != 200 {
			t.Errorf("the owner's browser past the ceiling: %d %s, want 200", res.Code, res.Body)
		}
	})
}
