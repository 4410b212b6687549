package e2e

import (
	"strings"
	"testing"

	"github.com/go-rod/rod"
)

// storedPages is everything the tab keeps in sessionStorage and
// localStorage, key and value, one entry a line.
func storedPages(t *testing.T, p *rod.Page) string {
	t.Helper()
	var out string
	step(t, p, "read the tab's storage", func(p *rod.Page) {
		out = p.MustEval(`() => {
			const out = [];
			for (const s of [sessionStorage, localStorage]) {
				for (let i = 0; i < s.length; i++) out.push(s.key(i) + '=' + s.getItem(s.key(i)));
			}
			return out.join('\n');
		}`).Str()
	})
	return out
}

// TestSignOutLeavesNoPages: an admin searches the users list (each search
// pushes a URL), goes back, and signs out from the viewer menu; neither
// while browsing nor after signing out does the tab's storage hold any of
// the pages' content (the users' emails). Before, htmx's history cache
// kept whole console pages in sessionStorage, and they stayed there after
// sign-out.
func TestSignOutLeavesNoPages(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/users")
	step(t, p, "search", func(p *rod.Page) {
		p.MustElement(`[data-testid="user-search"]`).MustInput("mo@plaza")
		p.MustWait(`() => location.search.includes('search=mo%40plaza')`)
		p.MustWait(`() => document.querySelectorAll('[data-testid^="user-row-"]').length === 1`)
	})
	step(t, p, "back to the whole list", func(p *rod.Page) {
		p.MustNavigateBack()
		waitAcrossLoad(p, `() => !location.search.includes('search=') && document.readyState === 'complete' && document.querySelector('[data-testid="user-list"]') !== null`)
	})
	waitText(t, p, `[data-testid="user-list"]`, "ana@plaza.test")
	if kept := storedPages(t, p); strings.Contains(kept, "@plaza.test") {
		t.Errorf("while browsing, the tab keeps console pages: %.300s", kept)
	}
	step(t, p, "sign out", func(p *rod.Page) {
		p.MustElement(`[data-testid="viewer-menu"] summary`).MustClick()
		wait := p.MustWaitNavigation()
		p.MustElement(`[data-testid="sign-out"]`).MustClick()
		wait()
		p.MustElement(`[data-testid="signin-form"]`)
	})
	if kept := storedPages(t, p); strings.Contains(kept, "@plaza.test") || strings.Contains(kept, "htmx-history-cache") {
		t.Errorf("after sign-out, the tab keeps console pages: %.300s", kept)
	}
	clean(t, c)
}
