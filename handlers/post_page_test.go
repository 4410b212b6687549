package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/seed"
)

// TestPostPage: a post's console page shows the whole post, its reports
// and its moderation history with who decided, is audited as a read, and
// is where the post's title leads from its author's page and from the
// moderation report; a member may not open it, and an unknown post is 404.
func TestPostPage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		if _, err := seed.Demo(context.Background(), app.Store); err != nil {
			t.Fatal(err)
		}
		admin := app.User(t, "ana@plaza.test", access.RoleAdmin)
		h := withHeader(app.SessionFor(t, admin.ID), "Accept", "text/html")
		var post struct {
			ID       int64
			AuthorID int64
			Title    string
		}
		err := db.NewRaw(`SELECT id, author_id, title FROM posts WHERE open_reports > 0 ORDER BY report_count DESC, id LIMIT 1`).Scan(context.Background(), &post)
		if err != nil {
			t.Fatal(err)
		}
		res := apptest.DoBody(t, app, http.MethodPost, api.AdminV1ModeratePath(post.ID), app.SessionFor(t, admin.ID), `{"action":"hide","reason":"Spam in the garden"}`)
		if res.Code != http.StatusOK {
			t.Fatalf("hide: %d %s", res.Code, res.Body)
		}
		path := api.ConsolePostPath(itoa(post.ID))
		doc := docOf(t, app, path, h)
		if got := strings.TrimSpace(doc.Find(`[data-testid="post-title"]`).Text()); got != post.Title {
			t.Errorf("the page's title is %q, want %q", got, post.Title)
		}
		if n := doc.Find(`[data-testid="post-reports"] li`).Length(); n == 0 {
			t.Error("no reports on the page")
		}
		decision := doc.Find(`[data-testid="post-decision"]`).First().Text()
		if !strings.Contains(decision, "Hide") || !strings.Contains(decision, "ana") || !strings.Contains(decision, "Spam in the garden") {
			t.Errorf("the history's latest decision reads %q", strings.Join(strings.Fields(decision), " "))
		}
		app.FlushAudit(t) // reads are audited from a queue
		var audited int
		if err := db.NewRaw(`SELECT count(*) FROM audit_log WHERE action = 'post.view' AND target_id = ?`, itoa(post.ID)).Scan(context.Background(), &audited); err != nil || audited != 1 {
			t.Errorf("post.view audited %d times (%v)", audited, err)
		}
		for _, from := range []string{api.ConsoleUserPath(post.AuthorID), api.PathConsoleModerationReport} {
			if doc := docOf(t, app, from, h); doc.Find(fmt.Sprintf(`a[href=%q]`, path)).Length() == 0 {
				t.Errorf("%s has no link to %s", from, path)
			}
		}
		member := app.User(t, "member@plaza.test")
		if res := apptest.Do(t, app, http.MethodGet, path, app.SessionFor(t, member.ID)); res.Code != http.StatusForbidden {
			t.Errorf("a member opening the page: %d", res.Code)
		}
		if res := apptest.Do(t, app, http.MethodGet, api.ConsolePostPath("999999"), h); res.Code != http.StatusNotFound {
			t.Errorf("an unknown post: %d", res.Code)
		}
	})
}

func docOf(t *testing.T, app *apptest.App, path string, h http.Header) *goquery.Document {
	t.Helper()
	res := apptest.Do(t, app, http.MethodGet, path, h)
	if res.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", path, res.Code, res.Body)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
