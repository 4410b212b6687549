package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// TestConsolePurge: on a phone's width, an admin ticks two accounts of a
// user's related accounts, reads the purge's preview in its dialog,
// purges them, opens the purge's page and undoes one account, which is
// active again while the other stays banned.
func TestConsolePurge(t *testing.T) {
	pz := startPlaza(t)
	ctx := context.Background()
	var wave []*models.User
	for i, name := range []string{"seed", "alpha", "beta"} {
		u := pz.User(t, name+"@wave.plaza.test")
		_, err := pz.Store.DB.NewRaw("UPDATE users SET signup_ip = ?, signup_net = ? WHERE id = ?",
			fmt.Sprintf("2001:db8:9:9::%d", i+1), "2001:db8:9:9::/64", u.ID).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
		err = pz.Store.Change(ctx, func(ctx context.Context) error {
			_, err := pz.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: u.ID, Title: "Cheap " + name, Content: "buy", Published: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		wave = append(wave, u)
	}
	alpha, beta := wave[1], wave[2]
	p, c := pz.as(t, pz.admin, fmt.Sprintf("/admin/users/%d", wave[0].ID))
	resize(t, p, phone)
	step(t, p, "tick and preview", func(p *rod.Page) {
		p.MustElement(fmt.Sprintf(`[data-testid="related-select-%d"]`, alpha.ID)).MustClick()
		p.MustElement(fmt.Sprintf(`[data-testid="related-select-%d"]`, beta.ID)).MustClick()
		p.MustElement(`[data-testid="purge-open-related-selection"]`).MustClick()
	})
	waitText(t, p, `[data-testid="purge-to-ban"]`, "2")
	waitText(t, p, `[data-testid="purge-posts"]`, "2")
	if !p.MustElement(`[data-testid="purge-range-0"]`).MustProperty("checked").Bool() {
		t.Error("the range both accounts share is not ticked to block")
	}
	accessible(t, p, "the purge dialog")
	step(t, p, "purge", func(p *rod.Page) { p.MustElement(`[data-testid="purge-submit"]`).MustClick() })
	toast(t, p, "Purged 2 accounts, hid 2 posts")
	waitText(t, p, `[data-testid="purge-done"]`, "Purged 2 accounts")
	for _, u := range []*models.User{alpha, beta} {
		var got struct{ Data api.V1UserDetail }
		pz.api(t, pz.admin, "GET", api.AdminV1UserPath(u.ID), &got)
		if got.Data.Status != "banned" {
			t.Errorf("%s is %s after the purge", u.Username, got.Data.Status)
		}
	}
	step(t, p, "open the purge", func(p *rod.Page) {
		p.MustElement(`[data-testid="purge-page-link"]`).MustClick()
		p.MustWaitLoad()
	})
	accessible(t, p, "the purge page")
	step(t, p, "undo one account", func(p *rod.Page) {
		p.MustElement(fmt.Sprintf(`[data-testid="purge-row-%d"] [data-testid="purge-undo-one"]`, alpha.ID)).MustClick()
	})
	toast(t, p, "Undid the purge of 1 account")
	waitText(t, p, fmt.Sprintf(`[data-testid="purge-row-%d"] [data-testid="purge-row-state"]`, alpha.ID), "Restored (1 post back)")
	var got struct{ Data api.V1UserDetail }
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(alpha.ID), &got)
	if got.Data.Status != "active" {
		t.Errorf("%s is %s after its undo", alpha.Username, got.Data.Status)
	}
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(beta.ID), &got)
	if got.Data.Status != "banned" {
		t.Errorf("%s is %s after the undo of another", beta.Username, got.Data.Status)
	}
	clean(t, c)
}
