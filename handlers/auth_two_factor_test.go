package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// twoFactorClock is the injectable clock of the two-factor tests: codes,
// the code step's deadline and the confirmation window all read it.
type twoFactorClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *twoFactorClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *twoFactorClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newClock starts at the beginning of a TOTP step, so a test knows which
// step each code belongs to.
func newClock() *twoFactorClock {
	now := time.Now().Truncate(time.Minute).Add(-time.Hour)
	return &twoFactorClock{now: now}
}

func clockedApp(t *testing.T, db *bun.DB, clock *twoFactorClock, mutate ...func(*web.Deps)) *apptest.App {
	return apptest.New(t, db, append([]func(*web.Deps){func(d *web.Deps) { d.Now = clock.Now }}, mutate...)...)
}

// enrol turns two-factor sign-in on through the API for the session's user,
// whose password is "correct horse", and returns the secret and the
// recovery codes.
func enrol(t *testing.T, app *apptest.App, clock *twoFactorClock, session http.Header) (string, []string) {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, setupBody)
	if res.Code != 200 {
		t.Fatalf("setup: %d %s", res.Code, res.Body)
	}
	var setup struct{ Secret, OtpauthURL, QrCode string }
	json.Unmarshal(res.Body.Bytes(), &setup)
	if setup.Secret == "" || !strings.HasPrefix(setup.OtpauthURL, "otpauth://totp/") || !strings.HasPrefix(setup.QrCode, "data:image/png;base64,") {
		t.Fatalf("setup body %.200s", res.Body)
	}
	res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/enable", session, `{"code":"`+code(t, setup.Secret, clock.Now())+`"}`)
	if res.Code != 200 {
		t.Fatalf("enable: %d %s", res.Code, res.Body)
	}
	var enabled struct{ RecoveryCodes []string }
	json.Unmarshal(res.Body.Bytes(), &enabled)
	if len(enabled.RecoveryCodes) != 10 {
		t.Fatalf("recovery codes %v", enabled.RecoveryCodes)
	}
	return setup.Secret, enabled.RecoveryCodes
}

// setupBody starts an enrolment for a user whose password is "correct horse".
const setupBody = `{"password":"correct horse"}`

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := auth.TOTPCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func wrongCode(t *testing.T, secret string, at time.Time) string {
	c := code(t, secret, at)
	return string('0'+(c[0]-'0'+1)%10) + c[1:]
}

func signInBody(extra string) string {
	return `{"email":"ada@example.com","password":"correct horse"` + extra + `}`
}

func TestTwoFactorEnrolAndSignIn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		session := app.SessionFor(t, u.ID)

		res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, setupBody)
		var setup struct{ Secret string }
		json.Unmarshal(res.Body.Bytes(), &setup)
		res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/enable", session, `{"code":"`+wrongCode(t, setup.Secret, clock.Now())+`"}`)
		if res.Code != 422 || !strings.Contains(res.Body.String(), `"code"`) {
			t.Errorf("enable with a wrong code: %d %s", res.Code, res.Body)
		}
		secret, recovery := enrol(t, app, clock, session)
		if res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, setupBody); res.Code != 409 {
			t.Errorf("setup while enabled: %d %s", res.Code, res.Body)
		}

		enabling := code(t, secret, clock.Now())
		clock.Add(30 * time.Second)
		fresh := code(t, secret, clock.Now())
		tests := []struct {
			name, body, want string
			status           int
		}{
			{"no code", signInBody(""), `"code":"TOTP_REQUIRED"`, 401},
			{"wrong code", signInBody(`,"totp":"` + wrongCode(t, secret, clock.Now()) + `"`), `"code":"TOTP_INVALID"`, 401},
			{"the code that enabled it", signInBody(`,"totp":"` + enabling + `"`), `"code":"TOTP_INVALID"`, 401},
			{"wrong password, right code", `{"email":"ada@example.com","password":"wrong","totp":"` + fresh + `"}`, `"code":"UNAUTHORIZED"`, 401},
			{"valid code", signInBody(`,"totp":"` + fresh + `"`), `"email":"ada@example.com"`, 200},
			{"the same code again", signInBody(`,"totp":"` + fresh + `"`), `"code":"TOTP_INVALID"`, 401},
			{"recovery code", signInBody(`,"recoveryCode":"` + strings.ToUpper(recovery[3]) + `"`), `"email":"ada@example.com"`, 200},
			{"the same recovery code again", signInBody(`,"recoveryCode":"` + recovery[3] + `"`), `"code":"TOTP_INVALID"`, 401},
			{"unknown recovery code", signInBody(`,"recoveryCode":"aaaa-bbbb-cccc"`), `"code":"TOTP_INVALID"`, 401},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, tt.body)
				if res.Code != tt.status || !strings.Contains(res.Body.String(), tt.want) {
					t.Errorf("got %d %s, want %d with %s", res.Code, res.Body, tt.status, tt.want)
				}
				if res.Code == 401 && res.Header().Get("Set-Cookie") != "" && strings.Contains(tt.want, "TOTP") {
					if s := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(sessionCookie(t, res.Result()))); s.Body.String() != "{}\n" && s.Body.String() != "{}" {
						t.Errorf("a refused code left a session: %s", s.Body)
					}
				}
			})
		}

		app.FlushAudit(t)
		counts := map[string]int{}
		for _, e := range app.AuditEntries(t) {
			if e.TargetID == strconv.FormatInt(u.ID, 10) {
				counts[e.Action+" "+strconv.Itoa(e.Status)]++
			}
		}
		for key, want := range map[string]int{"two_factor.enable 200": 1, "two_factor.enable 422": 1, "two_factor.setup 200": 2,
			"auth.second_factor 401": 5, "auth.second_factor 200": 1} {
			if counts[key] != want {
				t.Errorf("audit %s: %d entries, want %d (all: %v)", key, counts[key], want, counts)
			}
		}

		res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/disable", session, `{"password":"wrong"}`)
		if res.Code != 422 {
			t.Errorf("disable with a wrong password: %d %s", res.Code, res.Body)
		}
		clock.Add(30 * time.Second)
		res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/disable", session, `{"password":"correct horse","code":"`+code(t, secret, clock.Now())+`"}`)
		if res.Code != 200 {
			t.Fatalf("disable: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, signInBody("")); res.Code != 200 {
			t.Errorf("sign-in after disabling: %d %s", res.Code, res.Body)
		}
	})
}

// TestTwoFactorDisableNeedsACode: turning two-factor sign-in off takes the
// password and a current code (or an unused recovery code), so that a
// password alone, phished or leaked, cannot strip the second factor.
// Before, the password alone turned it off.
func TestTwoFactorDisableNeedsACode(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		session := app.SessionFor(t, u.ID)
		secret, _ := enrol(t, app, clock, session)
		used := code(t, secret, clock.Now()) // enabled it
		clock.Add(30 * time.Second)
		now := code(t, secret, clock.Now())
		for _, tt := range []struct{ name, body, field string }{
			{"the password alone", `{"password":"correct horse"}`, `"code"`},
			{"a wrong code", `{"password":"correct horse","code":"` + wrongCode(t, secret, clock.Now()) + `"}`, `"code"`},
			{"the code that enabled it", `{"password":"correct horse","code":"` + used + `"}`, `"code"`},
			{"a code and a wrong password", `{"password":"wrong horse","code":"` + now + `"}`, `"password"`},
		} {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/disable", session, tt.body)
				if res.Code != 422 || !strings.Contains(res.Body.String(), tt.field) {
					t.Errorf("got %d %s, want 422 on %s", res.Code, res.Body, tt.field)
				}
			})
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, signInBody("")); res.Code != 401 || !strings.Contains(res.Body.String(), "TOTP_REQUIRED") {
			t.Fatalf("refused removals left two-factor sign-in off: %d %s", res.Code, res.Body)
		}
		res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/disable", session, `{"password":"correct horse","code":"`+now+`"}`)
		if res.Code != 200 {
			t.Fatalf("password and a current code: %d %s", res.Code, res.Body)
		}

		// A recovery code stands in for the app's code.
		clock.Add(30 * time.Second)
		_, recovery := enrol(t, app, clock, session)
		res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/disable", session, `{"password":"correct horse","code":"`+recovery[0]+`"}`)
		if res.Code != 200 {
			t.Fatalf("password and a recovery code: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, signInBody("")); res.Code != 200 {
			t.Errorf("sign-in after disabling: %d %s", res.Code, res.Body)
		}
	})
}

func TestTwoFactorThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		secret, _ := enrol(t, app, clock, app.SessionFor(t, u.ID))
		limit := app.Deps.Config.RateLimit.SignInByEmail
		for i := range limit {
			res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, signInBody(`,"totp":"`+wrongCode(t, secret, clock.Now())+`"`))
			if res.Code != 401 {
				t.Fatalf("wrong code %d: %d %s", i+1, res.Code, res.Body)
			}
		}
		clock.Add(30 * time.Second)
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, signInBody(`,"totp":"`+code(t, secret, clock.Now())+`"`))
		if res.Code != 429 || res.Header().Get("Retry-After") == "" || !strings.Contains(res.Body.String(), `"RATE_LIMITED"`) {
			t.Errorf("after %d wrong codes: %d %s", limit, res.Code, res.Body)
		}
	})
}

func TestTwoFactorSignInForm(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		secret, recovery := enrol(t, app, clock, app.SessionFor(t, u.ID))
		clock.Add(30 * time.Second)
		form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"text/html"}}
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", form, url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}, "callbackUrl": {"/admin/users"}}.Encode())
		if res.Code != 200 || !strings.Contains(res.Body.String(), `data-testid="signin-code-form"`) {
			t.Fatalf("password step: %d %.300s", res.Code, res.Body)
		}
		pending := cookieHeader(sessionCookie(t, res.Result()))
		if s := apptest.Do(t, app, "GET", "/api/auth/session", pending); strings.Contains(s.Body.String(), "ada@") {
			t.Fatalf("a half-done sign-in is a session: %s", s.Body)
		}
		if s := apptest.Do(t, app, "GET", "/api/v1/admin/users", pending); s.Code != 401 {
			t.Fatalf("a half-done sign-in reached the admin API: %d", s.Code)
		}
		step := func(code string) *http.Response {
			h := form.Clone()
			h["Cookie"] = pending["Cookie"]
			return apptest.DoBody(t, app, "POST", "/api/auth/signin", h, url.Values{"code": {code}, "callbackUrl": {"/admin/users"}}.Encode()).Result()
		}
		if res := step(wrongCode(t, secret, clock.Now())); res.StatusCode != 401 {
			t.Errorf("wrong code: %d", res.StatusCode)
		} else if c := sessionCookie(t, res); c != "" {
			pending = cookieHeader(c)
		}
		done := step(code(t, secret, clock.Now()))
		if done.StatusCode != http.StatusSeeOther || done.Header.Get("Location") != "/admin/users" {
			t.Fatalf("right code: %d to %q", done.StatusCode, done.Header.Get("Location"))
		}
		if s := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(sessionCookie(t, done))); !strings.Contains(s.Body.String(), "ada@example.com") {
			t.Errorf("session after the code step: %s", s.Body)
		}

		// A recovery code works in the same field; an old half-done sign-in
		// has expired.
		res = apptest.DoBody(t, app, "POST", "/api/auth/signin", form, url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}}.Encode())
		pending = cookieHeader(sessionCookie(t, res.Result()))
		clock.Add(6 * time.Minute)
		if res := step(recovery[0]); res.StatusCode != 401 {
			t.Errorf("code step after 6 minutes: %d", res.StatusCode)
		}
		res = apptest.DoBody(t, app, "POST", "/api/auth/signin", form, url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}}.Encode())
		pending = cookieHeader(sessionCookie(t, res.Result()))
		if res := step(recovery[0]); res.StatusCode != http.StatusSeeOther {
			t.Errorf("recovery code: %d", res.StatusCode)
		}
	})
}

func TestStaffTwoFactorRequired(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
		admin := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		session := app.SessionFor(t, admin.ID)
		token, _ := app.TokenFor(t, admin.ID, access.PermAdminRead)
		member := app.User(t, "bo@example.com")
		html := func(h http.Header) http.Header { h = h.Clone(); h.Set("Accept", "text/html"); return h }
		tests := []struct {
			name, method, path string
			header             http.Header
			status             int
			want               string
		}{
			{"v1 family", "GET", "/api/v1/admin/users", session, 403, `"code":"TWO_FACTOR_REQUIRED"`},
			{"unversioned admin family", "GET", "/api/admin/stats", session, 403, `"error":`},
			{"console page", "GET", "/admin", html(session), 302, ""},
			{"enrolment page", "GET", "/admin/account/2fa", html(session), 200, `data-testid="twofa-setup"`},
			{"bearer token", "GET", "/api/v1/admin/users", token, 200, `"success":true`},
			{"member's own API", "GET", "/api/notifications", app.SessionFor(t, member.ID), 200, ``},
			{"session", "GET", "/api/auth/session", session, 200, `"ada@example.com"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.Do(t, app, tt.method, tt.path, tt.header)
				if res.Code != tt.status || !strings.Contains(res.Body.String(), tt.want) {
					t.Errorf("got %d %.300s, want %d with %s", res.Code, res.Body, tt.status, tt.want)
				}
				if tt.status == 302 && res.Header().Get("Location") != "/admin/account/2fa" {
					t.Errorf("redirected to %q", res.Header().Get("Location"))
				}
			})
		}
		enrol(t, app, clock, session)
		apptest.WaitFor(t, "the enrolment to reach the pipeline", func() bool {
			return apptest.Do(t, app, "GET", "/api/v1/admin/users", session).Code == 200
		})
	})
}

func TestSudoMode(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		super := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleSuperAdmin)
		session := app.SessionFor(t, super.ID) // just signed in
		token, _ := app.TokenFor(t, super.ID, access.PermAdminWrite, access.PermAdminSuper)
		mint := func(h http.Header) *http.Response {
			return apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", h, `{"permissions":["admin:read"],"ttl":"1h"}`).Result()
		}
		if res := mint(session); res.StatusCode != 201 {
			t.Fatalf("right after signing in: %d", res.StatusCode)
		}
		clock.Add(9 * time.Minute)
		if res := mint(session); res.StatusCode != 201 {
			t.Fatalf("after 9 minutes: %d", res.StatusCode)
		}
		clock.Add(2 * time.Minute)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", session, `{"permissions":["admin:read"],"ttl":"1h"}`)
		if res.Code != 403 || !strings.Contains(res.Body.String(), `"code":"SUDO_REQUIRED"`) || res.Header().Get(web.SudoHeader) != "required" {
			t.Fatalf("after 11 minutes: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export", session); res.Code != 403 {
			t.Errorf("audit export after 11 minutes: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", session); res.Code != 200 {
			t.Errorf("an ordinary route after 11 minutes: %d", res.Code)
		}
		if res := mint(token); res.StatusCode != 403 {
			t.Errorf("a bearer token: %d, want 403 (a token never mints another)", res.StatusCode)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/confirm", session); !strings.Contains(res.Body.String(), `"confirmed":false`) {
			t.Errorf("confirmation state: %s", res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/confirm", session, `{"password":"wrong"}`); res.Code != 422 {
			t.Errorf("confirm with a wrong password: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/confirm", session, `{"password":"correct horse"}`); res.Code != 200 {
			t.Fatalf("confirm: %d %s", res.Code, res.Body)
		}
		if res := mint(session); res.StatusCode != 201 {
			t.Errorf("after confirming: %d", res.StatusCode)
		}

		// An enrolled account may confirm with a code instead; a used one
		// does not count twice.
		secret, _ := enrol(t, app, clock, session)
		clock.Add(11 * time.Minute)
		c := code(t, secret, clock.Now())
		if res := apptest.DoBody(t, app, "POST", "/api/auth/confirm", session, `{"totp":"`+c+`"}`); res.Code != 200 {
			t.Fatalf("confirm with a code: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/confirm", session, `{"totp":"`+c+`"}`); res.Code != 422 {
			t.Errorf("confirm with the same code: %d %s", res.Code, res.Body)
		}
		if res := mint(session); res.StatusCode != 201 {
			t.Errorf("after confirming with a code: %d", res.StatusCode)
		}
		app.FlushAudit(t)
		failed := 0
		for _, e := range app.AuditEntries(t) {
			if e.Action == "auth.confirm" && e.Status == 422 {
				failed++
			}
		}
		if failed != 2 {
			t.Errorf("%d failed confirmations audited, want 2", failed)
		}
	})
}

// TestTwoFactorSetupNeedsPassword: with a stolen session alone nobody
// enrols their own authenticator: setup asks for the account's password
// (or, for an account without one, a fresh confirmation), and turning it
// on confirms nothing, so a dangerous action after it still asks.
func TestTwoFactorSetupNeedsPassword(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.ImpliedRoles(access.RoleSuperAdmin)...)
		session := app.SessionFor(t, u.ID)
		clock.Add(11 * time.Minute) // the sign-in no longer counts as a confirmation
		for _, body := range []string{"", `{}`, `{"password":""}`, `{"password":"wrong"}`} {
			if res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, body); res.Code != 422 || !strings.Contains(res.Body.String(), `"password"`) {
				t.Errorf("setup with %q: %d %s, want 422 on password", body, res.Code, res.Body)
			}
		}
		if on, err := app.Store.Auth.TwoFactorEnabled(t.Context(), u.ID); err != nil || on {
			t.Fatalf("enrolled after refusals: %v %v", on, err)
		}
		res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, `{"password":"correct horse"}`)
		var setup struct{ Secret string }
		json.Unmarshal(res.Body.Bytes(), &setup)
		if res.Code != 200 || setup.Secret == "" {
			t.Fatalf("setup with the password: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/enable", session, `{"code":"`+code(t, setup.Secret, clock.Now())+`"}`); res.Code != 200 {
			t.Fatalf("enable: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/confirm", session); !strings.Contains(res.Body.String(), `"confirmed":false`) {
			t.Errorf("enabling confirmed the session: %s", res.Body)
		}
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", session, `{"permissions":["admin:read"],"ttl":"1h"}`)
		if res.Code != 403 || !strings.Contains(res.Body.String(), `"SUDO_REQUIRED"`) {
			t.Errorf("a dangerous action right after enabling: %d %s, want 403 SUDO_REQUIRED", res.Code, res.Body)
		}

		// An account that signs in through a provider has no password: its
		// sign-in (or a confirmation) must be fresh.
		fresh := app.User(t, "fresh@example.com", access.RoleAdmin)
		stale := app.User(t, "stale@example.com", access.RoleAdmin)
		staleSession := app.SessionFor(t, stale.ID)
		clock.Add(11 * time.Minute)
		res = apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", staleSession, `{}`)
		if res.Code != 403 || !strings.Contains(res.Body.String(), `"SUDO_REQUIRED"`) {
			t.Errorf("setup without a password, signed in 11 minutes ago: %d %s, want 403 SUDO_REQUIRED", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", app.SessionFor(t, fresh.ID), `{}`); res.Code != 200 {
			t.Errorf("setup without a password, just signed in: %d %s", res.Code, res.Body)
		}
		token, _ := app.TokenFor(t, fresh.ID, access.PermAdminRead)
		if res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", token, `{}`); res.Code != 403 {
			t.Errorf("setup with a bearer token: %d %s, want 403", res.Code, res.Body)
		}
	})
}
