package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestSessionEndsOnEveryInstance: a session revoked, or a user banned,
// through instance a is refused by instance b on its very next request,
// though b still remembers the user as a caller: sessions are read from
// the database on every request, and the caller cache only ever holds
// users, never sessions.
func TestSessionEndsOnEveryInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	a, b := apptest.New(t, db), apptest.New(t, db)
	root, _ := a.Admin(t)
	bob := a.User(t, "bob@example.com", auth.RoleAdmin)
	key := "user:" + strconv.FormatInt(bob.ID, 10)
	desk, laptop, phone := a.SessionFor(t, bob.ID), a.SessionFor(t, bob.ID), a.SessionFor(t, bob.ID)
	apptest.WaitFor(t, "b to remember bob", func() bool {
		if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", desk); res.Code != http.StatusOK {
			t.Fatalf("before any change: %d %s", res.Code, res.Body)
		}
		_, ok := b.Deps.Principals.Get(key, b.Deps.Now())
		return ok
	})

	if res := apptest.Do(t, a, "DELETE", api.SessionPath(publicID(laptop)), desk); res.Code != http.StatusOK {
		t.Fatalf("revoke through a: %d %s", res.Code, res.Body)
	}
	if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", laptop); res.Code != http.StatusUnauthorized {
		t.Errorf("the revoked session on b: %d, want 401", res.Code)
	}
	if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", phone); res.Code != http.StatusOK {
		t.Errorf("bob's other session on b: %d, want 200", res.Code)
	}

	if res := apptest.DoBody(t, a, "POST", api.AdminV1UserPath(bob.ID)+"/ban", root, `{"action":"ban","reason":"spam"}`); res.Code != http.StatusOK {
		t.Fatalf("ban through a: %d %s", res.Code, res.Body)
	}
	for _, h := range []http.Header{desk, phone} {
		if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", h); res.Code != http.StatusUnauthorized {
			t.Errorf("a banned user's session on b: %d, want 401", res.Code)
		}
	}
}

// publicID is the public id of the session a cookie header carries.
func publicID(h http.Header) string {
	_, token, _ := strings.Cut(h.Get("Cookie"), "=")
	return models.SessionID(token)
}
