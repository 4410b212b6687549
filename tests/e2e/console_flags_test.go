package e2e

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// flagsFromAPI is every feature flag, by name, as the JSON API lists them.
func flagsFromAPI(t *testing.T, pz *plaza) map[string]api.V1FeatureFlag {
	t.Helper()
	var out struct{ Data []api.V1FeatureFlag }
	pz.api(t, pz.super, "GET", "/api/v1/admin/feature-flags", &out)
	m := map[string]api.V1FeatureFlag{}
	for _, f := range out.Data {
		m[f.Name] = f
	}
	return m
}

// putFlag makes a flag through the API, as the test's starting point.
func putFlag(t *testing.T, pz *plaza, name, body string) {
	t.Helper()
	res := apptest.DoBody(t, pz.App, "PUT", "/api/v1/admin/feature-flags/"+name, pz.SessionFor(t, pz.super.ID), body)
	if res.Code != http.StatusCreated {
		t.Fatalf("PUT flag %s: %d %s", name, res.Code, res.Body)
	}
}

// TestConsoleFlagToggleAndRollout: a super admin opens a flag's edit
// dialog, which takes the flag's edit lock, switches it on and moves its
// rollout; the table and the API show the change.
func TestConsoleFlagToggleAndRollout(t *testing.T) {
	pz := startPlaza(t)
	putFlag(t, pz, "e2e_editor", `{"description":"The new post editor"}`)
	p, c := pz.as(t, pz.super, "/admin/feature-flags")
	waitText(t, p, `[data-testid="flag-row-e2e_editor"]`, "The new post editor")
	accessible(t, p, "the feature flags page")
	row := `[data-testid="flag-row-e2e_editor"]`
	dialog := `#edit-flag-e2e_editor`
	step(t, p, "open the edit dialog under the lock", func(p *rod.Page) {
		p.MustElement(row + ` [data-testid="flag-edit-open"]`).MustClick()
		p.MustWait(`() => !document.querySelector('#edit-flag-e2e_editor fieldset').disabled`)
	})
	accessible(t, p, "the flag's edit dialog")
	step(t, p, "switch on and roll out to 40%", func(p *rod.Page) {
		p.MustElement(dialog + ` [data-testid="flag-edit-enabled"]`).MustClick()
		// Set the slider as a drag does: the value, then input and change.
		p.MustElement(dialog + ` [data-testid="flag-edit-rollout"]`).MustEval(`function () {
			this.value = '40';
			this.dispatchEvent(new Event('input', {bubbles: true}));
			this.dispatchEvent(new Event('change', {bubbles: true}));
		}`)
		p.MustElementR(dialog+` [data-testid="flag-edit-rollout-value"]`, "^40%$")
		p.MustElement(dialog + ` [data-testid="flag-edit-save"]`).MustClick()
	})
	toast(t, p, "Saved e2e_editor")
	waitText(t, p, row+` [data-testid="flag-enabled"]`, "Enabled")
	waitText(t, p, row+` [data-testid="flag-rollout"]`, "40%")
	got := flagsFromAPI(t, pz)["e2e_editor"]
	if !got.Enabled || got.RolloutPercentage != 40 || got.Description != "The new post editor" {
		t.Errorf("after the save the API says %+v", got)
	}
	apptest.WaitFor(t, "the saved dialog to release the flag's lock", func() bool {
		return pz.Store.Desk.CheckLock(context.Background(), "feature_flag", "e2e_editor", pz.admin.ID) == nil
	})
	clean(t, c)
}

// TestConsoleFlagCreateAndDelete: a super admin creates a flag (a bad name
// first, which the form says is wrong under the name field), then deletes
// it after confirming.
func TestConsoleFlagCreateAndDelete(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.super, "/admin/feature-flags")
	step(t, p, "a bad name", func(p *rod.Page) {
		p.MustElement(`[data-testid="flag-new-open"]`).MustClick()
		p.MustElement(`[data-testid="flag-new-name"]`).MustInput("Bad_Name")
		p.MustElement(`[data-testid="flag-new-submit"]`).MustClick()
		p.MustElementR(`#flag-name-error`, "lowercase letters")
		p.MustWait(`() => document.querySelector('#flag-name').getAttribute('aria-invalid') === 'true'`)
	})
	accessible(t, p, "the new flag dialog with an error")
	step(t, p, "a good name", func(p *rod.Page) {
		p.MustElement(`[data-testid="flag-new-name"]`).MustSelectAllText().MustInput("e2e_dark")
		p.MustElement(`[data-testid="flag-new-description"]`).MustInput("Dark theme for everyone")
		p.MustElement(`[data-testid="flag-new-submit"]`).MustClick()
	})
	toast(t, p, "Created e2e_dark")
	waitText(t, p, `[data-testid="flag-row-e2e_dark"]`, "Dark theme for everyone")
	got, ok := flagsFromAPI(t, pz)["e2e_dark"]
	if !ok || got.Enabled || got.RolloutPercentage != 0 || got.Description != "Dark theme for everyone" {
		t.Fatalf("after the create the API says %+v (found %v)", got, ok)
	}
	step(t, p, "delete after confirming", func(p *rod.Page) {
		p.MustElement(`[data-testid="flag-row-e2e_dark"] [data-testid="flag-delete-open"]`).MustClick()
		p.MustElement(`#delete-flag-e2e_dark [data-testid="flag-delete-confirm"]`).MustClick()
	})
	toast(t, p, "Deleted e2e_dark")
	step(t, p, "the row is gone", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="flag-row-e2e_dark"]')`)
	})
	if _, ok := flagsFromAPI(t, pz)["e2e_dark"]; ok {
		t.Error("the API still lists e2e_dark after the delete")
	}
	clean(t, c, "status of 422")
}

// TestConsoleFlagsReadOnly: an admin who is not a super admin sees the
// flags but no control that changes them (their PUT and DELETE answer 403).
func TestConsoleFlagsReadOnly(t *testing.T) {
	pz := startPlaza(t)
	putFlag(t, pz, "search_v2", `{"enabled":true,"rolloutPercentage":25}`)
	p, c := pz.as(t, pz.admin, "/admin/feature-flags")
	waitText(t, p, `[data-testid="flag-row-search_v2"] [data-testid="flag-rollout"]`, "25%")
	waitText(t, p, `[data-testid="nav-flags"]`, "Feature flags")
	step(t, p, "no controls", func(p *rod.Page) {
		for _, sel := range []string{`[data-testid="flag-new-open"]`, `[data-testid="flag-edit-open"]`, `[data-testid="flag-delete-open"]`,
			`dialog[data-lock]`, `#new-flag`, `[data-testid="nav-tokens"]`} {
			if p.MustHas(sel) {
				panic("an admin sees " + sel)
			}
		}
	})
	accessible(t, p, "the read-only feature flags page")
	clean(t, c)
}

// TestConsoleFlagToggleFromRow: a super admin switches a flag on from its
// row with a click and off again with the keyboard, through the flag's PUT:
// the row and the API follow, each change is audited, and the focus stays
// on the switch. While another admin edits the flag, the switch is
// refused with a toast naming who holds it, and the flag
// is unchanged.
func TestConsoleFlagToggleFromRow(t *testing.T) {
	pz := startPlaza(t)
	putFlag(t, pz, "e2e_row", `{"description":"Switched from its row"}`)
	p, c := pz.as(t, pz.super, "/admin/feature-flags")
	row := `[data-testid="flag-row-e2e_row"]`
	toggle := row + ` [data-testid="flag-toggle"]`
	waitText(t, p, row, "Switched from its row")
	step(t, p, "switch on with a click", func(p *rod.Page) {
		p.MustElement(toggle).MustClick()
	})
	toast(t, p, "Turned on e2e_row")
	waitText(t, p, row+` [data-testid="flag-enabled"]`, "Enabled")
	step(t, p, "the switch says on and keeps the focus", func(p *rod.Page) {
		p.MustWait(`() => document.querySelector('` + toggle + `').getAttribute('aria-checked') === 'true' &&
			document.activeElement === document.querySelector('` + toggle + `')`)
	})
	if !flagsFromAPI(t, pz)["e2e_row"].Enabled {
		t.Fatal("the API says e2e_row is off after the switch")
	}
	accessible(t, p, "the flags page with a switch on")
	step(t, p, "switch off with the space bar", func(p *rod.Page) {
		p.Keyboard.MustType(' ')
		p.MustWait(`() => document.querySelector('` + toggle + `').getAttribute('aria-checked') === 'false'`)
	})
	waitText(t, p, row+` [data-testid="flag-enabled"]`, "Disabled")
	if flagsFromAPI(t, pz)["e2e_row"].Enabled {
		t.Fatal("the API says e2e_row is on after switching it off")
	}
	pz.FlushAudit(t)
	changes := 0
	for _, e := range pz.AuditEntries(t) {
		if e.TargetID == "e2e_row" && e.Action == "feature_flag.update" {
			changes++
		}
	}
	if changes != 3 { // the create, then on and off
		t.Errorf("%d audited changes of e2e_row, want 3", changes)
	}
	if _, err := pz.Store.Desk.AcquireLock(context.Background(), "feature_flag", "e2e_row", pz.admin.ID); err != nil {
		t.Fatal(err)
	}
	step(t, p, "switch while another admin edits", func(p *rod.Page) {
		p.MustElement(toggle).MustClick()
	})
	toast(t, p, "Being edited by "+pz.admin.Username)
	if flagsFromAPI(t, pz)["e2e_row"].Enabled {
		t.Error("the switch changed a flag another admin holds")
	}
	clean(t, c, "status of 423")
}
