package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleFitsEveryUser opens every page of a super admin's sidebar and
// account menu, the page of every demo member with posts or a ban (each
// given a staff note and a warning first, so their notes and strikes show
// too) and the page of every reported post, at a phone's width (390 px)
// and a laptop's (1280 px), light and dark: the page itself never scrolls
// sideways (document.scrollingElement.scrollWidth <= clientWidth).
func TestConsoleFitsEveryUser(t *testing.T) {
	pz := startPlaza(t)
	users := usersWithContent(t, pz)
	if len(users) < 5 {
		t.Fatalf("the demo has %d members with posts or bans", len(users))
	}
	h := pz.SessionFor(t, pz.admin.ID)
	note := `{"body":"Asked twice about the watering rota; see the thread https://plaza.test/threads/a-rather-long-address-without-any-spaces-in-it-at-all","kind":"warning"}`
	pages := []string{}
	for _, id := range users {
		path := fmt.Sprintf("%s/%d/notes", api.PathAdminV1Users, id)
		if res := apptest.DoBody(t, pz.App, http.MethodPost, path, h, note); res.Code != http.StatusCreated {
			t.Fatalf("note on %d: %d %s", id, res.Code, res.Body)
		}
		pages = append(pages, fmt.Sprintf("%s/%d", api.PathConsoleUsers, id))
	}
	var posts []int64
	err := pz.Store.DB.NewRaw(`SELECT id FROM posts WHERE report_count > 0 ORDER BY id`).Scan(context.Background(), &posts)
	if err != nil || len(posts) == 0 {
		t.Fatalf("reported posts: %v %v", posts, err)
	}
	for _, id := range posts {
		pages = append(pages, fmt.Sprintf("/admin/posts/%d", id))
	}
	p, c := pz.as(t, pz.super, "/admin")
	pages = append(consoleLinks(t, p, "admin"), pages...)
	for _, path := range pages {
		step(t, p, "open "+path, func(p *rod.Page) { p.MustNavigate(pz.base + path).MustWaitLoad().MustWaitIdle() })
		for _, v := range []viewport{phone, laptop} {
			resize(t, p, v)
			for _, scheme := range []string{"light", "dark"} {
				noSideways(t, p, path, v, scheme)
			}
		}
	}
	clean(t, c)
}

// usersWithContent are the demo members who wrote posts or were banned,
// in id order: their pages have the longest content.
func usersWithContent(t *testing.T, pz *plaza) []int64 {
	t.Helper()
	var ids []int64
	err := pz.Store.DB.NewRaw(`SELECT id FROM users WHERE id IN (SELECT author_id FROM posts) OR id IN (SELECT user_id FROM bans) ORDER BY id`).
		Scan(context.Background(), &ids)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// noSideways fails the test when the page at v in scheme scrolls
// sideways, naming what sticks out.
func noSideways(t *testing.T, p *rod.Page, what string, v viewport, scheme string) {
	t.Helper()
	var scroll, client int
	var culprits []string
	step(t, p, fmt.Sprintf("measure %s at %s, %s", what, v, scheme), func(p *rod.Page) {
		err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}.Call(p)
		if err != nil {
			panic(err)
		}
		r := p.MustEval(`() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]`).Arr()
		scroll, client = r[0].Int(), r[1].Int()
		if scroll > client {
			for _, s := range p.MustEval(overflowScript, false).Arr() {
				culprits = append(culprits, s.Str())
			}
		}
	})
	if scroll > client {
		t.Errorf("%s at %s (%s) scrolls sideways: %d px in %d: %s", what, v, scheme, scroll, client, strings.Join(culprits, "; "))
	}
}

// TestConsoleNavOnPhone: at 390 px every entry of a super admin's sidebar
// can be seen and clicked once the menu is open, none cut off by the
// strip, and the menu says whether it is open; Escape closes it.
func TestConsoleNavOnPhone(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.super, "/admin/users")
	resize(t, p, phone)
	links := consoleLinks(t, p, "admin")
	step(t, p, "open the menu", func(p *rod.Page) {
		if btn, err := p.Element(`[data-testid="nav-toggle"]`); err == nil && btn.MustVisible() {
			btn.MustClick()
			p.MustWait(`() => document.querySelector('[data-testid="nav-toggle"]').getAttribute('aria-expanded') === 'true'`)
		}
	})
	for _, href := range links {
		var box struct{ left, right, top, bottom, w, h float64 }
		var hit bool
		step(t, p, "look for "+href, func(p *rod.Page) {
			el := p.MustElement(fmt.Sprintf(`[data-testid="console-nav"] a[href=%q], [data-testid="viewer-menu"] a[href=%q]`, href, href))
			if strings.Contains(*el.MustAttribute("class"), "menu-item") {
				hit = true // in the account menu, which has a test of its own
				return
			}
			// Only the page scrolls, up and down: a link that shows only
			// once a strip is scrolled sideways is one nobody finds.
			r := el.MustEval(`function() {
				const first = this.getBoundingClientRect();
				window.scrollTo(0, first.top + window.scrollY - window.innerHeight / 2);
				const b = this.getBoundingClientRect();
				const x = b.left + b.width / 2, y = b.top + b.height / 2;
				const top = document.elementFromPoint(x, y);
				return [b.left, b.right, b.top, b.bottom, window.innerWidth, window.innerHeight, top !== null && this.contains(top)];
			}`).Arr()
			box.left, box.right, box.top, box.bottom, box.w, box.h = r[0].Num(), r[1].Num(), r[2].Num(), r[3].Num(), r[4].Num(), r[5].Num()
			hit = r[6].Bool()
		})
		if !hit || box.left < 0 || box.right > box.w+0.5 || box.top < 0 || box.bottom > box.h+0.5 {
			t.Errorf("at 390 px the link to %s is out of reach: [%.0f, %.0f] x [%.0f, %.0f] in %.0fx%.0f, on top: %v",
				href, box.left, box.right, box.top, box.bottom, box.w, box.h, hit)
		}
	}
	// The keyboard closes it too, and goes back to the button.
	step(t, p, "close the menu with Escape", func(p *rod.Page) {
		p.MustElement(`[data-testid="nav-users"]`).MustFocus()
		p.Keyboard.MustType(input.Escape)
		p.MustWait(`() => document.querySelector('[data-testid="nav-toggle"]').getAttribute('aria-expanded') === 'false' &&
			document.activeElement === document.querySelector('[data-testid="nav-toggle"]') &&
			document.querySelector('[data-testid="nav-users"]').getClientRects().length === 0`)
	})
	clean(t, c)
}
