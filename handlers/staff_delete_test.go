package handlers_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestStaffDeleteIsTheModerationDelete: an admin deleting someone else's
// post through DELETE /api/posts/{id} takes the moderation delete, as
// POST /api/v1/admin/posts/{id}/moderate {action: delete} does: a
// moderation record, the post's open reports settled, a post.moderated
// message queued. The author deleting its own post leaves no moderation
// record. Before, the general API's delete removed the row and nothing
// else.
func TestStaffDeleteIsTheModerationDelete(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		admin, root := app.Admin(t)
		ada, bob := app.User(t, "ada@example.com"), app.User(t, "bob@example.com")
		hook := &models.Webhook{URL: "http://127.0.0.1:9/hooks", Events: []string{webhook.EventPostModerated}, Active: true, Secret: bytes.Repeat([]byte{7}, 32)}
		if err := app.Store.Change(ctx, func(ctx context.Context) error { return app.Store.Hooks.CreateWebhook(ctx, hook) }); err != nil {
			t.Fatal(err)
		}
		newPostAs(t, app, ada.ID, "Cheap pills")
		newPostAs(t, app, ada.ID, "Ada's own")
		pills, own := postByTitle(t, db, "Cheap pills"), postByTitle(t, db, "Ada's own")
		if res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(pills)), app.SessionFor(t, bob.ID), `{"reason":"spam"}`); res.Code != 201 {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}

		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+itoa(pills), admin); res.Code != 200 || !postGone(t, app, itoa(pills)) {
			t.Fatalf("staff delete: %d %s", res.Code, res.Body)
		}
		var recs []models.ModerationAction
		if err := db.NewSelect().Model(&recs).Where("post_id = ?", pills).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || recs[0].Action != "delete" || recs[0].AdminID == nil || *recs[0].AdminID != root.ID {
			t.Errorf("moderation records %+v, want one delete by %s", recs, root.Username)
		}
		open, err := db.NewSelect().Model((*models.PostReport)(nil)).Where("post_id = ? AND status = ?", pills, "open").Count(ctx)
		if err != nil || open != 0 {
			t.Errorf("%d reports left open (%v), want them settled", open, err)
		}
		sent, err := db.NewSelect().Model((*models.WebhookDelivery)(nil)).Where("webhook_id = ? AND event = ?", hook.ID, webhook.EventPostModerated).Count(ctx)
		if err != nil || sent != 1 {
			t.Errorf("%d post.moderated messages queued (%v), want 1", sent, err)
		}

		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+itoa(own), app.SessionFor(t, ada.ID)); res.Code != 200 || !postGone(t, app, itoa(own)) {
			t.Fatalf("the author's delete: %d %s", res.Code, res.Body)
		}
		if n, err := db.NewSelect().Model((*models.ModerationAction)(nil)).Where("post_id = ?", own).Count(ctx); err != nil || n != 0 {
			t.Errorf("the author's delete left %d moderation records (%v)", n, err)
		}
		checkCounters(t, app)
	})
}
