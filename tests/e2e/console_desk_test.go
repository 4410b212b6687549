package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
)

// deskQueue writes n posts titled "Desk 00".., each reported twice, and
// returns their ids; the queue narrowed to them is /admin/moderation?search=Desk.
func deskQueue(t *testing.T, pz *plaza, n int) []string {
	t.Helper()
	author := pz.deskAuthor(t)
	reporters := []http.Header{pz.SessionFor(t, pz.User(t, "desk-r1@plaza.test").ID), pz.SessionFor(t, pz.User(t, "desk-r2@plaza.test").ID)}
	wrote := pz.SessionFor(t, author.ID)
	var ids []string
	for i := range n {
		var out struct {
			ID string `json:"id"`
		}
		body := fmt.Sprintf(`{"title":"Desk %02d","content":"Desk post %02d: %s","published":true}`, i, i, strings.Repeat("a few words more. ", 10))
		res := apptest.DoBody(t, pz.App, "POST", api.PathPosts, wrote, body)
		if res.Code != http.StatusCreated {
			t.Fatalf("post %d: %d %s", i, res.Code, res.Body)
		}
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || out.ID == "" {
			t.Fatalf("post %d: %v %s", i, err, res.Body)
		}
		ids = append(ids, out.ID)
		for _, r := range reporters {
			if res := apptest.DoBody(t, pz.App, "POST", api.PostPath(out.ID)+"/report", r, `{"reason":"spam"}`); res.Code >= 300 {
				t.Fatalf("report %s: %d %s", out.ID, res.Code, res.Body)
			}
		}
	}
	return ids
}

// deskAuthor is the author of deskQueue's posts.
func (pz *plaza) deskAuthor(t *testing.T) *models.User {
	t.Helper()
	u, err := pz.Store.Users.UserByEmail(t.Context(), "desk-author@plaza.test")
	if err != nil {
		return pz.User(t, "desk-author@plaza.test")
	}
	return u
}

const deskPath = "/admin/moderation?search=Desk"

// selectRow presses j until the row of id is selected and focused.
func selectRow(t *testing.T, p *rod.Page, id string) {
	t.Helper()
	step(t, p, "j until "+id+" is selected", func(p *rod.Page) {
		for range 30 {
			if got, focused := selectedRow(p); got == id && focused {
				return
			}
			p.Keyboard.MustType('j')
			p.MustWait(`() => !!document.querySelector('[data-rows] [data-row][aria-selected="true"]')`)
		}
		panic("j never reached " + id)
	})
}

// deskSettled waits until no request of htmx is running and the desk holds
// no key back.
func deskSettled(p *rod.Page) {
	p.MustWait(`() => !document.querySelector('.htmx-request') && !document.querySelector('[data-desk-busy]')`)
}

// TestDeskClaimKeepsTheSelection: Claim, Release and the claim's renewal
// leave the selection where it is; the next key decides the post the
// moderator claimed, not the one after it. (Before the fix the claim moved
// the selection on, and h hid the next post.)
func TestDeskClaimKeepsTheSelection(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 4)
	p, c := pz.as(t, pz.modUser, deskPath)
	rows := rowIDs(p)
	selectRow(t, p, rows[1])
	step(t, p, "Claim, Release and Claim again by pointer", func(p *rod.Page) {
		row := `[data-row-id="` + rows[1] + `"] `
		p.MustElement(row + `[data-testid="claim"]`).MustClick()
		p.MustElement(row + `[data-testid="claim-mine"]`)
		deskSettled(p)
		p.MustElement(row + `[data-testid="release"]`).MustClick()
		p.MustElement(row + `[data-testid="claim"]`)
		deskSettled(p)
		p.MustElement(row + `[data-testid="claim"]`).MustClick()
		p.MustElement(row + `[data-testid="claim-mine"]`)
		deskSettled(p)
	})
	step(t, p, "the minute's renewal runs", func(p *rod.Page) {
		p.MustEval(`() => new Promise((done) => {
			const renew = document.querySelector('[data-row-id="` + rows[1] + `"] [data-claim-renew]');
			document.body.addEventListener('htmx:afterRequest', () => setTimeout(done, 50), { once: true });
			htmx.ajax('POST', renew.getAttribute('hx-post'), { source: renew, swap: 'none' });
		})`)
		deskSettled(p)
	})
	if got, _ := selectedRow(p); got != rows[1] {
		t.Fatalf("after Claim, Release and the renewal, %s is selected, not %s", got, rows[1])
	}
	step(t, p, "the row still holds the focus, and h hides it", func(p *rod.Page) {
		waitSelected(t, p, rows[1])
		p.Keyboard.MustType('h')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[1] + `"]')`)
	})
	posts := pz.postsByID(t)
	if got := posts[rows[1]]; got.Status != "hidden" {
		t.Errorf("the claimed post is %q, want hidden", got.Status)
	}
	if got := posts[rows[2]]; got.Status == "hidden" {
		t.Errorf("the post after the claimed one was hidden")
	}
	clean(t, c)
}

// TestDeskHeldRefreshKeepsInput: a moderator types a reason; another
// moderator's decision arrives and its refresh waits; Escape lets it run,
// and the reason, the notices ticked and the selection are all still
// there, so h hides the post with that reason.
func TestDeskHeldRefreshKeepsInput(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 5)
	p, c := pz.as(t, pz.modUser, deskPath)
	rows := rowIDs(p)
	selectRow(t, p, rows[1])
	step(t, p, "type a reason, tick Tell author", func(p *rod.Page) {
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		row := `[data-row-id="` + rows[1] + `"] `
		p.MustElement(row + `[data-testid="notify"]`).MustClick()
		p.MustElement(row + `[data-testid="reason"]`).MustInput("Spam wave")
	})
	if res := apptest.DoBody(t, pz.App, "POST", api.ConsoleModeratePath(mustID(t, rows[3])), pz.SessionFor(t, pz.admin.ID), `{"action":"hide"}`); res.Code != http.StatusOK {
		t.Fatalf("the other moderator hides: %d %s", res.Code, res.Body)
	}
	toast(t, p, pz.admin.Username+" hid")
	step(t, p, "Escape lets the held refresh run", func(p *rod.Page) {
		p.Keyboard.MustType(input.Escape)
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[3] + `"]')`)
		deskSettled(p)
	})
	step(t, p, "the reason, the notice and the selection survive", func(p *rod.Page) {
		waitSelected(t, p, rows[1])
		row := `[data-row-id="` + rows[1] + `"] `
		if v := p.MustElement(row + `[data-testid="reason"]`).MustProperty("value").String(); v != "Spam wave" {
			panic("the reason is now " + fmt.Sprintf("%q", v))
		}
		if !p.MustElement(row + `[data-testid="notify"]`).MustProperty("checked").Bool() {
			panic("Tell author is no longer ticked")
		}
		p.Keyboard.MustType('h')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[1] + `"]')`)
	})
	if got := pz.postsByID(t)[rows[1]]; got.Status != "hidden" {
		t.Errorf("after h the post is %q", got.Status)
	}
	res := apptest.Do(t, pz.App, "GET", api.PathNotifications, pz.SessionFor(t, pz.deskAuthor(t).ID))
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "Spam wave") {
		t.Errorf("the author was not told the reason typed before the refresh: %d %s", res.Code, res.Body)
	}
	clean(t, c)
}

// TestDeskKeysWhileDeciding: x, j and h pressed at once, while the
// dismissal is on its way, are all carried out in order: the first post's
// reports dismissed, the second left alone, the third hidden.
func TestDeskKeysWhileDeciding(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 6)
	p, c := pz.as(t, pz.modUser, deskPath)
	rows := rowIDs(p)
	selectRow(t, p, rows[0])
	step(t, p, "x j h in one go", func(p *rod.Page) {
		p.Keyboard.MustType('x', 'j', 'h')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[0] + `"]') && !document.querySelector('[data-row-id="` + rows[2] + `"]')`)
		deskSettled(p)
		waitSelected(t, p, rows[3])
	})
	posts := pz.postsByID(t)
	if got := posts[rows[0]]; openReports(got) != 0 || got.Status != "published" {
		t.Errorf("the first post is %q with %d open reports, want its reports dismissed", got.Status, openReports(got))
	}
	if got := posts[rows[1]]; openReports(got) != 2 || got.Status != "published" {
		t.Errorf("the second post is %q with %d open reports, want it untouched", got.Status, openReports(got))
	}
	if got := posts[rows[2]]; got.Status != "hidden" {
		t.Errorf("the third post is %q, want hidden", got.Status)
	}
	clean(t, c)
}

// TestDeskEightPostsAScreen: at 1280x800 at least eight posts of the
// queue are wholly on the first screen with the first one selected, whose
// reason, notices and every decision show, and only its; "Tell author"
// and "Tell reporters" keep the moderator's last choice across pages.
func TestDeskEightPostsAScreen(t *testing.T) {
	pz := startPlaza(t)
	ids := deskQueue(t, pz, 12)
	claimed := ids[len(ids)-4] // the fourth row, newest first
	if res := apptest.DoBody(t, pz.App, "POST", api.ConsoleClaimPath(mustID(t, claimed)), pz.SessionFor(t, pz.admin.ID), `{}`); res.Code != http.StatusOK {
		t.Fatalf("ana claims: %d %s", res.Code, res.Body)
	}
	p, c := pz.as(t, pz.modUser, deskPath)
	p.MustSetViewport(1280, 800, 1, false)
	p.MustNavigate(pz.base + deskPath).MustWaitLoad()
	rows := rowIDs(p)
	selectRow(t, p, rows[0])
	step(t, p, "eight posts wholly visible", func(p *rod.Page) {
		n := p.MustEval(`() => {
			const top = document.querySelector('header').getBoundingClientRect().bottom;
			return Array.from(document.querySelectorAll('[data-rows] [data-row]')).filter((r) => {
				const b = r.getBoundingClientRect();
				return b.top >= top && b.bottom <= innerHeight;
			}).length;
		}`).Int()
		if n < 8 {
			panic(fmt.Sprintf("%d posts wholly visible at 1280x800", n))
		}
	})
	step(t, p, "the selected row offers everything, the others only the common decisions", func(p *rod.Page) {
		sel := `[data-row-id="` + rows[0] + `"] `
		for _, id := range []string{"reason", "notify", "notify-reporters", "approve", "hide", "flag", "dismiss", "claim", "context-open"} {
			if !p.MustElement(sel + `[data-testid="` + id + `"]`).MustVisible() {
				panic("the selected row hides " + id)
			}
		}
		other := `[data-row-id="` + rows[1] + `"] `
		if p.MustElement(other + `[data-testid="reason"]`).MustVisible() {
			panic("an unselected row shows its reason field")
		}
		for _, id := range []string{"approve", "hide"} {
			if !p.MustElement(other + `[data-testid="` + id + `"]`).MustVisible() {
				panic("an unselected row hides " + id)
			}
		}
	})
	step(t, p, "a click on another row selects it", func(p *rod.Page) {
		p.MustElement(`[data-row-id="` + rows[2] + `"] [data-testid="post-title"]`).MustClick()
		waitSelected(t, p, rows[2])
		if !p.MustElement(`[data-row-id="` + rows[2] + `"] [data-testid="reason"]`).MustVisible() {
			panic("the clicked row shows no reason field")
		}
	})
	step(t, p, "Tab reaches the selected row's controls", func(p *rod.Page) {
		p.Keyboard.MustType(input.Tab)
		p.MustWait(`() => document.querySelector('[data-row-id="` + rows[2] + `"]').contains(document.activeElement) && document.activeElement !== document.querySelector('[data-row-id="` + rows[2] + `"]')`)
	})
	step(t, p, "Tell reporters is remembered", func(p *rod.Page) {
		p.MustElement(`[data-row-id="` + rows[2] + `"] [data-testid="notify-reporters"]`).MustClick()
		p.MustNavigate(pz.base + deskPath).MustWaitLoad()
		p.Keyboard.MustType('j')
		waitSelected(t, p, rows[0])
		if !p.MustElement(`[data-row-id="` + rows[0] + `"] [data-testid="notify-reporters"]`).MustProperty("checked").Bool() {
			panic("Tell reporters was forgotten")
		}
		if p.MustElement(`[data-row-id="` + rows[0] + `"] [data-testid="notify"]`).MustProperty("checked").Bool() {
			panic("Tell author was ticked by itself")
		}
	})
	step(t, p, "a claimed row is dimmed and names who reviews it", func(p *rod.Page) {
		row := p.MustElement(`[data-row-id="` + claimed + `"][data-claimed]`)
		if got := row.MustElement(`[data-testid="claim-other"]`).MustText(); !strings.Contains(got, pz.admin.Username+" is reviewing") {
			panic("the claim badge says " + got)
		}
	})
	for _, scheme := range []string{"dark", "light"} {
		err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
			{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p)
		if err != nil {
			t.Fatal(err)
		}
		accessible(t, p, "the compact queue, a row selected and one claimed ("+scheme+")")
	}
	clean(t, c)
}

// TestDeskUndoFromRecentDecisions: a toast stays while the pointer rests
// on it; "My recent decisions" undoes any decision of the last ten
// minutes, a single one (whose post comes back selected) or a bulk one.
func TestDeskUndoFromRecentDecisions(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 6)
	p, c := pz.as(t, pz.modUser, deskPath)
	rows := rowIDs(p)
	selectRow(t, p, rows[0])
	step(t, p, "h hides the first post, and its toast names it", func(p *rod.Page) {
		p.Keyboard.MustType('h')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[0] + `"]')`)
	})
	toast(t, p, "Desk")
	step(t, p, "the toast stays while hovered", func(p *rod.Page) {
		el := p.MustElementR(`[data-testid="toast"]`, "Desk")
		el.MustHover()
		p.MustEval(`() => { window.deskHoverFrom = performance.now(); }`)
		p.MustWait(`() => performance.now() - window.deskHoverFrom > 6500`)
		if !el.MustEval(`() => this.isConnected`).Bool() {
			panic("the toast went while hovered")
		}
		p.Mouse.MustMoveTo(5, 400)
		p.MustWait(`() => !Array.from(document.querySelectorAll('[data-testid="toast"]')).some((t) => t.textContent.includes('Desk'))`)
	})
	step(t, p, "a approves the next post", func(p *rod.Page) {
		waitSelected(t, p, rows[1])
		p.Keyboard.MustType('a')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[1] + `"]')`)
		deskSettled(p)
	})
	step(t, p, "two posts hidden at once", func(p *rod.Page) {
		for _, id := range rows[3:5] {
			p.MustElement(`[data-testid="select-` + id + `"]`).MustClick()
		}
		p.MustElement(`[data-testid="bulk-open"]`).MustClick()
		p.MustElement(`[data-testid="bulk-apply"]`).MustClick()
		p.MustWait(`() => !document.querySelector('[data-row-id="` + rows[3] + `"]') && !document.querySelector('[data-row-id="` + rows[4] + `"]')`)
		deskSettled(p)
	})
	step(t, p, "My recent decisions lists the three", func(p *rod.Page) {
		p.MustElement(`[data-testid="recent-open"]`).MustClick()
		p.MustWait(`() => document.querySelectorAll('[data-testid="recent-decision"]').length === 3`)
	})
	accessible(t, p, "my recent decisions")
	step(t, p, "undo the first hide: the post is back and selected", func(p *rod.Page) {
		p.MustElementR(`[data-testid="recent-decision"]`, titleOf(pz, t, rows[0])).MustElement(`[data-testid="recent-undo"]`).MustClick()
		p.MustElement(`[data-row-id="` + rows[0] + `"]`)
		deskSettled(p)
		p.MustWait(`() => document.querySelector('[data-row-id="` + rows[0] + `"]').getAttribute('aria-selected') === 'true'`)
	})
	step(t, p, "undo the bulk hide", func(p *rod.Page) {
		p.MustElement(`[data-testid="recent-open"]`).MustClick()
		p.MustElementR(`[data-testid="recent-decision"]`, "2 posts").MustElement(`[data-testid="recent-undo"]`).MustClick()
		p.MustWait(`() => !!document.querySelector('[data-row-id="` + rows[3] + `"]') && !!document.querySelector('[data-row-id="` + rows[4] + `"]')`)
	})
	posts := pz.postsByID(t)
	for _, id := range []string{rows[0], rows[3], rows[4]} {
		if got := posts[id]; got.Status != "published" || openReports(got) != 2 {
			t.Errorf("after the undo post %s is %q with %d open reports", id, got.Status, openReports(got))
		}
	}
	if got := posts[rows[1]]; got.Status != "published" || openReports(got) != 0 {
		t.Errorf("the approval not undone changed: %q, %d open reports", got.Status, openReports(got))
	}
	clean(t, c)
}

func titleOf(pz *plaza, t *testing.T, id string) string { return pz.postsByID(t)[id].Title }

// TestDeskToastsLeaveControlsFree: with the bulk bar up and three toasts
// showing, at 1280 and at 390 px, no toast lies over the bar, and a click
// on its button opens the dialog.
func TestDeskToastsLeaveControlsFree(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 3)
	p, c := pz.as(t, pz.modUser, deskPath)
	for _, size := range [][2]int{{1280, 800}, {390, 844}} {
		step(t, p, fmt.Sprintf("at %dx%d", size[0], size[1]), func(p *rod.Page) {
			p.MustSetViewport(size[0], size[1], 1, size[0] < 600)
			p.MustNavigate(pz.base + deskPath).MustWaitLoad()
			rows := rowIDs(p)
			for _, id := range rows[:2] {
				p.MustElement(`[data-testid="select-` + id + `"]`).MustClick()
			}
			p.MustElement(`[data-testid="bulk-open"]`).MustWaitVisible()
			p.MustEval(`() => { for (const m of ['One thing done', 'Another thing done, with a longer message to wrap', 'A third']) document.body.dispatchEvent(new CustomEvent('plaza:toast', { detail: { message: m } })); }`)
			over := p.MustEval(`() => {
				const bar = document.querySelector('[data-testid="bulk-bar"]').getBoundingClientRect();
				const out = [];
				for (const t of document.querySelectorAll('[data-testid="toast"]')) {
					const r = t.getBoundingClientRect();
					if (r.left < bar.right && r.right > bar.left && r.top < bar.bottom && r.bottom > bar.top) out.push(t.textContent);
				}
				const btn = document.querySelector('[data-testid="bulk-open"]').getBoundingClientRect();
				const hit = document.elementFromPoint(btn.left + btn.width / 2, btn.top + btn.height / 2);
				if (!hit || !hit.closest('[data-testid="bulk-open"]')) out.push('the button is under ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing'));
				return out.join('; ');
			}`).String()
			if over != "" {
				panic("toasts over the bulk bar: " + over)
			}
			p.MustElement(`[data-testid="bulk-open"]`).MustClick()
			p.MustWait(`() => document.getElementById('bulk-dialog').open`)
			p.Keyboard.MustType(input.Escape)
		})
	}
	clean(t, c)
}
