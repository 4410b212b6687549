package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// TestConsoleInvitations: a moderator opens Invitations from the sidebar
// and makes a one-use invitation, whose link the page shows once; a
// visitor (a browser of their own, signed in as nobody) opens the link,
// signs up on /signup with the invitation hidden in the form, and is told
// to check their mail; the invitation's page then names them as its user
// and the list says it is used up.
func TestConsoleInvitations(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.modUser, api.PathConsole)
	step(t, p, "open Invitations from the sidebar", func(p *rod.Page) {
		clickToLoad(p, `[data-testid="nav-invitations"]`)
		p.MustElement(`[data-testid="invitation-form"]`)
	})
	accessible(t, p, "the invitations page")
	var link string
	step(t, p, "make a one-use invitation", func(p *rod.Page) {
		p.MustElement(`[data-testid="invitation-note"]`).MustInput("For Grace")
		p.MustElement(`[data-testid="invitation-create"]`).MustClick()
		link = p.MustElement(`[data-testid="new-invitation-link"]`).MustProperty("value").String()
	})
	toast(t, p, "Invitation created: copy its link now")
	waitText(t, p, `[data-testid="invitation-list"]`, "For Grace")

	visitor, err := sharedBrowser(t).Incognito()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = visitor.Close() })
	v, vc := blankPageIn(t, visitor)
	step(t, v, "open the link and sign up", func(v *rod.Page) {
		v.MustNavigate(link).MustWaitLoad()
		v.MustElement(`[data-testid="signup-invited"]`)
		v.MustElement(`[data-testid="signup-invitation-hidden"]`)
		v.MustElement(`[data-testid="signup-name"]`).MustInput("Grace Hopper")
		v.MustElement(`[data-testid="signup-email"]`).MustInput("grace@plaza.test")
		v.MustElement(`[data-testid="signup-password"]`).MustInput("compilers all the way")
		wait := v.MustWaitNavigation()
		v.MustElement(`[data-testid="signup-submit"]`).MustClick()
		wait()
	})
	waitText(t, v, `[data-testid="signup-created"]`, "check your mail")
	accessible(t, v, "the sign-up page, account made")
	clean(t, vc)

	step(t, p, "see who used it", func(p *rod.Page) {
		p.MustNavigate(pz.base + api.PathConsoleInvitations).MustWaitLoad()
		waitText(t, p, `[data-testid="invitation-list"] [data-testid="invitation-state"]`, "Used up")
		clickToLoad(p, `[data-testid="invitation-used-by"]`)
	})
	use := waitText(t, p, `[data-testid="invitation-use"]`, "grace@plaza.test")
	grace, err := pz.Store.Users.UserByEmail(context.Background(), "grace@plaza.test")
	if err != nil {
		t.Fatal(err)
	}
	if row := use.MustText(); !strings.Contains(row, grace.Username) {
		t.Errorf("the use reads %q, without the account's name %s", row, grace.Username)
	}
	waitText(t, p, `[data-testid="invitation-uses"]`, "1 of 1")
	accessible(t, p, "the invitation's page")
	clean(t, c)
}
