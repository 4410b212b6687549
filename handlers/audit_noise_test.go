package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestConsoleRefreshesAuditedOncePerMinute: the console's own reads (htmx
// GETs) of one thing by one admin are written once a minute, the next
// row counting those held back; another thing, a page loaded in full
// and an API client's reads are written each time.
func TestConsoleRefreshesAuditedOncePerMinute(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		var ahead atomic.Int64
		app := apptest.New(t, db, func(d *web.Deps) {
			d.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
		})
		admin, _ := app.Admin(t)
		member := app.User(t, "member@example.com")
		htmx := withHeader(withHeader(admin, "HX-Request", "true"), "Accept", "text/html")
		get := func(h http.Header, path string, times int) {
			t.Helper()
			for range times {
				if res := apptest.Do(t, app, "GET", path, h); res.Code != 200 {
					t.Fatalf("GET %s: %d", path, res.Code)
				}
			}
		}
		get(htmx, "/admin/users", 5)
		get(htmx, "/admin/users?search=member", 2)
		get(htmx, "/admin/users/"+itoa(member.ID), 3)
		get(withHeader(admin, "Accept", "text/html"), "/admin/users", 2)
		get(admin, "/api/v1/admin/users", 3)
		lists, views := 0, 0
		for _, e := range app.AuditEntries(t) {
			switch e.Action {
			case "users.list":
				lists++
			case "user.view":
				views++
			}
		}
		// one console refresh of each list, two pages, three API reads
		if lists != 1+1+2+3 || views != 1 {
			t.Errorf("users.list entries %d (want 7), user.view %d (want 1)", lists, views)
		}
		ahead.Store(int64(61 * time.Second))
		get(htmx, "/admin/users", 1)
		all := app.AuditEntries(t)
		last := all[len(all)-1]
		if last.Action != "users.list" || last.Details["repeats"] != float64(4) {
			t.Errorf("a minute later, the refresh is written with the 4 held back: %s %v", last.Action, last.Details)
		}
	})
}

// TestAuditPageShowsChangesFirst: the console's audit page shows changes
// unless asked for reads; the API lists every entry, as its contract
// says, and takes the same filter; an unknown kind is 422.
func TestAuditPageShowsChangesFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		member := app.User(t, "member@example.com")
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(member.ID)+"/notes", admin, `{"body":"Asked to tone it down"}`); res.Code != 201 {
			t.Fatalf("a note: %d %s", res.Code, res.Body)
		}
		for range 3 {
			apptest.Do(t, app, "GET", "/api/v1/admin/users", admin)
		}
		app.FlushAudit(t)
		shown := func(body, action string) bool { return strings.Contains(body, `t-strong">`+action+`<`) }
		page := apptest.Do(t, app, "GET", "/admin/audit", withHeader(admin, "Accept", "text/html")).Body.String()
		if !shown(page, "user.note") || shown(page, "users.list") || !strings.Contains(page, `<option value="changes" selected`) {
			t.Errorf("the audit page's first page is not changes only")
		}
		reads := apptest.Do(t, app, "GET", "/admin/audit?kind=reads", withHeader(admin, "Accept", "text/html")).Body.String()
		if shown(reads, "user.note") || !shown(reads, "users.list") {
			t.Errorf("the reads filter does not show reads only")
		}
		var list struct{ Data []struct{ Action string } }
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", admin).Body.Bytes(), &list)
		actions := map[string]int{}
		for _, e := range list.Data {
			actions[e.Action]++
		}
		if actions["user.note"] != 1 || actions["users.list"] != 3 {
			t.Errorf("the API's list is not every entry: %v", actions)
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?kind=changes", admin).Body.Bytes(), &list)
		for _, e := range list.Data {
			if e.Action == "users.list" || e.Action == "audit.view" {
				t.Errorf("kind=changes lists the read %s", e.Action)
			}
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs?kind=some", admin); res.Code != 422 || !strings.Contains(res.Body.String(), "kind") {
			t.Errorf("an unknown kind: %d %s", res.Code, res.Body)
		}
	})
}
