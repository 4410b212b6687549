package handlers_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestAuditLogList(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, super := app.Admin(t)
	for range 3 {
		apptest.Do(t, app, "GET", "/api/v1/admin/tokens", cookie)
	}
	app.FlushAudit(t)
	res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?action=token.list&limit=2&offset=1&adminId="+itoa(super.ID), cookie)
	var got struct {
		Data []struct{ Action, AdminID, Timestamp, Hash, PrevHash string }
		Meta struct {
			Pagination struct {
				Total, Limit, Offset int
				HasMore              bool
			}
		}
	}
	json.Unmarshal(res.Body.Bytes(), &got)
	p := got.Meta.Pagination
	if res.Code != 200 || len(got.Data) != 2 || p.Total != 3 || p.Limit != 2 || p.Offset != 1 || p.HasMore {
		t.Fatalf("got %d %s", res.Code, res.Body)
	}
	if got.Data[0].Action != "token.list" || got.Data[0].AdminID != itoa(super.ID) || len(got.Data[0].Timestamp) != 24 || got.Data[0].PrevHash != got.Data[1].Hash {
		t.Errorf("entries %+v", got.Data)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "startDate=yesterday", "adminId=bob"} {
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?"+q, cookie); res.Code != 422 {
			t.Errorf("%s: got %d %s, want 422", q, res.Code, res.Body)
		}
	}
}

// TestAuditVerifyFindsTheBrokenLink tampers with a stored entry, as
// someone with database access might, and checks that the verify endpoint
// names it.
func TestAuditVerifyFindsTheBrokenLink(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, _ := app.Admin(t)
		for range 4 {
			apptest.Do(t, app, "GET", "/api/v1/admin/tokens", cookie)
		}
		entries := app.AuditEntries(t)
		if len(entries) != 4 {
			t.Fatalf("%d entries, want 4", len(entries))
		}
		tampered := entries[1].ID
		if _, err := db.NewUpdate().Model((*models.AuditEntry)(nil)).Set("status = 200 + 1").Where("id = ?", tampered).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/verify", cookie)
		var got struct {
			Success bool
			Data    struct {
				Valid         bool
				Checked       int
				FirstBrokenID *string
			}
		}
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		d := got.Data
		if res.Code != 200 || !got.Success || d.Valid || d.Checked != 2 || d.FirstBrokenID == nil || *d.FirstBrokenID != itoa(tampered) {
			t.Errorf("got %d %s, want valid:false, checked:2, firstBrokenId %q", res.Code, res.Body, itoa(tampered))
		}
	})
}

// TestAuditTargetFilters: targetType alone keeps the entries about one
// kind of resource, targetId alone those about resources with that id,
// both together one resource; the export filters the same way.
func TestAuditTargetFilters(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		for _, name := range []string{"alpha", "beta"} {
			apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/"+name, root, `{"enabled":true}`)
		}
		apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/alpha", root, `{"enabled":false}`)
		u := app.User(t, "target@example.com")
		apptest.DoBody(t, app, "PUT", api.AdminV1UserPath(u.ID), root, `{"isVerified":true}`)
		app.FlushAudit(t)
		tests := []struct {
			query      string
			want       int
			targetType string
			targetID   string
		}{
			{"targetType=feature_flag", 3, "feature_flag", ""},
			{"targetType=feature_flag&targetId=alpha", 2, "feature_flag", "alpha"},
			{"targetId=beta", 1, "feature_flag", "beta"},
			{"targetType=user&targetId=" + itoa(u.ID), 1, "user", itoa(u.ID)},
			{"targetType=user&targetId=alpha", 0, "", ""},
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				var list struct {
					Data []api.AuditEntry
					Meta struct{ Pagination struct{ Total int } }
				}
				res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?limit=100&"+tt.query, root)
				if err := json.Unmarshal(res.Body.Bytes(), &list); err != nil || res.Code != 200 {
					t.Fatalf("got %d %s", res.Code, res.Body)
				}
				if len(list.Data) != tt.want || list.Meta.Pagination.Total != tt.want {
					t.Fatalf("got %d entries (total %d), want %d: %+v", len(list.Data), list.Meta.Pagination.Total, tt.want, list.Data)
				}
				for _, e := range list.Data {
					if e.TargetType != tt.targetType || tt.targetID != "" && e.TargetID != tt.targetID {
						t.Errorf("entry about %s %s", e.TargetType, e.TargetID)
					}
				}
				export := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/export?"+tt.query, root)
				if lines := strings.Count(export.Body.String(), "\n"); export.Code != 200 || lines != tt.want {
					t.Errorf("export: got %d with %d lines, want %d", export.Code, lines, tt.want)
				}
			})
		}
	})
}
