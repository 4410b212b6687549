package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestQueueSortsByOpenReports: "most reported first" on the console's
// queue counts the open reports its rows show, not every report ever
// made: a post with one open report of four goes after one with two open.
// The API's own sorts stay as the contract lists them.
func TestQueueSortsByOpenReports(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		settled := d.post(t, "Settled mostly", 0, 1, 2)
		d.moderate(t, settled, `{"action":"approve"}`)
		if res := apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(settled)), d.app.SessionFor(t, d.reporters[0].ID), `{"reason":"spam"}`); res.Code != 201 {
			t.Fatalf("report again: %d %s", res.Code, res.Body)
		}
		d.post(t, "Open twice", 1, 2)
		order := func(query string) []string {
			res := apptest.Do(t, d.app, "GET", api.PathConsoleModeration+query, d.admin)
			if res.Code != 200 {
				t.Fatalf("the queue %s: %d %s", query, res.Code, res.Body)
			}
			var page struct{ Data []api.V1Post }
			if err := json.Unmarshal(res.Body.Bytes(), &page); err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, p := range page.Data {
				titles = append(titles, p.Title)
			}
			return titles
		}
		if got := strings.Join(order(""), ", "); got != "Open twice, Settled mostly" {
			t.Errorf("the queue's default order: %s", got)
		}
		if got := strings.Join(order("?sort=open_reports&order=asc"), ", "); got != "Settled mostly, Open twice" {
			t.Errorf("fewest open reports first: %s", got)
		}
		if got := strings.Join(order("?sort=report_count"), ", "); got != "Settled mostly, Open twice" {
			t.Errorf("by every report: %s", got)
		}
		if res := apptest.Do(t, d.app, "GET", api.PathAdminV1Posts+"?sort=open_reports", d.admin); res.Code != 422 {
			t.Errorf("the API sorted by a field its contract does not list: %d", res.Code)
		}
	})
}

// TestBulkDecisionUndoneThroughConsole: a bulk decision made from the
// console offers the undo of each post, named in its toast, and each undo
// puts its post back as it was, reports open again.
func TestBulkDecisionUndoneThroughConsole(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		one, two := d.post(t, "Bulk one", 0), d.post(t, "Bulk two", 1)
		hx := withHeader(d.admin, "HX-Request", "true", "Accept", "text/html")
		res := apptest.DoBody(t, d.app, "POST", api.PathConsoleBulkModerate, hx, `{"postIds":["`+itoa(one)+`","`+itoa(two)+`"],"action":"hide","reason":"Spam"}`)
		if res.Code != 200 {
			t.Fatalf("bulk hide: %d %s", res.Code, res.Body)
		}
		var trigger struct {
			Toast struct {
				Message string   `json:"message"`
				Undo    []string `json:"undo"`
			} `json:"plaza:toast"`
		}
		if err := json.Unmarshal([]byte(res.Header().Get("HX-Trigger")), &trigger); err != nil {
			t.Fatalf("HX-Trigger %q: %v", res.Header().Get("HX-Trigger"), err)
		}
		want := []string{"/admin/moderation/" + itoa(one) + "/undo", "/admin/moderation/" + itoa(two) + "/undo"}
		if strings.Join(trigger.Toast.Undo, " ") != strings.Join(want, " ") || trigger.Toast.Message != "2 posts hidden" {
			t.Fatalf("the bulk toast: %+v", trigger.Toast)
		}
		for _, url := range trigger.Toast.Undo {
			if res := apptest.DoBody(t, d.app, "POST", url, hx, `{}`); res.Code != 200 {
				t.Errorf("undo %s: %d %s", url, res.Code, res.Body)
			}
		}
		for _, id := range []int64{one, two} {
			if got := d.status(t, id); got != "published" {
				t.Errorf("post %d after the undo: %s", id, got)
			}
			for _, s := range d.reports(t, id) {
				if s != "open" {
					t.Errorf("post %d's report after the undo: %s", id, s)
				}
			}
		}
		// One post's decision names the post.
		res = apptest.DoBody(t, d.app, "POST", api.ConsoleModeratePath(one), hx, `{"action":"flag"}`)
		if !strings.Contains(res.Header().Get("HX-Trigger"), "Post flagged: “Bulk one”") {
			t.Errorf("a decision's toast: %q", res.Header().Get("HX-Trigger"))
		}
		// A bulk delete is not undone: no offer.
		res = apptest.DoBody(t, d.app, "POST", api.PathConsoleBulkModerate, hx, `{"postIds":["`+itoa(two)+`"],"action":"delete"}`)
		if res.Code != 200 || strings.Contains(res.Header().Get("HX-Trigger"), "undo") {
			t.Errorf("bulk delete: %d %q %s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
	})
}
