package handlers_test

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAuditExport: the JSONL and CSV exports hold the entries the list
// shows for the same filters, in its order, field for field; without
// limit and offset every entry; the export is audited; only super admins
// may export, and a bad format is 422.
func TestAuditExport(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		for i := range 3 {
			apptest.DoBody(t, app, "PUT", fmt.Sprintf("/api/v1/admin/feature-flags/flag%d", i), root, `{"description":"=1+1, \"quoted\""}`)
		}
		app.FlushAudit(t)
		var list struct {
			Data []map[string]any
			Meta struct{ Pagination struct{ Total int } }
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?action=feature_flag.update&limit=100", root).Body.Bytes(), &list)
		if len(list.Data) != 3 {
			t.Fatalf("the list holds %d entries", len(list.Data))
		}
		res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export?action=feature_flag.update", root)
		if res.Code != 200 || res.Header().Get("Content-Type") != "application/x-ndjson" || !strings.Contains(res.Header().Get("Content-Disposition"), ".jsonl") {
			t.Fatalf("JSONL: %d %v", res.Code, res.Header())
		}
		sc := bufio.NewScanner(bytes.NewReader(res.Body.Bytes()))
		for i := 0; sc.Scan(); i++ {
			want, _ := json.Marshal(list.Data[i])
			var got map[string]any
			json.Unmarshal(sc.Bytes(), &got)
			again, _ := json.Marshal(got)
			if string(again) != string(want) {
				t.Errorf("line %d: %s, want %s", i, again, want)
			}
		}
		res = apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export?format=csv&action=feature_flag.update", root)
		records, err := csv.NewReader(bytes.NewReader(res.Body.Bytes())).ReadAll()
		if err != nil || len(records) != 4 || records[0][0] != "id" {
			t.Fatalf("CSV %q: %v", res.Body, err)
		}
		for i, e := range list.Data {
			r := records[i+1]
			var details map[string]any
			json.Unmarshal([]byte(r[10]), &details)
			d, _ := json.Marshal(details)
			w, _ := json.Marshal(e["details"])
			if r[0] != e["id"] || r[4] != e["action"] || r[12] != e["hash"] || r[11] != e["prevHash"] || string(d) != string(w) {
				t.Errorf("CSV row %d %q differs from %v", i+1, r, e)
			}
		}
		app.FlushAudit(t)
		var all struct {
			Meta struct{ Pagination struct{ Total int } }
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?limit=1", root).Body.Bytes(), &all)
		app.FlushAudit(t)
		res = apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export", root)
		if lines := bytes.Count(res.Body.Bytes(), []byte("\n")); lines < all.Meta.Pagination.Total {
			t.Errorf("the whole export holds %d entries of at least %d", lines, all.Meta.Pagination.Total)
		}
		app.FlushAudit(t)
		if e := lastEntry(t, app, "audit.export"); e.Status != 200 || e.Details["format"] != "jsonl" {
			t.Errorf("export's entry: %+v", e)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export?format=xml", root); res.Code != 422 {
			t.Errorf("format=xml: %d", res.Code)
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		res = apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export", app.SessionFor(t, boss.ID))
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:super" {
			t.Errorf("an admin without admin:super: %d %s", res.Code, res.Body)
		}
	})
}
