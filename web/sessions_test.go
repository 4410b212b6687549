package web_test

import (
	"context"
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
