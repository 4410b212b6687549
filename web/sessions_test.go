package web_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestSessionIdleDeadlineMovesOncePerMinute: a signed-in request moves the
// session's idle deadline on, but writes the session back at most once a
// minute, and a session left idle for SessionIdle is over.
func TestSessionIdleDeadlineMovesOncePerMinute(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := &testClock{now: time.Now().UTC().Truncate(time.Second)}
		app := apptest.New(t, db, func(d *web.Deps) { d.Now = clock.Now; d.Store.Now = clock.Now })
		u := app.User(t, "mod@example.com", auth.RoleModerator)
		h := app.SessionFor(t, u.ID)
		expiry := func() time.Time {
			var s models.Session
			if err := app.Store.DB.NewSelect().Model(&s).Scan(context.Background()); err != nil {
				t.Fatal(err)
			}
			return s.Expiry.UTC()
		}
		get := func() int { return apptest.Do(t, app, "GET", "/admin/health-cards", h).Code }

		if code := get(); code != 200 || !expiry().Equal(clock.Now().Add(web.SessionIdle)) {
			t.Fatalf("first request: %d, expiry %v, want %v", code, expiry(), clock.Now().Add(web.SessionIdle))
		}
		first := expiry()
		clock.Add(30 * time.Second)
		if get(); !expiry().Equal(first) {
			t.Errorf("written back again within a minute: expiry %v, want %v", expiry(), first)
		}
		clock.Add(31 * time.Second)
		if get(); !expiry().Equal(clock.Now().Add(web.SessionIdle)) {
			t.Errorf("not written back after a minute: expiry %v", expiry())
		}
		clock.Add(web.SessionIdle + time.Second)
		if code := get(); code != 401 && code != 302 {
			t.Errorf("after a day idle: %d, want signed out", code)
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
	app.UserWithPassword(t, "ada@example.com", "correct horse", auth.RoleAdmin)
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
