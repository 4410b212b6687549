package handlers_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/github"
	"github.com/markbates/goth/providers/gitlab"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// fakeOAuth is a local OAuth2 authorization server with GitHub's and
// GitLab's user APIs, as goth's github and gitlab providers call them: the
// outside world of an external sign-in, on 127.0.0.1.
type fakeOAuth struct {
	*httptest.Server
	clients map[string]string // client id → secret

	mu     sync.Mutex
	codes  map[string]string // code → redirect_uri, each usable once
	tokens map[string]bool
	// What the user APIs answer.
	githubUser, githubEmails, gitlabUser string
}

func newFakeOAuth(t *testing.T) *fakeOAuth {
	t.Helper()
	f := &fakeOAuth{clients: map[string]string{"gh-key": "gh-secret", "gl-key": "gl-secret"},
		codes: map[string]string{}, tokens: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", f.authorize)
	mux.HandleFunc("POST /token", f.token)
	mux.HandleFunc("GET /github/user", f.api(func() string { return f.githubUser }))
	mux.HandleFunc("GET /github/user/emails", f.api(func() string { return f.githubEmails }))
	mux.HandleFunc("GET /gitlab/api/v4/user", f.api(func() string { return f.gitlabUser }))
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// authorize is the provider's consent page, consenting at once: it sends the
// browser back to redirect_uri with a fresh code and the caller's state.
func (f *fakeOAuth) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if _, ok := f.clients[q.Get("client_id")]; !ok || q.Get("response_type") != "code" || q.Get("state") == "" || q.Get("redirect_uri") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := rand.Text()
	f.mu.Lock()
	f.codes[code] = q.Get("redirect_uri")
	f.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token exchanges a code once, for the client it was issued to.
func (f *fakeOAuth) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	redirect, known := f.codes[r.PostForm.Get("code")]
	delete(f.codes, r.PostForm.Get("code"))
	w.Header().Set("Content-Type", "application/json")
	if f.clients[id] == "" || f.clients[id] != secret || r.PostForm.Get("grant_type") != "authorization_code" ||
		!known || redirect != r.PostForm.Get("redirect_uri") {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":"invalid_grant"}`))
		return
	}
	tok := rand.Text()
	f.tokens[tok] = true
	json.NewEncoder(w).Encode(map[string]string{"access_token": tok, "token_type": "bearer"})
}

// api answers a user API call made with a token the server issued, as a
// bearer header (GitHub) or an access_token parameter (GitLab).
func (f *fakeOAuth) api(body func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if tok == "" {
			tok = r.URL.Query().Get("access_token")
		}
		f.mu.Lock()
		ok := f.tokens[tok]
		f.mu.Unlock()
		if !ok {
			http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body()))
	}
}

// providers are goth's real github and gitlab providers pointed at the fake.
func (f *fakeOAuth) providers(publicURL string) []goth.Provider {
	return []goth.Provider{
		github.NewCustomisedURL("gh-key", "gh-secret", publicURL+"/api/auth/callback/github",
			f.URL+"/authorize", f.URL+"/token", f.URL+"/github/user", f.URL+"/github/user/emails", "user:email"),
		gitlab.NewCustomisedURL("gl-key", "gl-secret", publicURL+"/api/auth/callback/gitlab",
			f.URL+"/authorize", f.URL+"/token", f.URL+"/gitlab/api/v4/user", "read_user"),
	}
}

// newOAuthApp is the real app with the fake's providers enabled.
func newOAuthApp(t *testing.T, db *bun.DB) (*apptest.App, *fakeOAuth) {
	t.Helper()
	f := newFakeOAuth(t)
	app := apptest.New(t, db, func(d *web.Deps) { d.OAuthProviders = f.providers(d.Config.PublicAppURL) })
	return app, f
}

// begin starts an external sign-in and returns the provider's authorization
// URL and the session cookie that holds the state.
func begin(t *testing.T, a *apptest.App, provider, query string) (*url.URL, string) {
	t.Helper()
	res := apptest.Do(t, a, "GET", "/api/auth/signin/"+provider+query, nil)
	if res.Code != http.StatusFound {
		t.Fatalf("begin %s: got %d %s", provider, res.Code, res.Body)
	}
	loc, err := url.Parse(res.Header().Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	token := sessionCookie(t, res.Result())
	if token == "" {
		t.Fatal("begin set no session cookie")
	}
	return loc, token
}

// consent plays the browser at the provider: it follows the authorization
// URL and returns where the provider sends the browser back to on Plaza.
func consent(t *testing.T, authURL *url.URL) *url.URL {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(authURL.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("provider authorization: %d", res.StatusCode)
	}
	back, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// signInWith runs the whole round trip and returns the callback's response.
func signInWith(t *testing.T, a *apptest.App, provider, query string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	authURL, token := begin(t, a, provider, query)
	back := consent(t, authURL)
	h := cookieHeader(token)
	for k, vs := range header {
		h[k] = vs
	}
	return apptest.Do(t, a, "GET", back.RequestURI(), h)
}

func links(t *testing.T, a *apptest.App) []models.ProviderAccount {
	t.Helper()
	var rows []models.ProviderAccount
	if err := a.Store.DB.NewSelect().Model(&rows).Order("pa.id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

const (
	adaGitHub       = `{"id":4242,"login":"AdaL","name":"Ada Lovelace","avatar_url":"https://avatars.example/ada.png","email":null}`
	adaEmails       = `[{"email":"old@example.com","primary":false,"verified":true},{"email":"Ada@Example.com","primary":true,"verified":true}]`
	adaUnverified   = `[{"email":"ada@example.com","primary":true,"verified":false}]`
	adaGitLab       = `{"id":77,"username":"ada","name":"Ada","email":"ada@example.com","confirmed_at":"2024-01-02T03:04:05Z"}`
	adaGitLabUnconf = `{"id":77,"username":"ada","name":"Ada","email":"ada@example.com","confirmed_at":null}`
)

func TestOAuthSignInCreatesUser(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, f := newOAuthApp(t, db)
		f.githubUser, f.githubEmails = adaGitHub, adaEmails

		authURL, beginToken := begin(t, app, "github", "?callbackUrl=/admin/users")
		q := authURL.Query()
		if authURL.Host != strings.TrimPrefix(f.URL, "http://") || authURL.Path != "/authorize" || q.Get("state") == "" ||
			q.Get("client_id") != "gh-key" || q.Get("scope") != "user:email" ||
			q.Get("redirect_uri") != "http://127.0.0.1:8080/api/auth/callback/github" {
			t.Fatalf("authorization URL %s", authURL)
		}
		back := consent(t, authURL)
		if back.Path != "/api/auth/callback/github" || back.Query().Get("state") != q.Get("state") {
			t.Fatalf("provider sent the browser to %s", back)
		}
		res := apptest.Do(t, app, "GET", back.RequestURI(), cookieHeader(beginToken))
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/admin/users" {
			t.Fatalf("callback: got %d to %q %s", res.Code, res.Header().Get("Location"), res.Body)
		}
		token := sessionCookie(t, res.Result())
		if token == "" || token == beginToken {
			t.Fatalf("callback kept the pre-sign-in session token (%q)", token)
		}
		var sess struct {
			User struct{ ID, Email, Role string }
		}
		body := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(token)).Body.String()
		json.Unmarshal([]byte(body), &sess)
		if sess.User.Email != "ada@example.com" || sess.User.Role != "user" ||
			!strings.Contains(body, `"name":"Ada Lovelace"`) || !strings.Contains(body, `"image":"https://avatars.example/ada.png"`) {
			t.Errorf("session after the callback: %s", body)
		}
		u, err := app.Store.Users.UserByEmail(context.Background(), "ada@example.com")
		if err != nil || u.Username != "adal" || u.EmailVerified == nil || u.LoginCount != 1 {
			t.Errorf("created user %+v, %v", u, err)
		}
		rows := links(t, app)
		if len(rows) != 1 || rows[0].UserID != u.ID || rows[0].Provider != "github" || rows[0].ProviderUserID != "4242" ||
			rows[0].Email == nil || *rows[0].Email != "ada@example.com" || !rows[0].EmailVerified || rows[0].LastUsedAt == nil {
			t.Errorf("provider accounts %+v", rows)
		}
		var method string
		app.Store.DB.NewSelect().Model((*models.Login)(nil)).Column("method").Where("user_id = ?", u.ID).Scan(context.Background(), &method)
		if method != "github" {
			t.Errorf("login method %q, want github", method)
		}

		// The provider's redirect is good once.
		if res := apptest.Do(t, app, "GET", back.RequestURI(), cookieHeader(token)); res.Code != http.StatusUnauthorized {
			t.Errorf("replayed callback: got %d %s, want 401", res.Code, res.Body)
		}

		// Signing in again finds the same user through the link.
		res = signInWith(t, app, "github", "", nil)
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/admin" {
			t.Errorf("second sign-in: %d to %q", res.Code, res.Header().Get("Location"))
		}
		if n, _ := app.Store.Users.CountUsers(context.Background()); n != 1 || len(links(t, app)) != 1 {
			t.Errorf("second sign-in made %d users, %d links; want 1, 1", n, len(links(t, app)))
		}
	})
}

func TestOAuthSignInLinksVerifiedEmail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, f := newOAuthApp(t, db)
		// An account nobody has used: an invitation, with no password,
		// second factor or sign-in yet.
		ada := app.User(t, "ada@example.com", "admin")
		f.gitlabUser = adaGitLab
		res := signInWith(t, app, "gitlab", "?callbackUrl=https://evil.example/steal", nil)
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/admin" {
			t.Fatalf("callback: got %d to %q %s", res.Code, res.Header().Get("Location"), res.Body)
		}
		body := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(sessionCookie(t, res.Result()))).Body.String()
		if !strings.Contains(body, `"id":"`+strconv.FormatInt(ada.ID, 10)+`"`) || !strings.Contains(body, `"role":"admin"`) {
			t.Errorf("session: %s, want user %d", body, ada.ID)
		}
		if n, _ := app.Store.Users.CountUsers(context.Background()); n != 1 {
			t.Errorf("%d users, want 1 (linked, not created)", n)
		}
		if rows := links(t, app); len(rows) != 1 || rows[0].UserID != ada.ID || rows[0].Provider != "gitlab" || rows[0].ProviderUserID != "77" {
			t.Errorf("provider accounts %+v", rows)
		}
	})
}

func TestOAuthSignInRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, f := newOAuthApp(t, db)
		app.User(t, "ada@example.com")
		banned := app.User(t, "bob@example.com")
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", banned.ID).Exec(context.Background())
		tests := []struct {
			name, provider             string
			githubUser, emails, gitlab string
			want                       string
		}{
			{"unverified email of an existing user", "gitlab", "", "", adaGitLabUnconf, "email address is not verified"},
			{"no verified GitHub email", "github", `{"id":5,"login":"ada"}`, adaUnverified, "", "has no verified email address"},
			{"banned user", "github", `{"id":6,"login":"bob","email":"bob@example.com"}`, "[]", "", "This account is banned and cannot sign in"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				f.githubUser, f.githubEmails, f.gitlabUser = tt.githubUser, tt.emails, tt.gitlab
				res := signInWith(t, app, tt.provider, "", nil)
				if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), `"code":"UNAUTHORIZED"`) ||
					!strings.Contains(res.Body.String(), tt.want) {
					t.Errorf("got %d %s, want 401 saying %q", res.Code, res.Body, tt.want)
				}
				if tok := sessionCookie(t, res.Result()); tok != "" {
					if body := apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(tok)).Body.String(); body != "{}\n" {
						t.Errorf("refused sign-in left a session: %s", body)
					}
				}
				page := signInWith(t, app, tt.provider, "", http.Header{"Accept": {"text/html,application/xhtml+xml"}})
				if page.Code != http.StatusUnauthorized || !strings.Contains(page.Body.String(), `data-testid="signin-error"`) {
					t.Errorf("browser: got %d %s, want the sign-in page with the message", page.Code, page.Body)
				}
			})
		}
		if n, _ := app.Store.Users.CountUsers(context.Background()); n != 2 || len(links(t, app)) != 0 {
			t.Errorf("refusals wrote: %d users, %d links; want 2, 0", n, len(links(t, app)))
		}
	})
}

func TestOAuthStateChecked(t *testing.T) {
	app, f := newOAuthApp(t, dbtest.Open(t, "sqlite"))
	f.githubUser, f.githubEmails = adaGitHub, adaEmails
	for _, tt := range []struct {
		name, want string
		tamper     func(back *url.URL, token string) (string, http.Header)
	}{
		{"state mismatch", "expired", func(back *url.URL, token string) (string, http.Header) {
			q := back.Query()
			q.Set("state", "forged")
			back.RawQuery = q.Encode()
			return back.RequestURI(), cookieHeader(token)
		}},
		{"state missing", "expired", func(back *url.URL, token string) (string, http.Header) {
			q := back.Query()
			q.Del("state")
			back.RawQuery = q.Encode()
			return back.RequestURI(), cookieHeader(token)
		}},
		{"no session", "expired", func(back *url.URL, _ string) (string, http.Header) { return back.RequestURI(), nil }},
		{"another provider's callback", "expired", func(back *url.URL, token string) (string, http.Header) {
			back.Path = "/api/auth/callback/gitlab"
			return back.RequestURI(), cookieHeader(token)
		}},
		{"provider refused the code", "GitHub did not confirm the sign-in", func(back *url.URL, token string) (string, http.Header) {
			q := back.Query()
			q.Set("code", "stolen")
			back.RawQuery = q.Encode()
			return back.RequestURI(), cookieHeader(token)
		}},
		{"provider error", "cancelled or refused", func(back *url.URL, token string) (string, http.Header) {
			q := back.Query()
			q.Del("code")
			q.Set("error", "access_denied")
			back.RawQuery = q.Encode()
			return back.RequestURI(), cookieHeader(token)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			authURL, token := begin(t, app, "github", "")
			target, h := tt.tamper(consent(t, authURL), token)
			res := apptest.Do(t, app, "GET", target, h)
			if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), `"UNAUTHORIZED"`) || !strings.Contains(res.Body.String(), tt.want) {
				t.Errorf("got %d %s, want 401 saying %q", res.Code, res.Body, tt.want)
			}
		})
	}
	if n, _ := app.Store.Users.CountUsers(context.Background()); n != 0 {
		t.Errorf("%d users after refused callbacks, want 0", n)
	}
}

func TestOAuthStateExpires(t *testing.T) {
	f := newFakeOAuth(t)
	f.githubUser, f.githubEmails = adaGitHub, adaEmails
	var mu sync.Mutex
	now := time.Now().UTC()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.OAuthProviders = f.providers(d.Config.PublicAppURL)
		d.Now = clock
	})
	authURL, token := begin(t, app, "github", "")
	back := consent(t, authURL)
	mu.Lock()
	now = now.Add(handlers.OAuthStateTTL + time.Second)
	mu.Unlock()
	res := apptest.Do(t, app, "GET", back.RequestURI(), cookieHeader(token))
	if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), "expired") {
		t.Errorf("callback after %v: got %d %s, want 401", handlers.OAuthStateTTL, res.Code, res.Body)
	}
}

func TestOAuthUnknownProvider(t *testing.T) {
	app, _ := newOAuthApp(t, dbtest.Open(t, "sqlite"))
	for _, path := range []string{"/api/auth/signin/myspace", "/api/auth/signin/google", "/api/auth/callback/myspace?code=x&state=y"} {
		res := apptest.Do(t, app, "GET", path, nil)
		if res.Code != http.StatusNotFound || !strings.Contains(res.Body.String(), `{"error":{"code":"NOT_FOUND"`) {
			t.Errorf("%s: got %d %s, want 404 NOT_FOUND", path, res.Code, res.Body)
		}
	}
}

func TestOAuthProvidersListed(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		app := apptest.New(t, dbtest.Open(t, "sqlite"))
		want := `{"credentials":{"id":"credentials","name":"Email and password","type":"credentials",` +
			`"signinUrl":"http://127.0.0.1:8080/api/auth/signin","callbackUrl":"http://127.0.0.1:8080/api/auth/callback/credentials"}}` + "\n"
		if res := apptest.Do(t, app, "GET", "/api/auth/providers", nil); res.Code != 200 || res.Body.String() != want {
			t.Errorf("got %d %s, want only password sign-in, %s", res.Code, res.Body, want)
		}
		if body := apptest.Do(t, app, "GET", "/api/auth/signin", nil).Body.String(); strings.Contains(body, "signin-providers") {
			t.Errorf("sign-in page lists providers when none is enabled")
		}
	})
	t.Run("enabled by env keys", func(t *testing.T) {
		app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
			d.OAuthProviders = auth.OAuthProviders(auth.ProviderKeys{GitHubKey: "k", GitHubSecret: "s", DiscordKey: "k", DiscordSecret: "s"}, d.Config.PublicAppURL)
		})
		res := apptest.Do(t, app, "GET", "/api/auth/providers", nil)
		var got map[string]map[string]string
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]string{
			"github": {"id": "github", "name": "GitHub", "type": "oauth",
				"signinUrl": "http://127.0.0.1:8080/api/auth/signin/github", "callbackUrl": "http://127.0.0.1:8080/api/auth/callback/github"},
			"discord": {"id": "discord", "name": "Discord", "type": "oauth",
				"signinUrl": "http://127.0.0.1:8080/api/auth/signin/discord", "callbackUrl": "http://127.0.0.1:8080/api/auth/callback/discord"},
			"credentials": {"id": "credentials", "type": "credentials", "callbackUrl": "http://127.0.0.1:8080/api/auth/callback/credentials"},
		}
		if len(got) != len(want) || got["github"]["signinUrl"] != want["github"]["signinUrl"] {
			t.Fatalf("got %s", res.Body)
		}
		for id, w := range want {
			for k, v := range w {
				if got[id][k] != v {
					t.Errorf("%s.%s = %q, want %q", id, k, got[id][k], v)
				}
			}
		}
		page := apptest.Do(t, app, "GET", "/api/auth/signin", nil).Body.String()
		for _, want := range []string{`data-testid="provider-github"`, `data-testid="provider-discord"`, "Continue with GitHub", `href="http://127.0.0.1:8080/api/auth/signin/discord"`} {
			if !strings.Contains(page, want) {
				t.Errorf("sign-in page lacks %s", want)
			}
		}
		if strings.Contains(page, "provider-google") || strings.Contains(page, "provider-credentials") {
			t.Errorf("sign-in page lists a disabled provider")
		}
	})
}

// TestOAuthNeverTakesOverAnAccount: a provider vouching for an email
// reaches no account that someone already uses. Before, the first OAuth
// sign-in with the address of an account whose email was never verified
// (every self-registered one) cleared its password, removed its
// authenticator and recovery codes and opened a confirmed session without a
// code, for a promoted admin too: mailbox control alone beat the second
// factor and locked the owner out. Now an account with a password, a second
// factor or any sign-in history is neither linked nor signed in; its owner
// signs in the usual way and links the provider from the account page.
func TestOAuthNeverTakesOverAnAccount(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app, f := newOAuthApp(t, db)
		res := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":"Ada","email":"ada@example.com","password":"owner pass phrase 9"}`)
		if res.Code != http.StatusCreated {
			t.Fatalf("register: %d %s", res.Code, res.Body)
		}
		owner := signIn(t, app, "ada@example.com", "owner pass phrase 9", firefoxLinux)
		ada, err := app.Store.Users.UserByEmail(ctx, "ada@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := app.Store.DB.NewInsert().Model(&models.UserRole{UserID: ada.ID, RoleID: roleID(t, app, "admin"), GrantedAt: time.Now()}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := app.Store.Auth.StartTwoFactor(ctx, ada.ID, "the owner's secret"); err != nil {
			t.Fatal(err)
		}
		if err := app.Store.Auth.EnableTwoFactor(ctx, ada.ID, 1, []string{"code"}); err != nil {
			t.Fatal(err)
		}
		// Grace has no password: her account was made by a GitHub sign-in.
		f.githubUser, f.githubEmails = `{"id":99,"login":"grace","email":"grace@example.com"}`, "[]"
		if res := signInWith(t, app, "github", "", nil); res.Code != http.StatusSeeOther {
			t.Fatalf("grace's github sign-in: %d %s", res.Code, res.Body)
		}

		for _, tt := range []struct{ name, gitlab, email string }{
			{"password and second factor", adaGitLab, "ada@example.com"},
			{"sign-in history", `{"id":78,"username":"grace","email":"grace@example.com","confirmed_at":"2024-01-02T03:04:05Z"}`, "grace@example.com"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				before, err := app.Store.Users.UserByEmail(ctx, tt.email)
				if err != nil {
					t.Fatal(err)
				}
				f.gitlabUser = tt.gitlab
				res := signInWith(t, app, "gitlab", "", nil)
				want := "An account with this email exists; sign in with your password, then link GitLab from your account page"
				if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), want) {
					t.Errorf("callback: got %d %s, want 401 saying %q", res.Code, res.Body, want)
				}
				if tok := sessionCookie(t, res.Result()); tok != "" && signedIn(t, app, cookieHeader(tok)) {
					t.Error("the callback opened a session")
				}
				page := signInWith(t, app, "gitlab", "", http.Header{"Accept": {"text/html,application/xhtml+xml"}})
				if page.Code != http.StatusUnauthorized || !strings.Contains(page.Body.String(), `data-testid="signin-error"`) ||
					!strings.Contains(page.Body.String(), "then link GitLab from your account page") {
					t.Errorf("browser: got %d %s, want the sign-in page with the message", page.Code, page.Body)
				}
				after, err := app.Store.Users.UserByEmail(ctx, tt.email)
				if err != nil {
					t.Fatal(err)
				}
				if !equalPtr(before.PasswordHash, after.PasswordHash) || !equalTime(before.EmailVerified, after.EmailVerified) {
					t.Errorf("the account changed: password %v → %v, verified %v → %v", before.PasswordHash != nil, after.PasswordHash != nil, before.EmailVerified, after.EmailVerified)
				}
				for _, l := range links(t, app) {
					if l.Provider == "gitlab" {
						t.Errorf("the callback linked gitlab to user %d", l.UserID)
					}
				}
			})
		}
		if !signedIn(t, app, owner) {
			t.Error("the owner's session ended")
		}
		if on, err := app.Store.Auth.TwoFactorEnabled(ctx, ada.ID); err != nil || !on {
			t.Errorf("the owner's authenticator is gone (%v)", err)
		}
		res = apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"owner pass phrase 9"}`)
		if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), `"TOTP_REQUIRED"`) {
			t.Errorf("the owner's password and code: %d %s, want TOTP_REQUIRED", res.Code, res.Body)
		}
	})
}

// TestOAuthSignInAsksTheCode: a provider stands in for the password only;
// an account enrolled in two-factor sign-in still gives its code, and the
// callback opens no session without it.
func TestOAuthSignInAsksTheCode(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app, f := newOAuthApp(t, db)
		f.githubUser, f.githubEmails = adaGitHub, adaEmails
		if res := signInWith(t, app, "github", "", nil); res.Code != http.StatusSeeOther {
			t.Fatalf("first sign-in: %d %s", res.Code, res.Body)
		}
		u, err := app.Store.Users.UserByEmail(ctx, "ada@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if err := app.Store.Auth.StartTwoFactor(ctx, u.ID, "secret"); err != nil {
			t.Fatal(err)
		}
		if err := app.Store.Auth.EnableTwoFactor(ctx, u.ID, 1, []string{"code"}); err != nil {
			t.Fatal(err)
		}
		res := signInWith(t, app, "github", "", nil)
		if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `data-testid="signin-code-form"`) {
			t.Fatalf("enrolled sign-in: got %d %.300s, want the code page", res.Code, res.Body)
		}
		if signedIn(t, app, cookieHeader(sessionCookie(t, res.Result()))) {
			t.Error("the callback signed in without the code")
		}
	})
}

func roleID(t *testing.T, app *apptest.App, name string) int64 {
	t.Helper()
	var id int64
	if err := app.Store.DB.NewSelect().Model((*models.Role)(nil)).Column("id").Where("name = ?", name).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

func equalPtr(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func equalTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

// TestOAuthLinkFromAccountPage: the owner of an account in use links a
// provider from the account page, signed in and freshly confirmed; the
// provider then signs them in. A token cannot start a link, a provider
// account linked to someone else stays theirs, and unlinking removes it.
func TestOAuthLinkFromAccountPage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app, f := newOAuthApp(t, db)
		ada := app.UserWithPassword(t, "ada@example.com", "correct horse")
		session := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		session.Set("Origin", app.Deps.Config.PublicAppURL)
		f.gitlabUser = `{"id":80,"username":"ada-gl","name":"Ada","email":"ada.gitlab@example.com","confirmed_at":"2024-01-02T03:04:05Z"}`

		page := apptest.Do(t, app, "GET", "/admin/account/2fa", http.Header{"Cookie": session["Cookie"], "Accept": {"text/html"}})
		if page.Code != 200 || !strings.Contains(page.Body.String(), `data-testid="provider-link-gitlab"`) {
			t.Fatalf("account page: %d, want a way to link GitLab: %.300s", page.Code, page.Body)
		}
		token, _ := app.TokenFor(t, ada.ID, access.PermAdminRead)
		if res := apptest.Do(t, app, "POST", "/api/auth/links/gitlab", token); res.Code != 403 {
			t.Errorf("a token starts a link: %d %s", res.Code, res.Body)
		}
		// An account whose own address is not verified links nothing: not
		// at the start, nor at the callback of a link begun before.
		if res := apptest.Do(t, app, "POST", "/api/auth/links/gitlab", session); res.Code != 403 ||
			!strings.Contains(res.Body.String(), api.CodeEmailUnverified) {
			t.Fatalf("start linking to an unverified account: %d %s, want 403 EMAIL_UNVERIFIED", res.Code, res.Body)
		}
		verified(t, app, ada)
		var start struct{ URL string }
		res := apptest.Do(t, app, "POST", "/api/auth/links/gitlab", session)
		json.Unmarshal(res.Body.Bytes(), &start)
		authURL, err := url.Parse(start.URL)
		if res.Code != 200 || err != nil {
			t.Fatalf("start linking: %d %s", res.Code, res.Body)
		}
		if _, err := app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("email_verified = NULL").Where("id = ?", ada.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if res := apptest.Do(t, app, "GET", consent(t, authURL).RequestURI(), session); res.Code != 403 ||
			!strings.Contains(res.Body.String(), api.CodeEmailUnverified) || len(links(t, app)) != 0 {
			t.Fatalf("link callback for an account no longer verified: %d %s, links %+v", res.Code, res.Body, links(t, app))
		}
		verified(t, app, ada)

		res = apptest.Do(t, app, "POST", "/api/auth/links/gitlab", session)
		json.Unmarshal(res.Body.Bytes(), &start)
		authURL, err = url.Parse(start.URL)
		if res.Code != 200 || err != nil || !strings.HasPrefix(start.URL, f.URL) {
			t.Fatalf("start linking: %d %s", res.Code, res.Body)
		}
		back := consent(t, authURL)
		res = apptest.Do(t, app, "GET", back.RequestURI(), session)
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/admin/account/2fa" {
			t.Fatalf("link callback: %d to %q %s", res.Code, res.Header().Get("Location"), res.Body)
		}
		if rows := links(t, app); len(rows) != 1 || rows[0].UserID != ada.ID || rows[0].Provider != "gitlab" {
			t.Fatalf("links %+v, want gitlab linked to ada", rows)
		}
		res = signInWith(t, app, "gitlab", "", nil)
		if !strings.Contains(apptest.Do(t, app, "GET", "/api/auth/session", cookieHeader(sessionCookie(t, res.Result()))).Body.String(), `"email":"ada@example.com"`) {
			t.Errorf("the linked provider does not sign ada in: %d %s", res.Code, res.Body)
		}

		// Grace's session cannot take Ada's GitLab account.
		verified(t, app, app.UserWithPassword(t, "grace@example.com", "correct horse"))
		grace := signIn(t, app, "grace@example.com", "correct horse", firefoxLinux)
		grace.Set("Origin", app.Deps.Config.PublicAppURL)
		res = apptest.Do(t, app, "POST", "/api/auth/links/gitlab", grace)
		json.Unmarshal(res.Body.Bytes(), &start)
		authURL, _ = url.Parse(start.URL)
		if res := apptest.Do(t, app, "GET", consent(t, authURL).RequestURI(), grace); res.Code != http.StatusConflict ||
			!strings.Contains(res.Body.String(), "linked to another Plaza account") {
			t.Errorf("linking someone else's provider account: %d %s", res.Code, res.Body)
		}

		res = apptest.Do(t, app, "DELETE", "/api/auth/links/gitlab", session)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"unlinked":1`) {
			t.Errorf("unlink: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/auth/links/gitlab", session); res.Code != 404 {
			t.Errorf("unlink again: %d %s, want 404", res.Code, res.Body)
		}
		if n, err := app.Store.DB.NewSelect().Model((*models.ProviderAccount)(nil)).Count(ctx); err != nil || n != 0 {
			t.Errorf("%d links left, %v", n, err)
		}
	})
}
