package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func sessionCookie(t *testing.T, res *http.Response) string {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == "plaza_session" {
			return c.Value
		}
	}
	return ""
}

func cookieHeader(token string) http.Header {
	return http.Header{"Cookie": {"plaza_session=" + token}}
}

func TestSignInJSON(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"Ada@Example.com","password":"correct horse"}`)
		if res.Code != 200 {
			t.Fatalf("got %d %s", res.Code, res.Body)
		}
		var got struct {
			User    struct{ ID, Email, Role string }
			Expires string
		}
		json.Unmarshal(res.Body.Bytes(), &got)
		if got.User.Email != "ada@example.com" || got.User.Role != "admin" || got.Expires == "" {
			t.Errorf("body %s", res.Body)
		}
		for _, name := range []string{"plaza_session=", "plaza_device="} {
			var setCookie string
			for _, v := range res.Header().Values("Set-Cookie") {
				if strings.HasPrefix(v, name) {
					setCookie = v
				}
			}
			for _, want := range []string{name, "HttpOnly", "SameSite=Lax", "Path=/"} {
				if !strings.Contains(setCookie, want) {
					t.Errorf("Set-Cookie %q lacks %s", setCookie, want)
				}
			}
		}
		token := sessionCookie(t, res.Result())
		sess := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(token))
		if !strings.Contains(sess.Body.String(), `"email":"ada@example.com"`) {
			t.Errorf("session after sign-in: %s", sess.Body)
		}
		var logins int
		app.Store.DB.NewSelect().Model((*models.User)(nil)).Column("login_count").Where("id = ?", u.ID).Scan(context.Background(), &logins)
		if logins != 1 {
			t.Errorf("login_count %d, want 1", logins)
		}
	})
}

func TestSignInRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		off := app.UserWithPassword(t, "off@example.com", "correct horse")
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'inactive', is_active = false").Where("id = ?", off.ID).Exec(context.Background())
		tests := []struct {
			name, body, want string
			status           int
		}{
			{"wrong password", `{"email":"ada@example.com","password":"wrong horse"}`, `{"error":{"code":"UNAUTHORIZED","message":"Invalid email or password"}}`, 401},
			{"unknown email", `{"email":"nobody@example.com","password":"x"}`, `"UNAUTHORIZED"`, 401},
			{"deactivated", `{"email":"off@example.com","password":"correct horse"}`, `inactive and cannot sign in`, 401},
			{"missing password", `{"email":"ada@example.com"}`, `"VALIDATION_ERROR"`, 422},
			{"malformed", `{"email":`, `"VALIDATION_ERROR"`, 422},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, tt.body)
				if res.Code != tt.status || !strings.Contains(res.Body.String(), tt.want) || res.Header().Get("Set-Cookie") != "" {
					t.Errorf("got %d %s (cookie %q), want %d containing %s", res.Code, res.Body, res.Header().Get("Set-Cookie"), tt.status, tt.want)
				}
			})
		}
	})
}

func form(vals url.Values) (http.Header, string) {
	return http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, vals.Encode()
}

func TestSignInForm(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	tests := []struct{ callback, want string }{
		{"", "/admin"},
		{"/admin/users?page=2", "/admin/users?page=2"},
		{"http://127.0.0.1:8080/admin/posts", "/admin/posts"},
		{"https://evil.example/steal", "/admin"},
		{"//evil.example/steal", "/admin"},
	}
	for _, tt := range tests {
		h, body := form(url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}, "callbackUrl": {tt.callback}})
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", h, body)
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != tt.want || res.Header().Get("Set-Cookie") == "" {
			t.Errorf("callback %q: got %d to %q, want 303 to %q with a cookie", tt.callback, res.Code, res.Header().Get("Location"), tt.want)
		}
	}
	h, body := form(url.Values{"email": {"ada@example.com"}, "password": {"nope"}})
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", h, body)
	if res.Code != 401 || !strings.Contains(res.Body.String(), `data-testid="signin-error"`) || !strings.Contains(res.Body.String(), `value="ada@example.com"`) {
		t.Errorf("form with a wrong password: got %d %s", res.Code, res.Body)
	}
}

func TestSignInPage(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	res := apptest.Do(t, app, "GET", "/api/auth/signin?callbackUrl=/admin/users", nil)
	body := res.Body.String()
	if res.Code != 200 || !strings.Contains(body, `data-testid="signin-form"`) || !strings.Contains(body, `value="/admin/users"`) {
		t.Errorf("got %d %s", res.Code, body)
	}
	res = apptest.Do(t, app, "GET", "/admin", nil)
	if res.Code != http.StatusFound || res.Header().Get("Location") != "/api/auth/signin?callbackUrl=%2Fadmin" {
		t.Errorf("console without a session: %d to %q", res.Code, res.Header().Get("Location"))
	}
}

func TestSignInThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		for i := range 10 {
			res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"bad"}`)
			if res.Code != 401 {
				t.Fatalf("failure %d: got %d", i+1, res.Code)
			}
		}
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`)
		if res.Code != 429 || res.Header().Get("Retry-After") == "" || !strings.Contains(res.Body.String(), `"RATE_LIMITED"`) {
			t.Errorf("11th attempt: got %d %s (Retry-After %q), want 429", res.Code, res.Body, res.Header().Get("Retry-After"))
		}
	})
}

func TestSignInThrottlePerIP(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.RateLimit.SignInByIP = 3 })
	for i := range 3 {
		apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"user`+string(rune('a'+i))+`@example.com","password":"bad"}`)
	}
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"someone@example.com","password":"bad"}`)
	if res.Code != 429 {
		t.Errorf("after 3 failures from one IP: got %d, want 429", res.Code)
	}
}

func TestSignInRenewsSessionToken(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	app.UserWithPassword(t, "ada@example.com", "correct horse")
	anon := app.User(t, "planted@example.com")
	planted := app.SessionFor(t, anon.ID) // a session the attacker knows
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", planted, `{"email":"ada@example.com","password":"correct horse"}`)
	fresh := sessionCookie(t, res.Result())
	if res.Code != 200 || fresh == "" || "plaza_session="+fresh == planted.Get("Cookie") {
		t.Fatalf("sign-in kept the planted session token: %d %q", res.Code, fresh)
	}
	if body := apptest.Do(t, app, "GET", "/api/auth/session", planted).Body.String(); body != "{}\n" {
		t.Errorf("the planted token still works after sign-in: %s", body)
	}
}

func TestSignOut(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	u := app.User(t, "ada@example.com")
	cookie := app.SessionFor(t, u.ID)
	page := apptest.Do(t, app, "GET", "/api/auth/signout", cookie)
	if !strings.Contains(page.Body.String(), "ada@example.com") || !strings.Contains(page.Body.String(), `data-testid="signout-form"`) {
		t.Errorf("sign-out page: %s", page.Body)
	}
	h := cookie.Clone()
	h.Set("Accept", "application/json")
	res := apptest.Do(t, app, "POST", "/api/auth/signout", h)
	if res.Code != 200 || res.Body.String() != "{}\n" {
		t.Errorf("sign-out: %d %s", res.Code, res.Body)
	}
	if body := apptest.Do(t, app, "GET", "/api/auth/session", cookie).Body.String(); body != "{}\n" {
		t.Errorf("session after sign-out: %s", body)
	}
	for name, h := range map[string]http.Header{
		"form":             {"Content-Type": {"application/x-www-form-urlencoded"}},
		"browser":          {"Accept": {"text/html,application/xhtml+xml,*/*;q=0.8"}},
		"form asking JSON": {"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}},
	} {
		h.Set("Cookie", app.SessionFor(t, u.ID).Get("Cookie"))
		res = apptest.Do(t, app, "POST", "/api/auth/signout", h)
		redirected := res.Code == http.StatusSeeOther && res.Header().Get("Location") == "/api/auth/signin"
		if wantJSON := name == "form asking JSON"; redirected == wantJSON || wantJSON && res.Body.String() != "{}\n" {
			t.Errorf("%s sign-out: %d %q %s", name, res.Code, res.Header().Get("Location"), res.Body)
		}
	}
}

func TestBannedUsersSessionDies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		u := app.User(t, "ada@example.com", access.RoleAdmin)
		cookie := app.SessionFor(t, u.ID)
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", cookie); res.Code != 200 {
			t.Fatalf("before the ban: %d", res.Code)
		}
		// The ban is made behind Plaza's back, as psql would; on PostgreSQL
		// the instance hears of it through the change listener, at once
		// but not synchronously, so the test waits for it.
		if _, err := app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", u.ID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		apptest.WaitFor(t, "the ban to end the session", func() bool {
			return apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", cookie).Code == http.StatusUnauthorized
		})
		if body := apptest.Do(t, app, "GET", "/api/auth/session", cookie).Body.String(); body != "{}\n" {
			t.Errorf("session after the ban: %s", body)
		}
	})
}

func TestCrossOriginProtection(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, super := app.Admin(t)
	evil := cookie.Clone()
	evil.Set("Origin", "https://evil.example")
	evil.Set("Sec-Fetch-Site", "cross-site")
	res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", evil, `{"type":"post","id":"1"}`)
	if res.Code != 403 || strings.Contains(res.Body.String(), "INSUFFICIENT") {
		t.Errorf("cross-site cookie POST: %d %s, want 403", res.Code, res.Body)
	}
	bearer, _ := app.TokenFor(t, super.ID, access.PermAdminWrite)
	bearer.Set("Origin", "https://evil.example")
	bearer.Set("Sec-Fetch-Site", "cross-site")
	if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", bearer, `{"type":"post","id":"2"}`); res.Code != 201 {
		t.Errorf("cross-site bearer POST: %d %s, want 201", res.Code, res.Body)
	}
	same := cookie.Clone()
	same.Set("Origin", "http://127.0.0.1:8080")
	same.Set("Sec-Fetch-Site", "same-origin")
	if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", same, `{"type":"post","id":"3"}`); res.Code != 201 {
		t.Errorf("same-origin cookie POST: %d %s, want 201", res.Code, res.Body)
	}
}
