package e2e

import (
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// TestConsoleMailAlerts: a moderator opens "Mail alerts" from the account
// menu and chooses a daily digest (htmx: a toast, the form kept), with no
// operations alerts offered; the same form posted as a plain form (as
// without JavaScript) lands on the page, which says it is saved. An admin ticks operations
// alerts. The API reads back what each chose.
func TestConsoleMailAlerts(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.modUser, api.PathConsole)
	step(t, p, "open Mail alerts from the account menu", func(p *rod.Page) {
		p.MustElement(`[data-testid="viewer-menu"] summary`).MustClick()
		p.MustElement(`[data-testid="menu-alerts"]`).MustClick()
		p.MustWaitLoad()
		p.MustElement(`[data-testid="alerts-form"]`)
	})
	accessible(t, p, "the Mail alerts page")
	if has, _, _ := p.Has(`[data-testid="alerts-operations"]`); has {
		t.Error("a moderator is offered operations alerts")
	}
	step(t, p, "choose a daily digest", func(p *rod.Page) {
		p.MustElement(`[data-testid="alerts-reports"]`).MustSelect("Daily: one mail of the day's new reports")
		p.MustElement(`[data-testid="alerts-save"]`).MustClick()
	})
	toast(t, p, "Mail alerts saved")
	var mine struct{ Data api.AlertPreferences }
	pz.api(t, pz.modUser, "GET", api.PathConsoleAccountAlerts, &mine)
	if mine.Data != (api.AlertPreferences{Reports: "daily"}) {
		t.Errorf("after saving with htmx: %+v", mine.Data)
	}

	step(t, p, "the same form as a plain post, as without JavaScript", func(p *rod.Page) {
		p.MustElement(`[data-testid="alerts-reports"]`).MustSelect("At once: a mail for each new report")
		wait := p.MustWaitNavigation()
		// The form's own submit() sends no submit event, so htmx leaves
		// it to the browser: the post a browser without JavaScript makes.
		p.MustEval(`() => HTMLFormElement.prototype.submit.call(document.querySelector('[data-testid="alerts-form"]'))`)
		wait()
		p.MustElement(`[data-testid="alerts-saved"]`)
	})
	pz.api(t, pz.modUser, "GET", api.PathConsoleAccountAlerts, &mine)
	if mine.Data != (api.AlertPreferences{Reports: "now"}) {
		t.Errorf("after a plain form: %+v", mine.Data)
	}
	clean(t, c)

	a, c2 := pz.as(t, pz.admin, api.PathConsoleAccountAlerts)
	step(t, a, "an admin asks for operations alerts", func(p *rod.Page) {
		p.MustElement(`[data-testid="alerts-operations"]`).MustClick()
		p.MustElement(`[data-testid="alerts-save"]`).MustClick()
	})
	toast(t, a, "Mail alerts saved")
	var theirs struct{ Data api.AlertPreferences }
	pz.api(t, pz.admin, "GET", api.PathAdminV1AccountAlerts, &theirs)
	if theirs.Data != (api.AlertPreferences{Reports: "never", Operations: true}) {
		t.Errorf("the admin's alerts: %+v", theirs.Data)
	}
	clean(t, c2)
}
