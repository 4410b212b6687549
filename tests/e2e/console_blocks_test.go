package e2e

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// blocksFromAPI lists the blocks through the JSON API.
func blocksFromAPI(t *testing.T, pz *plaza) []api.V1Block {
	t.Helper()
	var list struct{ Data []api.V1Block }
	pz.api(t, pz.super, "GET", "/api/v1/admin/blocks", &list)
	return list.Data
}

// TestConsoleBlocks: an admin's bad value gets its error next to the
// field; a good one is added, listed and refuses its range through the
// API; deleting it after confirming lifts the block.
func TestConsoleBlocks(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/blocks")
	waitText(t, p, `[data-testid="nav-blocks"]`, "Blocks")
	accessible(t, p, "the blocks page")
	step(t, p, "a bad range", func(p *rod.Page) {
		p.MustElement(`[data-testid="block-value"]`).MustInput("203.0.113.0/33")
		p.MustElement(`[data-testid="block-add"]`).MustClick()
		p.MustElementR(`#block-value-error`, "not an IP address or CIDR range")
		p.MustWait(`() => document.querySelector('#block-value').getAttribute('aria-invalid') === 'true'`)
	})
	accessible(t, p, "the blocks form with an error")
	step(t, p, "a good range", func(p *rod.Page) {
		p.MustElement(`[data-testid="block-value"]`).MustSelectAllText().MustInput("203.0.113.9/24")
		p.MustElement(`[data-testid="block-reason"]`).MustInput("signup spam")
		p.MustElement(`[data-testid="block-add"]`).MustClick()
	})
	toast(t, p, "Blocked 203.0.113.0/24")
	list := blocksFromAPI(t, pz)
	if len(list) != 1 || list[0].Value != "203.0.113.0/24" || list[0].Reason != "signup spam" || list[0].Kind != "ip" {
		t.Fatalf("after the add the API lists %+v", list)
	}
	row := `[data-testid="block-row-` + list[0].ID + `"]`
	waitText(t, p, row, "signup spam")
	refused := func() int {
		req, _ := http.NewRequest("POST", api.PathSignIn, nil)
		req.RemoteAddr = "203.0.113.5:4000"
		rec := httptest.NewRecorder()
		pz.App.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := refused(); code != http.StatusForbidden {
		t.Errorf("sign-in from the blocked range: %d, want 403", code)
	}
	step(t, p, "delete after confirming", func(p *rod.Page) {
		p.MustElement(row + ` [data-testid="block-delete-open"]`).MustClick()
		accessible(t, p, "the delete dialog")
		p.MustElement(`#block-delete-` + list[0].ID + ` [data-testid="block-delete-confirm"]`).MustClick()
	})
	toast(t, p, "Unblocked 203.0.113.0/24")
	step(t, p, "the row is gone", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('` + row + `')`)
	})
	if list := blocksFromAPI(t, pz); len(list) != 0 {
		t.Errorf("the API still lists %+v after the delete", list)
	}
	if code := refused(); code == http.StatusForbidden {
		t.Errorf("sign-in from the range after the delete: still 403")
	}
	clean(t, c, "status of 422")
}

// TestConsoleBlocksHiddenFromModerators: a moderator has no link to the
// page, which would answer 403.
func TestConsoleBlocksHiddenFromModerators(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.modUser, "/admin/moderation")
	waitText(t, p, `[data-testid="nav-moderation"]`, "Moderation queue")
	step(t, p, "no blocks link", func(p *rod.Page) {
		if p.MustHas(`[data-testid="nav-blocks"]`) || p.MustHas(`a[href="/admin/blocks"]`) {
			panic("a moderator sees a link to the blocks page")
		}
	})
	clean(t, c)
}
