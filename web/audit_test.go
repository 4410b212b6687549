package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
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
		mod := app.User(t, "mod@example.com", access.RoleModerator)
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

// serveReal serves app over a real listener with the server's own limits
// (web.Server), so that header caps apply as in production.
func serveReal(t *testing.T, app *apptest.App) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(app)
	ts.Config = web.Server("", app)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestAnonymousRefusalsAreAggregated floods an audited admin route with
// anonymous requests over real HTTP (401s, then 429s once the window is
// spent): the audit log gains a handful of rows that count them, not one
// row per request.
func TestAnonymousRefusalsAreAggregated(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		base := serveReal(t, app)
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
		const total, workers = 10_000, 8
		var wg sync.WaitGroup
		var failed atomic.Int64
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < total; i += workers {
					res, err := client.Get(base + "/api/v1/admin/audit-logs/verify")
					if err != nil {
						failed.Add(1)
						continue
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusTooManyRequests {
						failed.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if n := failed.Load(); n > 0 {
			t.Fatalf("%d requests failed or were not refused", n)
		}
		rows := auditRows(t, app)
		if len(rows) == 0 || len(rows) > 4 {
			t.Fatalf("%d audit rows for %d anonymous requests, want a handful", len(rows), total)
		}
		for _, r := range rows {
			if r.AdminID != nil || r.Action != "audit.verify" || r.Status < 400 {
				t.Errorf("unexpected row %+v", r)
			}
		}
		cookie, _ := app.Admin(t)
		res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs/verify", cookie)
		if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `"valid":true`) {
			t.Errorf("verify after the flood: %d %s", res.Code, res.Body)
		}
	})
}

// TestAuditCapsClientStrings sends an oversized User-Agent and target: the
// entry keeps a capped prefix of each.
func TestAuditCapsClientStrings(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, _ := app.Admin(t)
		base := serveReal(t, app)
		long := strings.Repeat("x", 40_000)
		req, _ := http.NewRequest("GET", base+"/api/v1/admin/users/"+strings.Repeat("9", 3000), nil)
		for k, v := range cookie {
			req.Header[k] = v
		}
		req.Header.Set("User-Agent", long)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		rows := auditRows(t, app)
		if len(rows) == 0 {
			t.Fatal("no audit row")
		}
		r := rows[len(rows)-1]
		if len(r.UserAgent) > audit.MaxUserAgent || len(r.TargetID) > audit.MaxField {
			t.Errorf("stored a %d-byte user agent and a %d-byte target id", len(r.UserAgent), len(r.TargetID))
		}
		if !strings.HasPrefix(r.UserAgent, "xxxx") {
			t.Errorf("user agent %q lost its prefix", r.UserAgent)
		}
	})
}

// TestHeadersAreCapped sends 100 KiB of headers over real HTTP: the server
// refuses them before any handler runs.
func TestHeadersAreCapped(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	base := serveReal(t, app)
	req, _ := http.NewRequest("GET", base+"/api/v1/admin/audit-logs/verify", nil)
	req.Header.Set("User-Agent", strings.Repeat("x", 100<<10))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("100 KiB of headers: %d, want 431", res.StatusCode)
	}
	if rows := auditRows(t, app); len(rows) != 0 {
		t.Errorf("%d audit rows, want none", len(rows))
	}
}
