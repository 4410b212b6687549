package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/plazahq/plaza/internal/access"
)

// nextAuthSource is next-auth/react's client functions (next-auth 4.24,
// from npm), bundled as window.NextAuth (package.json, build:nextauth).
var nextAuthSource = func() string {
	b, err := os.ReadFile("testdata/nextauth/next-auth-client.min.js")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// TestNextAuthClient runs next-auth's own client in a page of Plaza's
// origin, as a Next.js front end served there would: getSession,
// getCsrfToken, getProviders, signIn("credentials", {redirect: false})
// with a wrong and then the right password, and signOut({redirect:
// false}), each answered by Plaza's routes, with Plaza's session cookie
// appearing on sign-in and gone on sign-out.
func TestNextAuthClient(t *testing.T) {
	base := startNextAuthApp(t)
	people, err := sharedBrowser(t).Incognito()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = people.Close() })
	p, c := blankPageIn(t, people)
	page := base + "/api/auth/signin"
	step(t, p, "load the sign-in page and the client", func(p *rod.Page) {
		p.MustNavigate(page).MustWaitLoad()
		if _, err := (proto.RuntimeEvaluate{Expression: nextAuthSource}).Call(p); err != nil {
			panic(err)
		}
		p.MustWait(`() => !!(window.NextAuth && NextAuth.signIn)`)
	})

	var session map[string]any
	call(t, p, `NextAuth.getSession()`, &session)
	if session != nil {
		t.Errorf("getSession before signing in: %v, want null", session)
	}
	var token string
	call(t, p, `NextAuth.getCsrfToken()`, &token)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(token) {
		t.Errorf("getCsrfToken: %q", token)
	}
	var providers map[string]map[string]string
	call(t, p, `NextAuth.getProviders()`, &providers)
	if cr := providers["credentials"]; cr["type"] != "credentials" || cr["callbackUrl"] != base+"/api/auth/callback/credentials" {
		t.Errorf("getProviders: %v", providers)
	}

	type signInResult struct {
		Error  *string
		Status int
		OK     bool
		URL    *string
	}
	var refused signInResult
	call(t, p, `NextAuth.signIn("credentials", {redirect: false, email: "ada@plaza.test", password: "wrong horse"})`, &refused)
	if refused.Error == nil || *refused.Error != "CredentialsSignin" || refused.Status != 401 || refused.OK || refused.URL != nil {
		t.Errorf("signIn with a wrong password: %+v", refused)
	}
	if ck := cookie(t, p, base, "plaza_session"); ck != nil {
		t.Errorf("a refused sign-in left a session cookie")
	}

	var signedIn signInResult
	call(t, p, `NextAuth.signIn("credentials", {redirect: false, email: "ada@plaza.test", password: "correct horse"})`, &signedIn)
	if signedIn.Error != nil || signedIn.Status != 200 || !signedIn.OK || signedIn.URL == nil || *signedIn.URL != page {
		t.Errorf("signIn: %+v, want ok with url %s", signedIn, page)
	}
	if ck := cookie(t, p, base, "plaza_session"); ck == nil || !ck.HTTPOnly {
		t.Errorf("no HttpOnly Plaza session cookie after signing in: %+v", ck)
	}
	var user struct {
		User    struct{ Email, Role string }
		Expires string
	}
	call(t, p, `NextAuth.getSession()`, &user)
	if user.User.Email != "ada@plaza.test" || user.User.Role != "admin" || user.Expires == "" {
		t.Errorf("getSession after signing in: %+v", user)
	}

	var signedOut struct{ URL string }
	call(t, p, `NextAuth.signOut({redirect: false})`, &signedOut)
	if signedOut.URL != page {
		t.Errorf("signOut: %+v, want url %s", signedOut, page)
	}
	if ck := cookie(t, p, base, "plaza_session"); ck != nil {
		t.Errorf("the session cookie outlived signOut: %+v", ck)
	}
	session = map[string]any{"left": true}
	call(t, p, `NextAuth.getSession()`, &session)
	if session != nil {
		t.Errorf("getSession after signing out: %v, want null", session)
	}
	// The refused sign-in's 401 is the only failure the page may report.
	clean(t, c, "401 (Unauthorized)")
}

// startNextAuthApp serves the real app over loopback, PUBLIC_APP_URL its
// own address, with one admin whose password is "correct horse".
func startNextAuthApp(t *testing.T) string {
	t.Helper()
	srv, app := startAppOf(t)
	app.UserWithPassword(t, "ada@plaza.test", "correct horse", access.RoleAdmin)
	return srv.URL
}

// call awaits expr in the page and decodes its value, as JSON, into out.
func call(t *testing.T, p *rod.Page, expr string, out any) {
	t.Helper()
	step(t, p, expr, func(p *rod.Page) {
		res := p.MustEval(`async () => JSON.stringify(await ` + expr + `)`)
		if err := json.Unmarshal([]byte(res.Str()), out); err != nil {
			panic(err)
		}
	})
}

// cookie is the browser's cookie name for base, or nil.
func cookie(t *testing.T, p *rod.Page, base, name string) *proto.NetworkCookie {
	t.Helper()
	cookies, err := p.Cookies([]string{base})
	if err != nil {
		t.Fatal(err)
	}
	for _, ck := range cookies {
		if ck.Name == name {
			return ck
		}
	}
	return nil
}
