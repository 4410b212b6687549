package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestSessionEndsOnEveryInstance: a session revoked, or a user banned,
// through instance a is refused by instance b as soon as b hears of it
// from the database, though b holds both the session and the caller in
// its caches; a holds to it from its very next request.
func TestSessionEndsOnEveryInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	a, b := apptest.New(t, db), apptest.New(t, db)
	root, _ := a.Admin(t)
	bob := a.User(t, "bob@example.com", access.RoleAdmin)
	key := "user:" + strconv.FormatInt(bob.ID, 10)
	desk, laptop, phone := a.SessionFor(t, bob.ID), a.SessionFor(t, bob.ID), a.SessionFor(t, bob.ID)
	apptest.WaitFor(t, "b to remember bob and his sessions", func() bool {
		for _, h := range []http.Header{desk, laptop, phone} {
			if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", h); res.Code != http.StatusOK {
				t.Fatalf("before any change: %d %s", res.Code, res.Body)
			}
		}
		_, ok := b.Deps.Principals.Get(key, b.Deps.Now())
		return ok && cached(b, desk) && cached(b, laptop) && cached(b, phone)
	})

	if res := apptest.Do(t, a, "DELETE", api.SessionPath(publicID(laptop)), desk); res.Code != http.StatusOK {
		t.Fatalf("revoke through a: %d %s", res.Code, res.Body)
	}
	if res := apptest.Do(t, a, "GET", "/api/v1/admin/audit-logs", laptop); res.Code != http.StatusUnauthorized {
		t.Errorf("the revoked session on a: %d, want 401", res.Code)
	}
	refused(t, b, laptop, "the revoked session on b")
	if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", phone); res.Code != http.StatusOK {
		t.Errorf("bob's other session on b: %d, want 200", res.Code)
	}

	if res := apptest.DoBody(t, a, "POST", api.AdminV1UserPath(bob.ID)+"/ban", root, `{"action":"ban","reason":"spam"}`); res.Code != http.StatusOK {
		t.Fatalf("ban through a: %d %s", res.Code, res.Body)
	}
	for _, h := range []http.Header{desk, phone} {
		if res := apptest.Do(t, a, "GET", "/api/v1/admin/audit-logs", h); res.Code != http.StatusUnauthorized {
			t.Errorf("a banned user's session on a: %d, want 401", res.Code)
		}
		refused(t, b, h, "a banned user's session on b")
	}
}

// TestSessionWrittenBackOnAnotherInstance: what instance a writes into a
// session (here, signing out of it on a) reaches b's copy.
func TestSessionWrittenBackOnAnotherInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	a, b := apptest.New(t, db), apptest.New(t, db)
	bob := a.User(t, "bob@example.com", access.RoleAdmin)
	desk := a.SessionFor(t, bob.ID)
	apptest.WaitFor(t, "b to hold the session", func() bool {
		if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", desk); res.Code != http.StatusOK {
			t.Fatalf("before any change: %d %s", res.Code, res.Body)
		}
		return cached(b, desk)
	})
	if res := apptest.Do(t, a, "POST", "/api/auth/signout", desk); res.Code >= 400 {
		t.Fatalf("sign out through a: %d %s", res.Code, res.Body)
	}
	refused(t, b, desk, "a signed-out session on b")
}

// cached reports whether app holds the session a cookie header carries.
func cached(app *apptest.App, h http.Header) bool {
	_, token, _ := strings.Cut(h.Get("Cookie"), "=")
	_, ok := app.Store.SessionCache.Get(models.SessionKey(token), app.Deps.Now())
	return ok
}

// refused waits until app answers the session 401, which must be long
// before the cache's TTL could have dropped it unheard: the entry was put
// moments before, so without the news it would live about the whole TTL.
func refused(t *testing.T, app *apptest.App, h http.Header, what string) {
	t.Helper()
	start := time.Now()
	apptest.WaitFor(t, what+" refused", func() bool {
		return apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", h).Code == http.StatusUnauthorized
	})
	if took := time.Since(start); took >= web.PrincipalCacheTTL/5 {
		t.Errorf("%s: refused only after %v, as the TTL ran out: the news was not heard", what, took)
	}
}

// publicID is the public id of the session a cookie header carries.
func publicID(h http.Header) string {
	_, token, _ := strings.Cut(h.Get("Cookie"), "=")
	return models.SessionID(token)
}
