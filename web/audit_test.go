package web_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func auditRows(t *testing.T, app *apptest.App) []models.AuditEntry {
	t.Helper()
	app.FlushAudit(t)
	var rows []models.AuditEntry
	if err := app.Store.DB.NewSelect().Model(&rows).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestAuditRecordsAllowedAndDenied(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, super := app.Admin(t)
		mod := app.User(t, "mod@example.com", auth.RoleModerator)
		h := cookie.Clone()
		h.Set("User-Agent", "plaza-test/1.0")

		apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", h, `{"type":"user","id":"42"}`)      // allowed write
		apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", app.SessionFor(t, mod.ID))           // denied: 403
		apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/verify", nil)                          // denied: 401
		apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", cookie, `{"permissions":["nope"]}`) // invalid: 422
		rows := auditRows(t, app)
		if len(rows) != 4 {
			t.Fatalf("%d entries, want 4: %+v", len(rows), rows)
		}
		want := []struct {
			action string
			status int
			admin  *int64
		}{{"lock.acquire", 201, &super.ID}, {"audit.view", 403, &mod.ID}, {"audit.verify", 401, nil}, {"token.create", 422, &super.ID}}
		for i, w := range want {
			r := rows[i]
			if r.Action != w.action || r.Status != w.status || (w.admin == nil) != (r.AdminID == nil) || w.admin != nil && *r.AdminID != *w.admin {
				t.Errorf("entry %d: %s %d admin %v, want %s %d admin %v", i, r.Action, r.Status, r.AdminID, w.action, w.status, w.admin)
			}
		}
		if rows[0].TargetType != "user" || rows[0].TargetID != "42" || rows[0].UserAgent != "plaza-test/1.0" || rows[0].IPAddress != "192.0.2.1" {
			t.Errorf("first entry %+v", rows[0])
		}
		res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/verify", cookie)
		var v struct {
			Data struct {
				Valid         bool
				Checked       int
				FirstBrokenID *string
			}
		}
		json.Unmarshal(res.Body.Bytes(), &v)
		if !v.Data.Valid || v.Data.Checked != 4 || v.Data.FirstBrokenID != nil {
			t.Errorf("verify: %s", res.Body)
		}
	})
}
