package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
)

// TestConsoleFindUser: an admin searches and filters the users list
// without a reload, the URL keeps the state, back returns to the earlier
// list, and a row opens the user's page; axe passes both pages.
func TestConsoleFindUser(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/users")
	accessible(t, p, "the users list")
	step(t, p, "search", func(p *rod.Page) {
		p.MustElement(`[data-testid="user-search"]`).MustInput("mo@plaza")
		p.MustWait(`() => location.search.includes('search=mo%40plaza')`)
		p.MustWait(`() => document.querySelectorAll('[data-testid^="user-row-"]').length === 1`)
	})
	waitText(t, p, `[data-testid="user-list"]`, "mo@plaza.test")
	step(t, p, "filter by role", func(p *rod.Page) {
		p.MustElement(`[data-testid="user-search"]`).MustSelectAllText().MustInput("")
		p.MustWait(`() => !location.search.includes('search=')`)
		p.MustElement(`[data-testid="user-role"]`).MustSelect("Moderators")
		p.MustWait(`() => location.search.includes('role=moderator')`)
		p.MustWait(`() => !document.querySelector('[data-testid="user-list"]').textContent.includes('ana@plaza.test')`)
	})
	step(t, p, "back", func(p *rod.Page) {
		p.MustNavigateBack()
		waitAcrossLoad(p, `() => !location.search.includes('role=moderator') && document.readyState === 'complete'`)
	})
	step(t, p, "open a user", func(p *rod.Page) {
		p.MustNavigate(pz.base + "/admin/users?search=mo%40plaza").MustWaitLoad()
		p.MustElement(fmt.Sprintf(`[data-testid="user-row-%d"] [data-row-link]`, pz.modUser.ID)).MustClick()
		p.MustWaitNavigation()
		p.MustElementR(`[data-testid="user-username"]`, pz.modUser.Username)
	})
	accessible(t, p, "a user's page")
	clean(t, c)
}

// TestConsoleEditUnderLock: an admin opens a user's edit form, which takes
// the edit lock; a second admin's browser sees who holds it and cannot
// save; the first saves, which the API shows, and closing the form lets
// the second in.
func TestConsoleEditUnderLock(t *testing.T) {
	pz := startPlaza(t)
	target := pz.User(t, "lee@plaza.test")
	path := fmt.Sprintf("/admin/users/%d", target.ID)
	a, ca := pz.as(t, pz.admin, path)
	step(t, a, "open the edit form", func(p *rod.Page) {
		p.MustElement(`[data-testid="edit-open"]`).MustClick()
		p.MustWait(`() => !document.querySelector('#edit-user fieldset').disabled`)
	})
	b, cb := pz.as(t, pz.super, path)
	waitText(t, b, `[data-testid="lock-banner"]`, "Being edited by "+pz.admin.Username)
	step(t, b, "the second admin's form stays shut", func(p *rod.Page) {
		p.MustElement(`[data-testid="edit-open"]`).MustClick()
		p.MustElementR(`[data-testid="lock-status"]`, "Being edited by "+regexpQuote(pz.admin.Username))
		p.MustWait(`() => document.querySelector('#edit-user fieldset').disabled`)
		p.MustElement(`#edit-user [data-dialog-close]`).MustClick()
	})
	step(t, a, "save", func(p *rod.Page) {
		p.MustElement(`[data-testid="edit-role"]`).MustSelect("Moderator")
		p.MustElement(`[data-testid="edit-notes"]`).MustInput("Helps in the garden forum")
		p.MustElement(`[data-testid="edit-save"]`).MustClick()
	})
	toast(t, a, "Saved "+target.Username)
	waitText(t, a, `[data-testid="user-role"]`, "Moderator")
	var got struct{ Data api.V1UserDetail }
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(target.ID), &got)
	if got.Data.Role != "moderator" || got.Data.Notes == nil || *got.Data.Notes != "Helps in the garden forum" {
		t.Errorf("after the save the API says role %q notes %v", got.Data.Role, got.Data.Notes)
	}
	apptest.WaitFor(t, "the saved form to release the lock", func() bool {
		return pz.Store.Desk.CheckLock(context.Background(), "user", strconv.FormatInt(target.ID, 10), pz.super.ID) == nil
	})
	step(t, b, "the lock is gone once the form closed", func(p *rod.Page) {
		p.MustReload().MustWaitLoad()
		if p.MustHas(`[data-testid="lock-banner"]`) {
			panic("the lock banner is still there")
		}
	})
	clean(t, ca)
	clean(t, cb, "status of 423")
}

// TestConsoleBanUnban: an admin bans a user for a week with a reason
// preset, sees the ban on the page and in the API, then unbans.
func TestConsoleBanUnban(t *testing.T) {
	pz := startPlaza(t)
	target := pz.User(t, "troll@plaza.test")
	p, c := pz.as(t, pz.admin, fmt.Sprintf("/admin/users/%d", target.ID))
	step(t, p, "ban", func(p *rod.Page) {
		p.MustElement(`[data-testid="ban-open"]`).MustClick()
		p.MustElement(`[data-testid="ban-reason"]`).MustInput("Spam")
		p.MustElement(`[data-testid="ban-duration"]`).MustSelect("7 days")
		accessible(t, p, "the ban dialog")
		p.MustElement(`[data-testid="ban-submit"]`).MustClick()
	})
	toast(t, p, target.Username+" is banned")
	waitText(t, p, `[data-testid="user-status"]`, "Banned")
	var got struct{ Data api.V1UserDetail }
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(target.ID), &got)
	if got.Data.Status != models.UserBanned || len(got.Data.Bans) != 1 || got.Data.Bans[0].Reason != "Spam" || got.Data.Bans[0].ExpiresAt == nil {
		t.Fatalf("after the ban the API says %+v", got.Data)
	}
	step(t, p, "unban", func(p *rod.Page) {
		p.MustElementR(`[data-testid="ban-open"]`, "Unban").MustClick()
		p.MustElement(`[data-testid="ban-submit"]`).MustClick()
	})
	toast(t, p, target.Username+" is no longer banned")
	waitText(t, p, `[data-testid="user-status"]`, "Active")
	pz.api(t, pz.admin, "GET", api.AdminV1UserPath(target.ID), &got)
	if got.Data.Status != models.UserActive {
		t.Errorf("after the unban the API says %s", got.Data.Status)
	}
	clean(t, c)
}

// TestConsoleBulkChange: a super admin selects users, confirms the change
// in a dialog, and every one of them changes.
func TestConsoleBulkChange(t *testing.T) {
	pz := startPlaza(t)
	var ids []int64
	for i := range 3 {
		ids = append(ids, pz.User(t, fmt.Sprintf("bulk%d@plaza.test", i)).ID)
	}
	p, c := pz.as(t, pz.super, "/admin/users?search=bulk")
	step(t, p, "select and change", func(p *rod.Page) {
		p.MustElement(`[data-testid="select-all"]`).MustClick()
		p.MustElementR(`[data-testid="bulk-bar"]`, "3 selected")
		p.MustElement(`[data-testid="bulk-open"]`).MustClick()
		p.MustElement(`[data-testid="bulk-verified"]`).MustSelect("Verified")
		apply := p.MustElement(`[data-testid="bulk-apply"]`)
		if got := strings.Join(strings.Fields(apply.MustText()), " "); got != "Apply to 3 users" {
			panic("the confirm button says " + got)
		}
		apply.MustClick()
	})
	toast(t, p, "Changed 3 users")
	for _, id := range ids {
		var got struct{ Data api.V1UserDetail }
		pz.api(t, pz.super, "GET", api.AdminV1UserPath(id), &got)
		if !got.Data.IsVerified {
			t.Errorf("user %d is not verified after the bulk change", id)
		}
	}
	step(t, p, "the list refreshes and the selection ends", func(p *rod.Page) {
		p.MustWait(`() => document.querySelector('[data-testid="bulk-bar"]').hidden`)
	})
	clean(t, c)
}
