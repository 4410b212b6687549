package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestCallerChangesReachEveryInstance: instance b remembers its callers, and
// changes made elsewhere (psql, another instance) still reach it.
func TestCallerChangesReachEveryInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	a, b := apptest.New(t, db), apptest.New(t, db)
	root, _ := a.Admin(t)
	ada := a.User(t, "ada@example.com", access.RoleAdmin)
	bob := a.User(t, "bob@example.com", access.RoleAdmin)
	adaToken, _ := a.TokenFor(t, ada.ID, access.PermAdminRead)
	bobToken, bobJTI := a.TokenFor(t, bob.ID, access.PermAdminRead)
	bobSession := a.SessionFor(t, bob.ID)
	for _, h := range []http.Header{adaToken, bobToken, bobSession} {
		if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", h); res.Code != 200 {
			t.Fatalf("before any change: %d %s", res.Code, res.Body)
		}
	}
	b.WaitRemembered(t, adaToken) // or the test would prove nothing

	sqlExec(t, a, `DELETE FROM user_roles WHERE user_id = ? AND role_id = (SELECT id FROM roles WHERE name = 'admin')`, ada.ID)
	waitForStatus(t, b, adaToken, 403, "ada demoted by psql")

	if res := apptest.Do(t, a, "DELETE", "/api/v1/admin/tokens/"+bobJTI, root); res.Code != 200 {
		t.Fatalf("revoke through a: %d %s", res.Code, res.Body)
	}
	waitForStatus(t, b, bobToken, 401, "bob's token revoked through a")

	sqlExec(t, a, `UPDATE users SET status = 'banned' WHERE id = ?`, bob.ID)
	waitForStatus(t, b, bobSession, 401, "bob banned by psql")
}

// TestCacheOffWhileListenerAway: when the listener loses its connection the
// cache is off (every caller read afresh) until it listens again.
func TestCacheOffWhileListenerAway(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	app := apptest.New(t, db)
	sqlExec(t, app, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?`, models.ListenerName)
	apptest.WaitFor(t, "the caches to turn off", func() bool {
		return !app.Deps.Principals.Enabled() && !app.Deps.Flags.Enabled() && !app.Deps.Blocks.Enabled()
	})
	apptest.WaitFor(t, "the listener to come back", func() bool {
		return app.Deps.Principals.Enabled() && app.Deps.Flags.Enabled() && app.Deps.Blocks.Enabled()
	})

	u := app.User(t, "ada@example.com", access.RoleAdmin)
	h, _ := app.TokenFor(t, u.ID, access.PermAdminRead)
	if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", h); res.Code != http.StatusOK {
		t.Fatalf("before the ban: %d %s", res.Code, res.Body)
	}
	app.WaitRemembered(t, h) // or the ban below would prove nothing
	sqlExec(t, app, `UPDATE users SET status = 'banned' WHERE id = ?`, u.ID)
	waitForStatus(t, app, h, 401, "ada banned after the listener came back")
}

func sqlExec(t *testing.T, a *apptest.App, query string, args ...any) {
	t.Helper()
	if _, err := a.Store.DB.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatal(err)
	}
}

// waitForStatus polls for a change to show, for less than the cache's TTL,
// so that only the news can explain it.
func waitForStatus(t *testing.T, app *apptest.App, h http.Header, status int, what string) {
	t.Helper()
	deadline := time.Now().Add(web.PrincipalCacheTTL / 3)
	for apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", h).Code != status {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within %v", what, web.PrincipalCacheTTL/3)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTokenRecordBoundsItsClaims re-signs a minted token's jti with the
// signing secret (as someone who leaked it would), widening its permissions
// and its expiry: the stored record bounds both, so the forgery gains
// nothing. Both databases.
func TestTokenRecordBoundsItsClaims(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin := app.User(t, "ada@example.com", access.RoleAdmin)
		_, jti := app.TokenFor(t, admin.ID, access.PermAdminRead)
		rec, err := app.Store.Auth.APITokenByJTI(context.Background(), jti)
		if err != nil {
			t.Fatal(err)
		}
		secret := []byte(app.Deps.Config.JWTSecret)
		forge := func(perms []string, exp time.Time) http.Header {
			raw, err := auth.SignToken(secret, auth.TokenClaims{UserID: admin.ID, Permissions: perms,
				IssuedAt: rec.CreatedAt, ExpiresAt: exp, ID: jti})
			if err != nil {
				t.Fatal(err)
			}
			return http.Header{"Authorization": {"Bearer " + raw}}
		}
		wider := forge([]string{access.PermAdminRead, access.PermAdminWrite}, rec.ExpiresAt)
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", wider, `{"type":"user","id":"42"}`); res.Code != http.StatusForbidden {
			t.Errorf("widened permissions: %d %s, want 403", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", wider); res.Code != http.StatusOK {
			t.Errorf("the stored permission itself: %d %s", res.Code, res.Body)
		}
		// The record expires; a forged claim that lives on does not revive it.
		_, err = app.Store.DB.NewUpdate().Model((*models.APIToken)(nil)).Set("expires_at = ?", time.Now().Add(-time.Minute)).
			Where("jti = ?", jti).Exec(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		app.Deps.Principals.Purge()
		longer := forge([]string{access.PermAdminRead}, time.Now().Add(24*time.Hour))
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", longer); res.Code != http.StatusUnauthorized {
			t.Errorf("past the stored expiry: %d %s, want 401", res.Code, res.Body)
		}
	})
}
