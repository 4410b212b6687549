package handlers_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestBackupDownloadNeedsConfirmation: a backup holds live session tokens
// and secrets, so downloading or deleting one asks a session for a fresh
// confirmation, as the much smaller audit export does; a scoped bearer
// token was minted under one.
func TestBackupDownloadNeedsConfirmation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		root := app.UserWithPassword(t, "root@example.com", "correct horse", access.ImpliedRoles(access.RoleSuperAdmin)...)
		session := app.SessionFor(t, root.ID)
		token, _ := app.TokenFor(t, root.ID, access.PermAdminRead, access.PermAdminDelete, access.PermAdminSuper)
		made, err := app.Store.Maintenance.Backup(t.Context(), app.Runtime.Config.BackupDir, app.Runtime.Config.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		path := "/api/v1/admin/system/backups/" + filepath.Base(made)
		if res := apptest.Do(t, app, "GET", path, session); res.Code != 200 {
			t.Fatalf("download right after signing in: %d %s", res.Code, res.Body)
		}

		clock.Add(11 * time.Minute)
		for _, method := range []string{"GET", "DELETE"} {
			res := apptest.Do(t, app, method, path, session)
			if res.Code != 403 || !strings.Contains(res.Body.String(), `"code":"SUDO_REQUIRED"`) || res.Header().Get(web.SudoHeader) != "required" {
				t.Errorf("%s 11 minutes after signing in: %d %s, want 403 SUDO_REQUIRED", method, res.Code, res.Body)
			}
		}
		if res := apptest.Do(t, app, "GET", path, token); res.Code != 200 {
			t.Errorf("download with a bearer token: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/confirm", session, `{"password":"correct horse"}`); res.Code != 200 {
			t.Fatalf("confirm: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", path, session); res.Code != 200 {
			t.Errorf("download after confirming: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", path, session); res.Code != 200 {
			t.Errorf("delete after confirming: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", path, http.Header{"Cookie": session["Cookie"]}); res.Code != 404 {
			t.Errorf("download after deleting: %d, want 404", res.Code)
		}
	})
}
