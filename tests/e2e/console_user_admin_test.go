package e2e

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleCreateAndDeleteUser: an admin makes an account from the
// users page's New user dialog (it shows up in the list), opens it,
// deletes it after the dialog asks, and lands on the users list; the API
// then knows no such user. Both dialogs pass axe.
func TestConsoleCreateAndDeleteUser(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, api.PathConsoleUsers)
	step(t, p, "make an account", func(p *rod.Page) {
		p.MustElement(`[data-testid="new-user-open"]`).MustClick()
		p.MustElement(`[data-testid="new-user-name"]`).MustInput("Nia Obi")
		p.MustElement(`[data-testid="new-user-email"]`).MustInput("nia@plaza.test")
		p.MustElement(`[data-testid="new-user-password"]`).MustInput("a long garden path")
		accessible(t, p, "the new user dialog")
		p.MustElement(`[data-testid="new-user-submit"]`).MustClick()
	})
	toast(t, p, "can sign in now")
	step(t, p, "search for it", func(p *rod.Page) {
		p.MustElement(`[data-testid="user-search"]`).MustInput("nia@plaza.test")
		p.MustElementR(`[data-testid="user-list"] a`, "nia").MustClick()
	})
	waitText(t, p, `[data-testid="user-username"]`, "nia")
	var id int64
	if err := pz.Store.DB.NewRaw(`SELECT id FROM users WHERE email = 'nia@plaza.test'`).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	step(t, p, "delete it", func(p *rod.Page) {
		p.MustElement(`[data-testid="delete-user-open"]`).MustClick()
		p.MustElement(`#delete-user[open]`)
		accessible(t, p, "the delete dialog")
		p.MustElement(`[data-testid="delete-user-submit"]`).MustClick()
		p.MustWait(`() => location.pathname === '/admin/users'`)
	})
	res := apptest.Do(t, pz.App, http.MethodGet, api.AdminV1UserPath(id), pz.SessionFor(t, pz.admin.ID))
	if res.Code != http.StatusNotFound {
		t.Errorf("after the deletion the API answers %d for the user", res.Code)
	}
	clean(t, c)
}
