package web_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestSessionIdleDeadlineMovesOncePerMinute: a signed-in request moves the
// session's idle deadline on, but writes the session back at most once a
// minute, and a session left idle for its idle timeout (a moderator's,
// STAFF_SESSION_IDLE) is over.
func TestSessionIdleDeadlineMovesOncePerMinute(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := &testClock{now: time.Now().UTC().Truncate(time.Second)}
		app := apptest.New(t, db, func(d *web.Deps) { d.Now = clock.Now; d.Store.Now = clock.Now })
		u := app.User(t, "mod@example.com", access.RoleModerator)
		h := app.SessionFor(t, u.ID)
		expiry := func() time.Time {
			var s models.Session
			if err := app.Store.DB.NewSelect().Model(&s).Scan(context.Background()); err != nil {
				t.Fatal(err)
			}
			return s.Expiry.UTC()
		}
		get := func() int { return apptest.Do(t, app, "GET", "/admin/health-cards", h).Code }
		idle := app.Deps.Config.StaffSession.Idle // a moderator's

		if code := get(); code != 200 || !expiry().Equal(clock.Now().Add(idle)) {
			t.Fatalf("first request: %d, expiry %v, want %v", code, expiry(), clock.Now().Add(idle))
		}
		first := expiry()
		clock.Add(30 * time.Second)
		if get(); !expiry().Equal(first) {
			t.Errorf("written back again within a minute: expiry %v, want %v", expiry(), first)
		}
		clock.Add(31 * time.Second)
		if get(); !expiry().Equal(clock.Now().Add(idle)) {
			t.Errorf("not written back after a minute: expiry %v", expiry())
		}
		clock.Add(idle + time.Second)
		if code := get(); code != 401 && code != 302 {
			t.Errorf("after %v idle: %d, want signed out", idle, code)
		}
	})
}

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestHostCookieBehindHTTPS: behind https the session cookie carries the
// __Host- prefix, which browsers accept only Secure, on path / and without
// a Domain, so no sibling subdomain can plant or shadow it; over plain
// http (development) it keeps its plain name.
func TestHostCookieBehindHTTPS(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	app := apptest.New(t, db, func(d *web.Deps) {
		d.Config.PublicAppURL = "https://plaza.example"
		d.Sessions = web.NewSessions(d.Store, d.Config.PublicAppURL)
	})
	app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`)
	var got *http.Cookie
	for _, c := range res.Result().Cookies() {
		got = c
	}
	if res.Code != 200 || got == nil || got.Name != "__Host-plaza_session" || !got.Secure || got.Path != "/" || got.Domain != "" {
		t.Fatalf("sign-in behind https: %d, cookie %+v", res.Code, got)
	}
	me := apptest.Do(t, app, "GET", "/api/auth/session", http.Header{"Cookie": {got.Name + "=" + got.Value}})
	if !strings.Contains(me.Body.String(), "ada@example.com") {
		t.Errorf("the __Host- cookie does not sign in: %s", me.Body)
	}
	if sm := web.NewSessions(app.Store, "http://127.0.0.1:8080"); sm.Cookie.Name != "plaza_session" || sm.Cookie.Secure {
		t.Errorf("over http: %+v", sm.Cookie)
	}
}

// TestTokenCallersGetAnEmptySession: on the admin families, a caller with a
// bearer token and no session cookie skips the session store, yet a handler
// that reads the session finds an empty one (no panic), and one that writes
// it sets no cookie. A token sent with a session cookie still loads that
// session.
func TestTokenCallersGetAnEmptySession(t *testing.T) {
	var seen []int64
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		probe := func(c echo.Context) error {
			ctx := c.Request().Context()
			seen = append(seen, d.Sessions.GetInt64(ctx, session.UserKey))
			d.Sessions.Put(ctx, "probe", "written")
			return c.NoContent(http.StatusNoContent)
		}
		d.ExtraRoutes = []web.Route{web.AdminV1(web.Route{Method: http.MethodGet, Path: "/api/v1/admin/probe/session",
			Handler: probe, Audit: web.Audit{Action: "probe.session"}})}
	})
	u := app.User(t, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	token, _ := app.TokenFor(t, u.ID, access.PermAdminRead)
	res := apptest.Do(t, app, http.MethodGet, "/api/v1/admin/probe/session", token)
	if res.Code != http.StatusNoContent || res.Header().Get("Set-Cookie") != "" {
		t.Fatalf("token only: %d, Set-Cookie %q; want 204 and no cookie", res.Code, res.Header().Get("Set-Cookie"))
	}
	both := app.SessionFor(t, u.ID)
	both.Set("Authorization", token.Get("Authorization"))
	if res := apptest.Do(t, app, http.MethodGet, "/api/v1/admin/probe/session", both); res.Code != http.StatusNoContent {
		t.Fatalf("token and cookie: %d", res.Code)
	}
	if want := []int64{0, u.ID}; !slices.Equal(seen, want) {
		t.Errorf("the handler saw sessions of users %v, want %v", seen, want)
	}
}
