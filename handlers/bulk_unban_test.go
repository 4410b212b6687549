package handlers_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestBulkActivateLiftsBansThroughTheUnban: setting a banned user's status
// to active in a bulk update lifts the ban through the unban action, as
// POST /api/admin/users/{id}/unban and PUT /api/v1/admin/users/{id} do: the
// ban ends by the admin, the user is active, and the bulk entry names the
// unban it made for that user (action unban). Before, the model ended the
// ban itself as a side effect of the status, and the entry said nothing of
// an unban.
func TestBulkActivateLiftsBansThroughTheUnban(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		super, root := app.Admin(t)
		ada, bob := app.User(t, "ada@example.com"), app.User(t, "bob@example.com")
		err := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Sanctions.BanUser(ctx, models.BanInput{UserID: ada.ID, AdminID: root.ID, Reason: "spam"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super,
			`{"userIds":["`+itoa(ada.ID)+`","`+itoa(bob.ID)+`"],"changes":{"status":"active"}}`)
		if res.Code != 200 {
			t.Fatalf("bulk update: %d %s", res.Code, res.Body)
		}
		var ban models.Ban
		if err := db.NewSelect().Model(&ban).Where("user_id = ?", ada.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if ban.EndedAt == nil || ban.EndedBy == nil || *ban.EndedBy != root.ID {
			t.Errorf("the ban %+v, want ended by %s", ban, root.Username)
		}
		if u, err := app.Store.Users.UserByID(ctx, ada.ID); err != nil || u.Status != models.UserActive {
			t.Errorf("ada after the bulk update: %+v %v", u, err)
		}
		e := lastEntry(t, app, "users.bulk_update")
		unbans, _ := e.Details["unbanned"].([]any)
		if len(unbans) != 1 || unbans[0] != itoa(ada.ID) {
			t.Errorf("the bulk entry's unbans %v (details %v), want [%d]", unbans, e.Details, ada.ID)
		}
	})
}
