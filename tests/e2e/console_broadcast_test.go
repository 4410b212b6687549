package e2e

import (
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// TestConsoleBroadcast: an admin writes a broadcast to the moderators,
// watching the preview follow the text, sends it, and sees it sent with
// its recipients in the history; a moderator sees the unread count on the bell,
// finds it in the inbox and marks it read, which the API shows, then
// dismisses it, and it leaves the inbox.
func TestConsoleBroadcast(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/broadcasts")
	accessible(t, p, "the broadcasts page")
	step(t, p, "compose and send", func(p *rod.Page) {
		p.MustElement(`[data-testid="bc-title"]`).MustInput("Maintenance tonight")
		p.MustElementR(`[data-testid="bc-preview"]`, "Maintenance tonight")
		p.MustElement(`[data-testid="bc-message"]`).MustInput("The forum is read-only from 22:00 to 23:00 UTC.")
		p.MustElement(`[data-testid="bc-type"]`).MustSelect("Warning")
		p.MustElement(`[data-testid="bc-moderators"]`).MustClick()
		p.MustElement(`[data-testid="bc-send"]`).MustClick()
	})
	toast(t, p, "Broadcast sent to")
	step(t, p, "sent, with its recipients", func(p *rod.Page) {
		p.MustWait(`() => { const r = document.querySelector('[data-testid^="broadcast-"][data-row]'); return !!r && r.textContent.includes('Maintenance tonight') }`)
		p.MustWait(`() => { const cells = document.querySelector('[data-testid^="broadcast-"][data-row]').querySelectorAll('td'); return cells[2].textContent.toLowerCase().includes('sent') && cells[3].textContent.trim() !== '0' }`)
	})
	m, cm := pz.as(t, pz.modUser, "/admin/inbox")
	waitText(t, m, `[data-testid="inbox-unread"]`, "1")
	var id string
	step(t, m, "read it", func(p *rod.Page) {
		row := p.MustElementR(`[data-testid^="notification-"]`, "Maintenance tonight")
		id = (*row.MustAttribute("data-testid"))[len("notification-"):]
		p.MustElement(`[data-testid="read-` + id + `"]`).MustClick()
		p.MustWait(`() => !document.querySelector('[data-testid="read-` + id + `"]')`)
		p.MustWait(`() => !document.querySelector('[data-testid="inbox-unread"]')`)
	})
	accessible(t, m, "the inbox")
	var inbox api.Inbox
	pz.api(t, pz.modUser, "GET", api.PathNotifications, &inbox)
	if inbox.Unread != 0 || len(inbox.Notifications) == 0 || inbox.Notifications[0].ReadAt == nil {
		t.Errorf("the moderator's inbox through the API: %+v", inbox)
	}
	step(t, m, "dismiss it", func(p *rod.Page) {
		p.MustElement(`[data-testid="dismiss-` + id + `"]`).MustClick()
		p.MustWait(`() => !document.querySelector('[data-testid="notification-` + id + `"]')`)
	})
	toast(t, m, "Dismissed")
	pz.api(t, pz.modUser, "GET", api.PathNotifications, &inbox)
	for _, n := range inbox.Notifications {
		if n.ID == id {
			t.Errorf("the dismissed broadcast is still in the moderator's inbox: %+v", inbox)
		}
	}
	clean(t, c)
	clean(t, cm)
}
