package handlers_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// nextAuthClient plays next-auth's client (next-auth/react 4.24) against
// the app: it keeps the cookies the app sets, as a browser does, and posts
// forms as signIn and signOut post them (Accept */*, json=true).
type nextAuthClient struct {
	t       *testing.T
	app     *apptest.App
	cookies map[string]string
}

func newNextAuthClient(t *testing.T, app *apptest.App) *nextAuthClient {
	return &nextAuthClient{t: t, app: app, cookies: map[string]string{}}
}

func (c *nextAuthClient) do(method, target string, form url.Values) *httptest.ResponseRecorder {
	c.t.Helper()
	h := http.Header{"Accept": {"*/*"}}
	var pairs []string
	for name, value := range c.cookies {
		pairs = append(pairs, name+"="+value)
	}
	if len(pairs) > 0 {
		h.Set("Cookie", strings.Join(pairs, "; "))
	}
	var body string
	if form != nil {
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		body = form.Encode()
	}
	res := apptest.DoBody(c.t, c.app, method, target, h, body)
	for _, ck := range res.Result().Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck.Value
		}
	}
	return res
}

// csrfToken is getCsrfToken().
func (c *nextAuthClient) csrfToken() string {
	c.t.Helper()
	res := c.do("GET", "/api/auth/csrf", nil)
	var got struct{ CSRFToken string }
	if err := json.Unmarshal(res.Body.Bytes(), &got); res.Code != 200 || err != nil || got.CSRFToken == "" {
		c.t.Fatalf("GET /api/auth/csrf: %d %s", res.Code, res.Body)
	}
	return got.CSRFToken
}

// post is signIn's or signOut's post with the token and json=true, fields
// added.
func (c *nextAuthClient) post(target string, fields url.Values) *httptest.ResponseRecorder {
	c.t.Helper()
	form := url.Values{"csrfToken": {c.csrfToken()}, "callbackUrl": {"http://127.0.0.1:8080/admin/users"}, "json": {"true"}}
	maps.Copy(form, fields)
	return c.do("POST", target, form)
}

func (c *nextAuthClient) signIn(email, password string, more url.Values) *httptest.ResponseRecorder {
	c.t.Helper()
	fields := url.Values{"email": {email}, "password": {password}, "redirect": {"false"}}
	maps.Copy(fields, more)
	return c.post("/api/auth/callback/credentials", fields)
}

// session is getSession(): the email signed in, or "" for {}.
func (c *nextAuthClient) session() string {
	c.t.Helper()
	res := c.do("GET", "/api/auth/session", nil)
	var got struct{ User struct{ Email string } }
	json.Unmarshal(res.Body.Bytes(), &got)
	return got.User.Email
}

// answerURL is the url of a {url} answer.
func answerURL(t *testing.T, res *httptest.ResponseRecorder) string {
	t.Helper()
	var got struct{ URL string }
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || got.URL == "" {
		t.Fatalf("want {url}, got %d %s", res.Code, res.Body)
	}
	return got.URL
}

func errorURL(name string) string {
	return "http://127.0.0.1:8080/api/auth/error?error=" + name
}

func TestNextAuthCSRFToken(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	c := newNextAuthClient(t, app)
	res := c.do("GET", "/api/auth/csrf", nil)
	set := res.Header().Get("Set-Cookie")
	for _, want := range []string{"plaza_csrf=", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("Set-Cookie %q lacks %s", set, want)
		}
	}
	if res.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", res.Header().Get("Cache-Control"))
	}
	first := answerToken(t, res)
	if !strings.HasPrefix(c.cookies["plaza_csrf"], first+"|") {
		t.Errorf("cookie %q does not carry token %q", c.cookies["plaza_csrf"], first)
	}
	res = c.do("GET", "/api/auth/csrf", nil)
	if got := answerToken(t, res); got != first || res.Header().Get("Set-Cookie") != "" {
		t.Errorf("with its cookie: token %q (was %q), Set-Cookie %q", got, first, res.Header().Get("Set-Cookie"))
	}
	c.cookies["plaza_csrf"] = "chosen|by-someone-else"
	if got := answerToken(t, c.do("GET", "/api/auth/csrf", nil)); got == "chosen" || got == first {
		t.Errorf("a cookie Plaza did not sign kept its token: %q", got)
	}

	secure := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.PublicAppURL = "https://plaza.example" })
	set = apptest.Do(t, secure, "GET", "/api/auth/csrf", nil).Header().Get("Set-Cookie")
	if !strings.HasPrefix(set, "__Host-plaza_csrf=") || !strings.Contains(set, "Secure") || strings.Contains(set, "Domain") {
		t.Errorf("behind https: Set-Cookie %q, want __Host-plaza_csrf, Secure, no Domain", set)
	}
}

func answerToken(t *testing.T, res *httptest.ResponseRecorder) string {
	t.Helper()
	var got struct{ CSRFToken string }
	if err := json.Unmarshal(res.Body.Bytes(), &got); res.Code != 200 || err != nil {
		t.Fatalf("GET /api/auth/csrf: %d %s", res.Code, res.Body)
	}
	return got.CSRFToken
}

// TestNextAuthCredentials: signIn("credentials", {redirect: false}) signs
// in with Plaza's session cookie and answers {url} of the callback (this
// site only); refusals name CredentialsSignin in the error page's url and
// leave no session.
func TestNextAuthCredentials(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		refusals := []struct{ name, email, password string }{
			{"wrong password", "ada@example.com", "wrong horse"},
			{"unknown email", "nobody@example.com", "correct horse"},
			{"no password", "ada@example.com", ""},
			{"no email", "", "correct horse"},
		}
		for _, tt := range refusals {
			t.Run(tt.name, func(t *testing.T) {
				c := newNextAuthClient(t, app)
				res := c.signIn(tt.email, tt.password, nil)
				if res.Code != 401 || answerURL(t, res) != errorURL("CredentialsSignin") {
					t.Errorf("got %d %s", res.Code, res.Body)
				}
				if _, ok := c.cookies["plaza_session"]; ok || c.session() != "" {
					t.Errorf("a refused sign-in left a session")
				}
			})
		}
		for callback, want := range map[string]string{
			"http://127.0.0.1:8080/admin/users": "http://127.0.0.1:8080/admin/users",
			"/admin/posts?status=flagged":       "http://127.0.0.1:8080/admin/posts?status=flagged",
			"https://evil.example/steal":        "http://127.0.0.1:8080/admin",
			"":                                  "http://127.0.0.1:8080/admin",
		} {
			c := newNextAuthClient(t, app)
			res := c.signIn("Ada@Example.com", "correct horse", url.Values{"callbackUrl": {callback}})
			if res.Code != 200 || answerURL(t, res) != want {
				t.Errorf("callback %q: got %d %s, want {url: %s}", callback, res.Code, res.Body, want)
			}
			if c.session() != "ada@example.com" {
				t.Errorf("callback %q: no session after signing in", callback)
			}
		}
		// A form without json=true (a plain page's) is sent on instead.
		c := newNextAuthClient(t, app)
		res := c.do("POST", "/api/auth/callback/credentials", url.Values{"csrfToken": {c.csrfToken()},
			"email": {"ada@example.com"}, "password": {"wrong"}})
		if res.Code != http.StatusFound || res.Header().Get("Location") != errorURL("CredentialsSignin") {
			t.Errorf("plain form, wrong password: %d to %q", res.Code, res.Header().Get("Location"))
		}
		res = c.do("POST", "/api/auth/callback/credentials", url.Values{"csrfToken": {c.csrfToken()},
			"email": {"ada@example.com"}, "password": {"correct horse"}, "callbackUrl": {"/admin/posts"}})
		if res.Code != http.StatusFound || res.Header().Get("Location") != "http://127.0.0.1:8080/admin/posts" || c.session() == "" {
			t.Errorf("plain form: %d to %q", res.Code, res.Header().Get("Location"))
		}
	})
}

// TestNextAuthCSRFRefused: each post of next-auth's client is refused
// (403, MissingCSRF or CSRF_INVALID) unless its csrfToken is the one its
// cookie carries, and the refusal changes nothing: no session is opened,
// none ends, no provider's sign-in starts.
func TestNextAuthCSRFRefused(t *testing.T) {
	app, _ := newOAuthApp(t, dbtest.Open(t, "sqlite"))
	ada := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	stranger := newNextAuthClient(t, app)
	strangerToken := stranger.csrfToken()
	forms := map[string]url.Values{
		"/api/auth/callback/credentials": {"email": {"ada@example.com"}, "password": {"correct horse"}},
		"/api/auth/signin/github":        {},
		"/api/auth/signout":              {},
	}
	cases := []struct {
		name  string
		token func(c *nextAuthClient) (string, bool) // the csrfToken field, and whether to send one
		setup func(c *nextAuthClient)
	}{
		{"no token", func(*nextAuthClient) (string, bool) { return "", false }, nil},
		{"empty token", func(*nextAuthClient) (string, bool) { return "", true }, nil},
		{"another browser's token", func(*nextAuthClient) (string, bool) { return strangerToken, true }, nil},
		{"token without its cookie", func(c *nextAuthClient) (string, bool) {
			tok := c.csrfToken()
			delete(c.cookies, "plaza_csrf")
			return tok, true
		}, nil},
		{"a cookie Plaza did not sign", func(c *nextAuthClient) (string, bool) {
			c.cookies["plaza_csrf"] = "chosen|0000"
			return "chosen", true
		}, nil},
		{"another browser's cookie and token, mixed", func(c *nextAuthClient) (string, bool) {
			c.csrfToken()
			return strangerToken + "0", true
		}, nil},
	}
	for target, fields := range forms {
		for _, tt := range cases {
			t.Run(target+"/"+tt.name, func(t *testing.T) {
				c := newNextAuthClient(t, app)
				maps.Copy(c.cookies, sessionCookies(t, app.SessionFor(t, ada.ID)))
				form := url.Values{"json": {"true"}, "callbackUrl": {"/admin"}}
				maps.Copy(form, fields)
				if tok, send := tt.token(c); send {
					form.Set("csrfToken", tok)
				}
				before := c.cookies["plaza_session"]
				res := c.do("POST", target, form)
				wantBody := `"url":"` + errorURL("MissingCSRF") + `"`
				if target == "/api/auth/signout" {
					wantBody = `"code":"CSRF_INVALID"`
				}
				if res.Code != 403 || !strings.Contains(res.Body.String(), wantBody) {
					t.Errorf("got %d %s, want 403 with %s", res.Code, res.Body, wantBody)
				}
				if strings.Contains(res.Body.String(), "/authorize") || c.cookies["plaza_session"] != before {
					t.Errorf("a refused post went ahead: %s (Set-Cookie %q)", res.Body, res.Header().Get("Set-Cookie"))
				}
				if c.session() != "ada@example.com" {
					t.Error("a refused post ended the session")
				}
			})
		}
	}
	// The refused credentials never signed anyone in: a browser without a
	// session gets none from a post with a wrong token.
	c := newNextAuthClient(t, app)
	res := c.do("POST", "/api/auth/callback/credentials", url.Values{"json": {"true"}, "csrfToken": {strangerToken},
		"email": {"ada@example.com"}, "password": {"correct horse"}})
	if res.Code != 403 || c.session() != "" {
		t.Errorf("credentials with a stranger's token: %d %s, session %q", res.Code, res.Body, c.session())
	}
}

// sessionCookies are the cookies of a session header from SessionFor.
func sessionCookies(t *testing.T, h http.Header) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, part := range strings.Split(h.Get("Cookie"), ";") {
		if name, value, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
			out[name] = value
		}
	}
	if out["plaza_session"] == "" {
		t.Fatalf("no session cookie in %v", h)
	}
	return out
}

// TestNextAuthTwoFactor: an enrolled account signs in through next-auth
// with its code among signIn's options; without it the url names
// TOTP_REQUIRED, with a wrong one TOTP_INVALID, audited as Plaza's own
// sign-in audits them.
func TestNextAuthTwoFactor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		secret, recovery := enrol(t, app, clock, app.SessionFor(t, u.ID))
		clock.Add(30 * time.Second)
		tests := []struct {
			name   string
			more   url.Values
			status int
			want   string
		}{
			{"no code", nil, 401, errorURL("TOTP_REQUIRED")},
			{"wrong code", url.Values{"totp": {wrongCode(t, secret, clock.Now())}}, 401, errorURL("TOTP_INVALID")},
			{"right code", url.Values{"totp": {code(t, secret, clock.Now())}}, 200, "http://127.0.0.1:8080/admin/users"},
			{"the same code again", url.Values{"totp": {code(t, secret, clock.Now())}}, 401, errorURL("TOTP_INVALID")},
			{"recovery code", url.Values{"recoveryCode": {recovery[0]}}, 200, "http://127.0.0.1:8080/admin/users"},
		}
		for _, tt := range tests {
			c := newNextAuthClient(t, app)
			res := c.signIn("ada@example.com", "correct horse", tt.more)
			if res.Code != tt.status || answerURL(t, res) != tt.want {
				t.Errorf("%s: got %d %s, want %d {url: %s}", tt.name, res.Code, res.Body, tt.status, tt.want)
			}
			if signedIn := c.session() != ""; signedIn != (tt.status == 200) {
				t.Errorf("%s: signed in %v", tt.name, signedIn)
			}
		}
		app.FlushAudit(t)
		counts := map[string]int{}
		for _, e := range app.AuditEntries(t) {
			if e.Action == "auth.second_factor" {
				counts[strconv.Itoa(e.Status)]++
			}
		}
		if counts["401"] != 2 || counts["200"] != 1 {
			t.Errorf("auth.second_factor entries by status %v, want two refused codes and one recovery code used", counts)
		}
	})
}

// TestNextAuthSharesTheThrottle: failures through next-auth and through
// Plaza's own sign-in count against one budget per email.
func TestNextAuthSharesTheThrottle(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	limit := app.Deps.Config.RateLimit.SignInByEmail
	for i := range limit {
		var code int
		if i%2 == 0 {
			code = newNextAuthClient(t, app).signIn("ada@example.com", "wrong", nil).Code
		} else {
			code = apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"wrong"}`).Code
		}
		if code != 401 {
			t.Fatalf("failure %d: %d", i+1, code)
		}
	}
	res := newNextAuthClient(t, app).signIn("ada@example.com", "correct horse", nil)
	if res.Code != 429 || res.Header().Get("Retry-After") == "" || answerURL(t, res) != errorURL("RATE_LIMITED") {
		t.Errorf("next-auth after %d failures: %d %s", limit, res.Code, res.Body)
	}
	res = apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`)
	if res.Code != 429 {
		t.Errorf("Plaza's sign-in after %d failures: %d %s", limit, res.Code, res.Body)
	}
}

// TestNextAuthProviderSignIn: signIn("github") posts to
// /api/auth/signin/github and follows the url to the provider; coming back
// to Plaza's callback signs in as the GET start does.
func TestNextAuthProviderSignIn(t *testing.T) {
	app, f := newOAuthApp(t, dbtest.Open(t, "sqlite"))
	f.githubUser, f.githubEmails = adaGitHub, adaEmails
	c := newNextAuthClient(t, app)
	res := c.post("/api/auth/signin/github", nil)
	authURL, err := url.Parse(answerURL(t, res))
	if res.Code != 200 || err != nil || !strings.HasPrefix(authURL.String(), f.URL+"/authorize?") || authURL.Query().Get("state") == "" {
		t.Fatalf("got %d %s", res.Code, res.Body)
	}
	back := consent(t, authURL)
	res = c.do("GET", back.RequestURI(), nil)
	if res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/admin/users" || c.session() != "ada@example.com" {
		t.Errorf("callback: %d to %q, session %q", res.Code, res.Header().Get("Location"), c.session())
	}

	if got := answerURL(t, c.post("/api/auth/signin/credentials", nil)); got != "http://127.0.0.1:8080/api/auth/signin?callbackUrl=%2Fadmin%2Fusers" {
		t.Errorf("credentials: {url: %s}, want the sign-in page", got)
	}
	res = c.post("/api/auth/signin/myspace", nil)
	if res.Code != 404 || answerURL(t, res) != errorURL("NOT_FOUND") {
		t.Errorf("unknown provider: %d %s", res.Code, res.Body)
	}
	// Plaza's GET start keeps the general family's errors.
	res = apptest.Do(t, app, "GET", "/api/auth/signin/myspace", nil)
	if res.Code != 404 || !strings.Contains(res.Body.String(), `{"error":{"code":"NOT_FOUND"`) {
		t.Errorf("GET unknown provider: %d %s", res.Code, res.Body)
	}
}

// TestNextAuthSignOut: signOut({redirect: false}) ends Plaza's session and
// answers {url}; Plaza's own form and JSON sign-out are as they were.
func TestNextAuthSignOut(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	c := newNextAuthClient(t, app)
	if res := c.signIn("ada@example.com", "correct horse", nil); res.Code != 200 {
		t.Fatalf("sign in: %d %s", res.Code, res.Body)
	}
	old := c.cookies["plaza_session"]
	res := c.post("/api/auth/signout", url.Values{"callbackUrl": {"http://127.0.0.1:8080/goodbye"}})
	if res.Code != 200 || answerURL(t, res) != "http://127.0.0.1:8080/goodbye" {
		t.Errorf("sign out: %d %s", res.Code, res.Body)
	}
	if c.session() != "" {
		t.Error("still signed in")
	}
	if s := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(old)); s.Body.String() != "{}\n" {
		t.Errorf("the old cookie still opens a session: %s", s.Body)
	}
	if got := answerURL(t, c.post("/api/auth/signout", url.Values{"callbackUrl": {"https://evil.example/"}})); got != "http://127.0.0.1:8080/api/auth/signin" {
		t.Errorf("off-site callback: {url: %s}", got)
	}

	u := app.UserWithPassword(t, "bob@example.com", "correct horse")
	h, body := form(url.Values{})
	maps.Copy(h, app.SessionFor(t, u.ID))
	if res := apptest.DoBody(t, app, "POST", "/api/auth/signout", h, body); res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/api/auth/signin" {
		t.Errorf("Plaza's sign-out form: %d to %q", res.Code, res.Header().Get("Location"))
	}
	if res := apptest.Do(t, app, "POST", "/api/auth/signout", app.SessionFor(t, u.ID)); res.Code != 200 || res.Body.String() != "{}\n" {
		t.Errorf("JSON sign-out: %d %s", res.Code, res.Body)
	}
}

// TestNextAuthCrossOrigin: the pipeline's cross-origin check comes before
// the token, and its refusal too is {url} naming the error.
func TestNextAuthCrossOrigin(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	app.UserWithPassword(t, "ada@example.com", "correct horse")
	c := newNextAuthClient(t, app)
	form := url.Values{"json": {"true"}, "csrfToken": {c.csrfToken()}, "email": {"ada@example.com"}, "password": {"correct horse"}}
	req := httptest.NewRequest("POST", "/api/auth/callback/credentials", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Cookie", "plaza_csrf="+c.cookies["plaza_csrf"])
	res := httptest.NewRecorder()
	app.ServeHTTP(res, req)
	app.CheckDocumented(t, req, res)
	if res.Code != 403 || answerURL(t, res) != errorURL("FORBIDDEN") || res.Header().Get("Set-Cookie") != "" {
		t.Errorf("cross-site post: %d %s", res.Code, res.Body)
	}
}

func TestNextAuthErrorPage(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	tests := []struct{ query, want, not string }{
		{"?error=CredentialsSignin", "The email or password is wrong", ""},
		{"?error=MissingCSRF", "security token", ""},
		{"?error=TOTP_REQUIRED", "two-factor sign-in", ""},
		{"?error=RATE_LIMITED", "Too many attempts", ""},
		{"?error=SomethingNew", "<code>SomethingNew</code>", ""},
		{"?error=%3Cscript%3Ealert(1)%3C/script%3E", "Sign-in could not be completed", "<script>alert"},
		{"", "Sign-in could not be completed", "<code>"},
	}
	for _, tt := range tests {
		res := apptest.Do(t, app, "GET", "/api/auth/error"+tt.query, nil)
		body := res.Body.String()
		if res.Code != 200 || !strings.Contains(body, tt.want) || tt.not != "" && strings.Contains(body, tt.not) ||
			!strings.Contains(body, `href="/api/auth/signin"`) || !strings.HasPrefix(res.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s: got %d, want the page with %q and without %q: %.400s", tt.query, res.Code, tt.want, tt.not, body)
		}
	}
}
