package handlers_test

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// proxy is the address every httptest request comes from; the block
// tests trust it as a proxy, so X-Forwarded-For names the client.
const proxy = "192.0.2.1/32"

// blockApp is the app behind a trusted proxy, on a clock the test moves.
func blockApp(t *testing.T, db *bun.DB) (*apptest.App, *atomic.Pointer[time.Time]) {
	t.Helper()
	var clock atomic.Pointer[time.Time]
	now := time.Now().UTC()
	clock.Store(&now)
	app := apptest.New(t, db, func(d *web.Deps) {
		d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix(proxy)}
		d.Now = func() time.Time { return *clock.Load() }
	})
	return app, &clock
}

// from is h sent by the client at ip through the proxy.
func from(h http.Header, ip string) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	out.Set("X-Forwarded-For", ip)
	return out
}

func block(t *testing.T, app *apptest.App, admin http.Header, body string) api.V1Block {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, admin, body)
	if res.Code != http.StatusCreated {
		t.Fatalf("block %s: %d %s", body, res.Code, res.Body)
	}
	return decodeAs[api.V1Of[api.V1Block]](t, res).Data
}

func wantBlocked(t *testing.T, res interface {
	Result() *http.Response
}, body string, what string) {
	t.Helper()
	if code := res.Result().StatusCode; code != http.StatusForbidden || !strings.Contains(body, `"IP_BLOCKED"`) {
		t.Errorf("%s: got %d %s, want 403 IP_BLOCKED", what, code, body)
	}
}

// TestBlocksCreateAndList: values are normalised, a duplicate is 409, the
// list filters by kind, each write is audited, and a delete lifts the
// block at once.
func TestBlocksCreateAndList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := blockApp(t, db)
		super, root := app.Admin(t)
		tests := []struct{ kind, value, want string }{
			{"ip", "203.0.113.9/24", "203.0.113.0/24"},
			{"ip", "2001:DB8::7", "2001:db8::7/128"},
			{"ip", "::ffff:198.51.100.4", "198.51.100.4/32"},
			{"email_domain", "Example.COM.", "example.com"},
		}
		var ids []string
		for _, tt := range tests {
			b := block(t, app, super, `{"kind":"`+tt.kind+`","value":"`+tt.value+`","reason":" spam wave "}`)
			if b.Value != tt.want || b.Kind != tt.kind || b.Reason != "spam wave" || b.CreatedBy == nil || *b.CreatedBy != itoa(root.ID) || b.ExpiresAt != nil {
				t.Errorf("block %s %s: %+v, want value %s", tt.kind, tt.value, b, tt.want)
			}
			ids = append(ids, b.ID)
		}
		e := lastEntry(t, app, "block.create")
		if e.TargetType != "block" || e.TargetID != ids[3] || e.Details["value"] != "example.com" {
			t.Errorf("audit entry: %s %s %v", e.TargetType, e.TargetID, e.Details)
		}
		res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, super, `{"kind":"ip","value":"203.0.113.77/24"}`)
		if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), `"code":"CONFLICT"`) ||
			!strings.Contains(res.Body.String(), "block "+ids[0]) {
			t.Errorf("duplicate: %d %s, want 409 naming block %s", res.Code, res.Body, ids[0])
		}
		list := decodeAs[api.V1PageOf[api.V1Block]](t, apptest.Do(t, app, "GET", api.PathAdminV1Blocks+"?kind=ip&limit=2", super))
		if len(list.Data) != 2 || list.Data[0].ID != ids[2] || list.Meta.Pagination.Total != 3 || !list.Meta.Pagination.HasMore {
			t.Errorf("ip blocks, newest first: %+v", list)
		}
		res = apptest.Do(t, app, "DELETE", api.AdminV1BlockPath(ids[0]), super)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"deleted":true,"id":"`+ids[0]+`"`) {
			t.Errorf("delete: %d %s", res.Code, res.Body)
		}
		if e := lastEntry(t, app, "block.delete"); e.TargetID != ids[0] {
			t.Errorf("delete audit entry: %s %v", e.TargetID, e.Details)
		}
		if res := apptest.Do(t, app, "DELETE", api.AdminV1BlockPath(ids[0]), super); res.Code != 404 {
			t.Errorf("delete again: %d %s", res.Code, res.Body)
		}
		// The console: the page, and the form's answer for htmx.
		hx := from(super, "198.51.100.1")
		hx.Set("HX-Request", "true")
		res = apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, hx, `{"kind":"email_domain","value":"spam.example"}`)
		if res.Code != 201 || !strings.Contains(res.Header().Get("HX-Trigger"), "Blocked spam.example") {
			t.Errorf("htmx create: %d %q %s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
		res = apptest.Do(t, app, "GET", api.PathConsoleBlocks+"?kind=email_domain", hx)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `data-testid="block-list"`) || !strings.Contains(res.Body.String(), "spam.example") {
			t.Errorf("htmx list: %d %.300s", res.Code, res.Body)
		}
	})
}

// TestBlockValidation: a bad value, kind, reason or expiry is 422 on its
// field; a list filter of no kind is 422; only admins reach the routes.
func TestBlockValidation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := blockApp(t, db)
		super, _ := app.Admin(t)
		tests := []struct{ name, body, field string }{
			{"bad cidr", `{"kind":"ip","value":"203.0.113.0/33"}`, "value"},
			{"bad address", `{"kind":"ip","value":"203.0.113"}`, "value"},
			{"domain as ip", `{"kind":"ip","value":"example.com"}`, "value"},
			{"bad domain", `{"kind":"email_domain","value":"exa mple.com"}`, "value"},
			{"one-label domain", `{"kind":"email_domain","value":"localhost"}`, "value"},
			{"empty value", `{"kind":"email_domain","value":""}`, "value"},
			{"unknown kind", `{"kind":"asn","value":"64496"}`, "kind"},
			{"no kind", `{"value":"203.0.113.7"}`, "kind"},
			{"long reason", `{"kind":"ip","value":"203.0.113.7","reason":"` + strings.Repeat("r", 501) + `"}`, "reason"},
			{"past expiry", `{"kind":"ip","value":"203.0.113.7","expiresAt":"2020-01-01T00:00:00Z"}`, "expiresAt"},
			{"bad expiry", `{"kind":"ip","value":"203.0.113.7","expiresAt":"tomorrow"}`, "expiresAt"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, super, tt.body)
				if res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"`+tt.field+`"`) {
					t.Errorf("got %d %s, want 422 on %s", res.Code, res.Body, tt.field)
				}
			})
		}
		if res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, super, `{"kind":"ip","value":"203.0.113.7","owner":"me"}`); res.Code != 422 {
			t.Errorf("unknown field: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", api.PathAdminV1Blocks+"?kind=asn", super); res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"kind"`) {
			t.Errorf("list of an unknown kind: %d %s", res.Code, res.Body)
		}
		mod := app.User(t, "mod@example.com", access.RoleModerator)
		for _, h := range []http.Header{nil, app.SessionFor(t, mod.ID)} {
			res := apptest.Do(t, app, "GET", api.PathAdminV1Blocks, h)
			if res.Code != 401 && res.Code != 403 {
				t.Errorf("a non-admin lists blocks: %d", res.Code)
			}
		}
		if n := len(decodeAs[api.V1PageOf[api.V1Block]](t, apptest.Do(t, app, "GET", api.PathAdminV1Blocks, super)).Data); n != 0 {
			t.Errorf("%d blocks stored after refusals", n)
		}
	})
}

// TestBlocksRefuse: a blocked address (IPv4, IPv6, CIDR, IPv4-mapped) is
// refused sign-in, registration, posting and analytics in each family's
// shape, admin routes excepted, and a user's session seen from it ends; a blocked email domain and its subdomains
// are refused registration; a block that expires stops at once.
func TestBlocksRefuse(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := blockApp(t, db)
		super, root := app.Admin(t)
		app.UserWithPassword(t, "ada@example.org", "correct horse", access.RoleUser)
		poster := app.User(t, "poster@example.org")
		session := app.SessionFor(t, poster.ID)
		block(t, app, super, `{"kind":"ip","value":"203.0.113.0/24"}`)
		block(t, app, super, `{"kind":"ip","value":"2001:db8::7"}`)
		block(t, app, super, `{"kind":"email_domain","value":"example.com"}`)
		soon := clock.Load().Add(time.Hour).Format(time.RFC3339)
		block(t, app, super, `{"kind":"ip","value":"198.51.100.50","expiresAt":"`+soon+`"}`)

		signIn := `{"email":"ada@example.org","password":"correct horse"}`
		for _, ip := range []string{"203.0.113.9", "2001:db8::7", "::ffff:203.0.113.200", "198.51.100.50"} {
			res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, ip), signIn)
			wantBlocked(t, res, res.Body.String(), "sign-in from "+ip)
			res = apptest.DoBody(t, app, "POST", api.PathUsers, from(nil, ip), `{"name":"Eve","email":"eve@example.net","password":"long enough pw"}`)
			wantBlocked(t, res, res.Body.String(), "registration from "+ip)
			res = apptest.DoBody(t, app, "POST", "/api/posts", from(session, ip), `{"title":"Hi","content":"Hello"}`)
			wantBlocked(t, res, res.Body.String(), "post from "+ip)
			res = apptest.DoBody(t, app, "POST", "/api/analytics/collect", from(session, ip), `{"event_type":"page_view","event_data":{}}`)
			wantBlocked(t, res, res.Body.String(), "analytics from "+ip)
			if !strings.HasPrefix(res.Body.String(), `{"success":false,`) {
				t.Errorf("analytics refusal not in the collector's shape: %s", res.Body)
			}
			if res := apptest.Do(t, app, "GET", api.PathAdminV1Blocks, from(super, ip)); res.Code != 200 {
				t.Errorf("admin list from %s: %d, want 200 (admin routes are never blocked)", ip, res.Code)
			}
		}
		// 2001:db8::8 shares 2001:db8::7's /64, which the block refuses whole
		// (TestIPv6BlockCoversItsNetwork); the next /64 is free.
		for _, ip := range []string{"203.0.114.1", "2001:db8:0:1::8", "198.51.100.51"} {
			if res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, ip), signIn); res.Code != 200 {
				t.Errorf("sign-in from %s: %d %s", ip, res.Code, res.Body)
			}
		}
		clean := "198.51.100.1"
		// The session seen from the blocked addresses has ended; a new one
		// from a clean address works.
		if signedIn(t, app, from(session, clean)) {
			t.Error("the session seen from blocked addresses lives on")
		}
		session = app.SessionFor(t, poster.ID)
		if res := apptest.DoBody(t, app, "POST", "/api/posts", from(session, clean), `{"title":"Hi","content":"Hello"}`); res.Code != 201 {
			t.Errorf("post from a clean address: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/analytics/collect", from(session, clean), `{"event_type":"page_view","event_data":{}}`); res.Code != 202 {
			t.Errorf("analytics from a clean address: %d %s", res.Code, res.Body)
		}
		for _, email := range []string{"eve@example.com", "eve@Mail.Example.COM"} {
			res := apptest.DoBody(t, app, "POST", api.PathUsers, from(nil, clean), `{"name":"Eve","email":"`+email+`","password":"long enough pw"}`)
			if res.Code != 422 || !strings.Contains(res.Body.String(), `"field":"email"`) || !strings.Contains(res.Body.String(), "email domain") {
				t.Errorf("registration as %s: %d %s, want 422 on email", email, res.Code, res.Body)
			}
		}
		if res := apptest.DoBody(t, app, "POST", api.PathUsers, from(nil, clean), `{"name":"Eve","email":"eve@notexample.com","password":"long enough pw"}`); res.Code != 201 {
			t.Errorf("registration from an unblocked domain: %d %s", res.Code, res.Body)
		}

		later := clock.Load().Add(2 * time.Hour)
		clock.Store(&later)
		if res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, "198.51.100.50"), signIn); res.Code != 200 {
			t.Errorf("sign-in once the block expired: %d %s", res.Code, res.Body)
		}
		super = app.SessionFor(t, root.ID) // two idle hours ended the earlier one, as a staff session's do
		list := decodeAs[api.V1PageOf[api.V1Block]](t, apptest.Do(t, app, "GET", api.PathAdminV1Blocks+"?limit=1", super))
		if len(list.Data) != 1 || list.Data[0].Value != "198.51.100.50/32" || !list.Data[0].Expired {
			t.Errorf("the expired block in the list: %+v", list.Data)
		}
	})
}

// TestBlockOAuth: a blocked address can neither start nor finish an
// external sign-in; a blocked email domain opens no new account.
func TestBlockOAuth(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		f := newFakeOAuth(t)
		app := apptest.New(t, db, func(d *web.Deps) {
			d.OAuthProviders = f.providers(d.Config.PublicAppURL)
			d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix(proxy)}
		})
		f.githubUser, f.githubEmails = adaGitHub, adaEmails
		super, _ := app.Admin(t)
		authURL, token := begin(t, app, "github", "")
		back := consent(t, authURL)
		block(t, app, super, `{"kind":"ip","value":"203.0.113.0/24"}`)
		res := apptest.Do(t, app, "GET", back.RequestURI(), from(cookieHeader(token), "203.0.113.5"))
		wantBlocked(t, res, res.Body.String(), "callback")
		res = apptest.Do(t, app, "GET", api.SignInProviderPath("github"), from(nil, "203.0.113.5"))
		wantBlocked(t, res, res.Body.String(), "begin")

		// An email domain block refuses a new account, not an existing one.
		block(t, app, super, `{"kind":"email_domain","value":"example.com"}`)
		res = signInWith(t, app, "github", "", nil)
		if res.Code != http.StatusUnauthorized || !strings.Contains(res.Body.String(), "email domain") || len(links(t, app)) != 0 {
			t.Errorf("a new account under a blocked domain: %d %s", res.Code, res.Body)
		}
		app.User(t, "ada@example.com")
		if res := signInWith(t, app, "github", "", nil); res.Code != http.StatusSeeOther {
			t.Errorf("an existing account under a blocked domain: %d %s", res.Code, res.Body)
		}
	})
}

// TestBlockedAddressCannotEditPost: a signed-in user whose address gets
// blocked changes nothing from it: a post's edit, a report, a profile
// change, a password change, two-factor setup and the revocation of its
// other sessions are 403 IP_BLOCKED. A session seen from a blocked address
// ends, on a read too: the next request, from an allowed address, finds it
// signed out, and the user signs in again from there.
func TestBlockedAddressCannotEditPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := blockApp(t, db)
		super, _ := app.Admin(t)
		author := app.UserWithPassword(t, "author@example.org", "correct horse")
		other := app.User(t, "other@example.org")
		clean, blocked := "198.51.100.1", "203.0.113.9"
		write := func(h http.Header) string {
			t.Helper()
			res := apptest.DoBody(t, app, "POST", api.PathPosts, from(h, clean), `{"title":"Hi","content":"Hello","published":true}`)
			if res.Code != http.StatusCreated {
				t.Fatalf("post from a clean address: %d %s", res.Code, res.Body)
			}
			return decodeAs[api.Post](t, res).ID
		}
		mine, theirs := write(app.SessionFor(t, author.ID)), write(app.SessionFor(t, other.ID))
		block(t, app, super, `{"kind":"ip","value":"203.0.113.0/24"}`)

		tests := []struct{ name, method, path, body string }{
			{"edit a post", "PUT", "/api/posts/" + mine, `{"title":"Changed"}`},
			{"report a post", "POST", "/api/posts/" + theirs + "/report", `{"reason":"spam"}`},
			{"edit the profile", "PUT", "/api/users/" + itoa(author.ID), `{"bio":"changed"}`},
			{"delete a post", "DELETE", "/api/posts/" + mine, ""},
			{"change the password", "POST", api.PathPassword, `{"currentPassword":"correct horse","newPassword":"another long one"}`},
			{"set up two-factor sign-in", "POST", api.PathTwoFactorSetup, ""},
			{"revoke the other sessions", "DELETE", api.PathSessions, ""},
			{"read the posts", "GET", api.PathPosts, ""},
		}
		for _, tt := range tests {
			session := app.SessionFor(t, author.ID)
			res := apptest.DoBody(t, app, tt.method, tt.path, from(session, blocked), tt.body)
			wantBlocked(t, res, res.Body.String(), tt.name+" from a blocked address")
			if signedIn(t, app, from(session, clean)) {
				t.Errorf("%s: the session seen from a blocked address lives on", tt.name)
			}
		}

		post := decodeAs[api.Post](t, apptest.Do(t, app, "GET", "/api/posts/"+mine, from(nil, clean)))
		if post.Title != "Hi" {
			t.Errorf("the post after the refusals: %+v", post)
		}
		reports, err := app.Store.DB.NewSelect().Model((*models.PostReport)(nil)).Count(context.Background())
		if err != nil || reports != 0 {
			t.Errorf("%d reports stored (%v), want none", reports, err)
		}
		if u, err := app.Store.Users.UserByID(context.Background(), author.ID); err != nil || u.Bio != "" {
			t.Errorf("the profile after the refusals: bio %q, %v", u.Bio, err)
		}
		signIn := `{"email":"author@example.org","password":"correct horse"}`
		res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, blocked), signIn)
		wantBlocked(t, res, res.Body.String(), "signing in again from the blocked address")
		if res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, clean), signIn); res.Code != http.StatusOK {
			t.Errorf("signing in again from an allowed address: %d %s", res.Code, res.Body)
		}
	})
}

// TestBlockedAddressKeepsStaffSessions: an admin whose range gets blocked
// (from elsewhere: a block covering its maker's own address is refused)
// keeps its session there and undoes the block from it, as admin routes are
// never blocked; meanwhile its own posting from the range is refused like
// anyone's. A non-staff user there may still sign out.
func TestBlockedAddressKeepsStaffSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := blockApp(t, db)
		super, _ := app.Admin(t)
		here := "203.0.113.9"
		admin := from(super, here)
		b := block(t, app, from(super, "198.51.100.7"), `{"kind":"ip","value":"203.0.113.0/24"}`)
		res := apptest.DoBody(t, app, "POST", api.PathPosts, admin, `{"title":"Hi","content":"Hello"}`)
		wantBlocked(t, res, res.Body.String(), "an admin's post from the blocked range")
		if !signedIn(t, app, admin) {
			t.Fatal("the admin's session ended: it could not undo the block")
		}
		if res := apptest.Do(t, app, "GET", api.PathAdminV1Blocks, admin); res.Code != http.StatusOK {
			t.Errorf("the admin lists blocks from the blocked range: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", api.AdminV1BlockPath(b.ID), admin); res.Code != http.StatusOK {
			t.Fatalf("the admin lifts the block from the blocked range: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.PathPosts, admin, `{"title":"Hi","content":"Hello"}`); res.Code != http.StatusCreated {
			t.Errorf("post once the block is lifted: %d %s", res.Code, res.Body)
		}

		block(t, app, super, `{"kind":"ip","value":"203.0.113.0/24"}`)
		user := app.User(t, "user@example.org")
		session := app.SessionFor(t, user.ID)
		if res := apptest.Do(t, app, "POST", api.PathSignOut, from(session, here)); res.Code != http.StatusOK {
			t.Errorf("sign-out from a blocked address: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, from(session, "198.51.100.1")) {
			t.Error("still signed in after signing out")
		}
	})
}

// TestBlockRefusesCallerAndEveryone: a block that would cover the caller's
// own address, or every address, is refused 422 with a message saying so,
// in both the v1 family and the console; a block beside the caller's
// address is fine. Before, an admin could lock every visitor (or their own
// range) out with one request.
func TestBlockRefusesCallerAndEveryone(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := blockApp(t, db)
		super, _ := app.Admin(t)
		admin := from(super, "203.0.113.9")
		for value, want := range map[string]string{
			"0.0.0.0/0":            "every address",
			"::/0":                 "every address",
			"203.0.113.9":          "your own address",
			"203.0.113.0/24":       "your own address",
			"::ffff:203.0.0.0/112": "your own address",
		} {
			res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, admin, `{"kind":"ip","value":"`+value+`"}`)
			if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), want) {
				t.Errorf("block %s: %d %s, want 422 naming %q", value, res.Code, res.Body, want)
			}
		}
		block(t, app, admin, `{"kind":"ip","value":"198.51.100.0/24"}`)
		if rows, total, err := app.Store.Blocklist.Blocks(context.Background(), "", 10, 0); err != nil || total != 1 {
			t.Errorf("%d blocks stored (%v): %+v", total, err, rows)
		}
	})
}
