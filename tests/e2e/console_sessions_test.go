package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// TestConsoleSessions: signed in as the same person in two browsers, one
// revokes the other from "Your sessions", and the other's next page is the
// sign-in page; then an admin signs a user out everywhere from the user's
// page. The JSON API shows both effects.
func TestConsoleSessions(t *testing.T) {
	pz := startPlaza(t)
	desk, c := pz.as(t, pz.admin, api.PathConsoleAccountSessions)
	laptop, _ := pz.as(t, pz.admin, api.PathConsole)
	laptopID := sessionOf(t, laptop)
	step(t, desk, "open Your sessions from the account menu", func(p *rod.Page) {
		p.MustNavigate(pz.base + api.PathConsole).MustWaitLoad()
		p.MustElement(`[data-testid="viewer-menu"] summary`).MustClick()
		p.MustElement(`[data-testid="account-sessions"]`).MustClick()
		p.MustWaitLoad()
	})
	row := `[data-testid="session-row-` + laptopID + `"]`
	waitText(t, desk, `[data-testid="session-row-`+sessionOf(t, desk)+`"]`, "This device")
	waitText(t, desk, row, "Chrome")
	accessible(t, desk, "Your sessions")
	step(t, desk, "revoke the laptop's session after confirming", func(p *rod.Page) {
		p.MustElement(row + ` [data-testid="session-revoke-open"]`).MustClick()
		p.MustElement(`#session-revoke-` + laptopID + ` [data-testid="session-revoke-confirm"]`).MustClick()
	})
	toast(t, desk, "Session revoked")
	step(t, desk, "the row is gone", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="session-row-` + laptopID + `"]')`)
	})
	step(t, laptop, "the laptop's next page is the sign-in page", func(p *rod.Page) {
		p.MustNavigate(pz.base + api.PathConsoleUsers).MustWaitLoad()
		p.MustWait(`() => location.pathname === '` + api.PathSignIn + `'`)
	})
	var mine struct{ Data []api.UserSession }
	pz.api(t, pz.super, "GET", api.AdminV1UserSessionsPath(strconv.FormatInt(pz.admin.ID, 10)), &mine)
	for _, s := range mine.Data {
		if s.ID == laptopID {
			t.Errorf("the API still lists the revoked session: %+v", s)
		}
	}
	clean(t, c)

	target := pz.App.User(t, "target@plaza.test")
	pz.SessionFor(t, target.ID)
	pz.SessionFor(t, target.ID)
	p, c2 := pz.as(t, pz.super, api.ConsoleUserPath(target.ID))
	card := `[data-testid="user-sessions"]`
	step(t, p, "the user's page lists two sessions", func(p *rod.Page) {
		p.MustWait(`() => document.querySelectorAll('` + card + ` tr[data-testid^="session-row-"]').length === 2`)
	})
	accessible(t, p, "the user page's sessions card")
	step(t, p, "sign the user out everywhere after confirming", func(p *rod.Page) {
		p.MustElement(card + ` [data-testid="sessions-revoke-all-open"]`).MustClick()
		p.MustElement(`#sessions-revoke-all [data-testid="sessions-revoke-all-confirm"]`).MustClick()
	})
	toast(t, p, "2 sessions revoked")
	waitText(t, p, card, "No signed-in sessions")
	var theirs struct{ Data []api.UserSession }
	pz.api(t, pz.super, "GET", api.AdminV1UserSessionsPath(strconv.FormatInt(target.ID, 10)), &theirs)
	if len(theirs.Data) != 0 {
		t.Errorf("the API lists %d sessions after signing out everywhere", len(theirs.Data))
	}
	clean(t, c2)
}

// sessionOf is the public id of the session the tab's browser holds.
func sessionOf(t *testing.T, p *rod.Page) string {
	t.Helper()
	for _, c := range p.MustCookies() {
		if strings.HasPrefix(c.Name, "plaza_session") {
			return models.SessionID(c.Value)
		}
	}
	t.Fatal("the tab holds no session cookie")
	return ""
}
