package handlers_test

import (
	"net/http"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestQueueHidesDecisionsTheViewerMayNotTake: in the console's queue a
// moderator finds no decision and no bulk checkbox on their own post or on
// a peer moderator's, only a note saying who decides; a member's post
// offers them. An admin decides the moderators' posts.
func TestQueueHidesDecisionsTheViewerMayNotTake(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		mod := d.app.User(t, "mod@example.com", api.RoleModerator)
		peer := d.app.User(t, "peer@example.com", api.RoleModerator)
		member := d.post(t, "A member's post", 0)
		reported := func(author int64, title string) int64 {
			newPostAs(t, d.app, author, title)
			id := postByTitle(t, d.db, title)
			if res := apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), d.app.SessionFor(t, d.reporters[1].ID), `{"reason":"spam"}`); res.Code != 201 {
				t.Fatalf("report: %d %s", res.Code, res.Body)
			}
			return id
		}
		own, peers := reported(mod.ID, "The moderator's own post"), reported(peer.ID, "A peer moderator's post")

		queue := func(session http.Header) *goquery.Document {
			t.Helper()
			res := apptest.Do(t, d.app, "GET", "/admin/moderation", withHeader(session, "Accept", "text/html"))
			if res.Code != 200 {
				t.Fatalf("queue: %d %s", res.Code, res.Body)
			}
			doc, err := goquery.NewDocumentFromReader(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return doc
		}
		controls := `[data-testid="approve"], [data-testid="hide"], [data-testid="flag"], [data-testid="dismiss"], [data-testid="delete-open"], [data-select]`
		check := func(doc *goquery.Document, id int64, decides bool, note string) {
			t.Helper()
			row := doc.Find(`[data-testid="post-row-` + itoa(id) + `"]`)
			if row.Length() != 1 {
				t.Fatalf("post %d is not in the queue", id)
			}
			if n := row.Find(controls).Length(); decides != (n > 0) {
				t.Errorf("post %d: %d decision controls, want decisions %v", id, n, decides)
			}
			if got := row.Find(`[data-testid="decision-held"]`).Text(); got != note {
				t.Errorf("post %d: note %q, want %q", id, got, note)
			}
		}
		doc := queue(d.app.SessionFor(t, mod.ID))
		check(doc, member, true, "")
		check(doc, own, false, "Your post: an admin decides")
		check(doc, peers, false, "A moderator's post: an admin decides")

		doc = queue(d.admin)
		check(doc, own, true, "")
		check(doc, peers, true, "")
	})
}
