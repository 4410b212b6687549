package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConsoleShowsPeopleByName: the audit log, a user's page and the
// moderation report name the people they show, linked to their pages,
// and say "deleted account" for one who is gone; never a bare id.
func TestConsoleShowsPeopleByName(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, rootUser := app.Admin(t)
		ana := app.User(t, "ana@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		carl := app.User(t, "carl@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		bob := app.User(t, "bob@example.com")
		anaSession := app.SessionFor(t, ana.ID)
		must := func(res interface{ Result() *http.Response }, what string) {
			t.Helper()
			if code := res.Result().StatusCode; code >= 300 {
				t.Fatalf("%s: %d", what, code)
			}
		}
		must(apptest.DoBody(t, app, "POST", fmt.Sprintf("/api/v1/admin/users/%d/notes", bob.ID), anaSession, `{"body":"watch"}`), "note")
		newPostAs(t, app, bob.ID, "Rude")
		must(apptest.DoBody(t, app, "POST", fmt.Sprintf("/api/v1/admin/users/%d/ban", bob.ID), anaSession, `{"action":"ban","reason":"spam"}`), "ban")
		must(apptest.DoBody(t, app, "POST", fmt.Sprintf("/api/v1/admin/posts/%d/moderate", postByTitle(t, db, "Rude")), anaSession, `{"action":"hide","reason":"rude"}`), "moderate")
		must(apptest.Do(t, app, "GET", "/api/v1/admin/users", app.SessionFor(t, carl.ID)), "list as carl")
		must(apptest.DoBody(t, app, "POST", "/api/v1/admin/blocks", anaSession, `{"kind":"ip","value":"203.0.113.0/24"}`), "block")
		must(apptest.DoBody(t, app, "POST", "/api/v1/admin/notifications/broadcast", anaSession, `{"title":"T","message":"M","targets":["all"]}`), "broadcast")
		app.TokenFor(t, ana.ID, access.PermAdminRead)
		must(apptest.DoBody(t, app, "POST", "/api/v1/admin/system/maintenance", root, `{"action":"cache_clear"}`), "maintenance")
		app.FlushAudit(t)
		ctx := context.Background()
		if err := app.Store.Change(ctx, func(ctx context.Context) error { return app.Store.Users.DeleteUserAccount(ctx, carl.ID) }); err != nil {
			t.Fatal(err)
		}
		get := func(path string) *goquery.Document {
			t.Helper()
			res := apptest.Do(t, app, "GET", path, http.Header{"Accept": {"text/html"}, "Cookie": root["Cookie"]})
			doc, err := goquery.NewDocumentFromReader(res.Body)
			if res.Code != 200 || err != nil {
				t.Fatalf("%s: %d %v", path, res.Code, err)
			}
			return doc
		}
		linksTo := func(s *goquery.Selection, id int64, name, where string) {
			t.Helper()
			a := s.Find("a[data-person]").First()
			if a.AttrOr("href", "") != fmt.Sprintf("/admin/users/%d", id) || a.Text() != name {
				t.Errorf("%s: %q linked to %q, want %s's page", where, strings.TrimSpace(s.Text()), a.AttrOr("href", ""), name)
			}
		}

		audit := get("/admin/audit?action=user.ban")
		linksTo(audit.Find(`[data-testid="audit-who"]`), ana.ID, ana.Username, "the ban's admin")
		linksTo(audit.Find(`[data-testid="audit-on"]`), bob.ID, bob.Username, "the ban's target")
		if got := audit.Find(`[data-testid="audit-target"]`).First().Text(); strings.Contains(got, fmt.Sprint(bob.ID)) {
			t.Errorf("the row names its target by id: %q", got)
		}
		gone := get("/admin/audit?action=users.list&adminId=" + fmt.Sprint(carl.ID))
		if got := strings.TrimSpace(gone.Find(`[data-testid="audit-who"]`).First().Text()); got != carl.Username+" (deleted account)" {
			t.Errorf("a deleted admin's entry says %q", got)
		}

		user := get(fmt.Sprintf("/admin/users/%d", bob.ID))
		linksTo(user.Find(`[data-testid="ban-by"]`), ana.ID, ana.Username, "the ban's issuer")
		linksTo(user.Find(`[data-testid="note-by"]`), ana.ID, ana.Username, "the note's author")
		linksTo(user.Find(`[data-testid="user-audit-who"]`), ana.ID, ana.Username, "the user's audit entries")

		for _, page := range []string{"/admin/tokens", "/admin/blocks", "/admin/broadcasts"} {
			linksTo(get(page).Find(`[data-testid="made-by"]`), ana.ID, ana.Username, page)
		}
		linksTo(get("/admin/system").Find(`[data-testid="made-by"]`), rootUser.ID, rootUser.Username, "the job's admin")

		report := get("/admin/reports/moderation")
		linksTo(report.Find(`[data-testid="moderator"]`), ana.ID, ana.Username, "the report's moderator")
	})
}

// TestWebhooksNameTheirAuthor: the webhooks page says who registered
// each endpoint, by name and linked.
func TestWebhooksNameTheirAuthor(t *testing.T) {
	recv := apptest.NewReceiver(t)
	a := webhookApp(t, dbtest.Open(t, "sqlite"), recv)
	admin, root := a.Admin(t)
	registerWebhook(t, a, admin, recv.URL, "user.banned")
	res := apptest.Do(t, a, "GET", "/admin/webhooks", http.Header{"Accept": {"text/html"}, "Cookie": admin["Cookie"]})
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if res.Code != 200 || err != nil {
		t.Fatalf("%d %v", res.Code, err)
	}
	a0 := doc.Find(`[data-testid="made-by"] a[data-person]`)
	if a0.AttrOr("href", "") != fmt.Sprintf("/admin/users/%d", root.ID) || a0.Text() != root.Username {
		t.Errorf("the endpoint's author: %q linked to %q", a0.Text(), a0.AttrOr("href", ""))
	}
}
