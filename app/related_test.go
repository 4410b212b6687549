package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestStartFillsRelatedColumns: rows written before related accounts were
// kept (no canonical email, no range of a sign-in's address) get them
// when Plaza starts, so that they are found like new ones.
func TestStartFillsRelatedColumns(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		old := []models.User{
			{Username: "old", Email: "a.b+old@gmail.com", Status: models.UserActive, IsActive: true, CreatedAt: now, UpdatedAt: now},
			{Username: "older", Email: "ab@gmail.com", Status: models.UserActive, IsActive: true, CreatedAt: now, UpdatedAt: now},
		}
		if _, err := db.NewInsert().Model(&old).Returning("id").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		login := &models.Login{UserID: old[0].ID, Method: "password", IPAddress: "2001:db8:1:2::7", CreatedAt: now}
		if _, err := db.NewInsert().Model(login).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		app := apptest.New(t, db)
		var u models.User
		if err := db.NewSelect().Model(&u).Where("u.id = ?", old[0].ID).Scan(ctx); err != nil || u.EmailCanonical != "ab@gmail.com" {
			t.Errorf("after the start: email_canonical %q (%v), want ab@gmail.com", u.EmailCanonical, err)
		}
		if err := db.NewSelect().Model(login).WherePK().Scan(ctx); err != nil || login.IPNet != "2001:db8:1:2::/64" {
			t.Errorf("after the start: ip_net %q (%v), want 2001:db8:1:2::/64", login.IPNet, err)
		}
		r, err := app.Store.Users.RelatedAccounts(ctx, old[0].ID, 0)
		if err != nil || len(r.Accounts) != 1 || r.Accounts[0].ID != old[1].ID {
			t.Errorf("related of the old account: %+v (%v), want the older one by its mailbox", r, err)
		}
	})
}
