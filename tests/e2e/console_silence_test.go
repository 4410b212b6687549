package e2e

import (
	"fmt"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// TestConsoleSilence: an admin silences a member for 24 hours from the
// user page, sees "Silenced until" there and in the API, then lifts it.
func TestConsoleSilence(t *testing.T) {
	pz := startPlaza(t)
	target := pz.User(t, "loud@plaza.test")
	p, c := pz.as(t, pz.admin, fmt.Sprintf("/admin/users/%d", target.ID))
	step(t, p, "silence", func(p *rod.Page) {
		p.MustElementR(`[data-testid="silence-open"]`, "Silence").MustClick()
		p.MustElement(`[data-testid="silence-reason"]`).MustInput("Heated thread")
		p.MustElement(`[data-testid="silence-duration"]`).MustSelect("24 hours")
		accessible(t, p, "the silence dialog")
		p.MustElement(`[data-testid="silence-submit"]`).MustClick()
	})
	toast(t, p, target.Username+" is silenced")
	waitText(t, p, `[data-testid="user-silenced"]`, "Silenced until tomorrow")
	var got struct{ Data api.V1UserDetail }
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(target.ID), &got)
	if got.Data.SilencedUntil == nil || got.Data.SilenceReason == nil || *got.Data.SilenceReason != "Heated thread" {
		t.Fatalf("after the silence the API says %+v", got.Data)
	}
	step(t, p, "lift", func(p *rod.Page) {
		p.MustElementR(`[data-testid="silence-open"]`, "Lift silence").MustClick()
		p.MustElement(`[data-testid="silence-submit"]`).MustClick()
	})
	toast(t, p, target.Username+" is no longer silenced")
	waitText(t, p, `[data-testid="silence-open"]`, "Silence")
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(target.ID), &got)
	if got.Data.SilencedUntil != nil {
		t.Errorf("after lifting it the API says silenced until %s", *got.Data.SilencedUntil)
	}
	clean(t, c)
}
