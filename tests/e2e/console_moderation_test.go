package e2e

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// postsByID reads every post of the demo community through the JSON API,
// by id, to check what the queue did.
func (pz *plaza) postsByID(t *testing.T) map[string]api.V1Post {
	t.Helper()
	var got struct{ Data []api.V1Post }
	pz.api(t, pz.admin, "GET", api.PathAdminV1Posts+"?limit=100", &got)
	out := make(map[string]api.V1Post, len(got.Data))
	for _, p := range got.Data {
		out[p.ID] = p
	}
	return out
}

// rowIDs are the post ids of the queue's rows, top to bottom.
func rowIDs(p *rod.Page) []string {
	var ids []string
	for _, el := range p.MustElements(`[data-rows] [data-row]`) {
		ids = append(ids, strings.TrimPrefix(*el.MustAttribute("data-testid"), "post-row-"))
	}
	return ids
}

// TestConsoleModerationKeyboard: an admin opens the queue, moves to the
// first post with j and hides it with h; the toast confirms it, the row
// says so after the list refreshes itself, and the API agrees. "?" lists
// the shortcuts; axe passes the page.
func TestConsoleModerationKeyboard(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation")
	accessible(t, p, "the moderation queue (admin)")
	var first string
	step(t, p, "the queue shows reported posts with their reasons", func(p *rod.Page) {
		ids := rowIDs(p)
		if len(ids) == 0 {
			panic("the queue is empty")
		}
		first = ids[0]
		row := p.MustElement(`[data-testid="post-row-` + first + `"]`)
		if !strings.Contains(row.MustElement(`[data-testid="post-reports"]`).MustText(), "open report") {
			panic("the first row shows no open reports: " + row.MustText())
		}
		row.MustElement(`a[data-testid="post-author"]`) // admins get the author's page
		row.MustElement(`[data-testid="delete-open"]`)
		if status := row.MustElement(`[data-testid="post-status"]`).MustText(); strings.TrimSpace(status) == "Hidden" {
			panic("the first post is hidden already")
		}
	})
	step(t, p, "j selects the first post, h hides it", func(p *rod.Page) {
		p.Keyboard.MustType('j')
		p.MustWait(`() => document.querySelector('[data-testid="post-row-` + first + `"]').getAttribute('aria-selected') === 'true'`)
		p.Keyboard.MustType('h')
	})
	toast(t, p, "Post hidden")
	step(t, p, "hiding settles the post: it leaves the queue of posts awaiting a decision", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + first + `"]')`)
	})
	if got := pz.postsByID(t)[first]; got.Status != "hidden" || got.LastModeration == nil || got.LastModeration.Action != "hide" {
		t.Errorf("after h the API says status %q, last moderation %+v", got.Status, got.LastModeration)
	}
	step(t, p, "? lists the shortcuts", func(p *rod.Page) {
		// The page's heading: a click on the middle of the page lands on
		// whatever control is there (the selected row's "Tell author").
		p.MustElement(`main h2`).MustClick()
		p.Keyboard.MustType('?')
		p.MustWait(`() => document.getElementById('shortcut-help').open`)
		p.MustElementR(`[data-testid="shortcut-help"]`, "approve, hide, flag, dismiss the reports of, or delete")
		p.Keyboard.MustType(input.Escape)
		p.MustWait(`() => !document.getElementById('shortcut-help').open`)
	})
	clean(t, c)
}

// TestConsoleModerationDelete: an admin deletes a post after confirming
// in a dialog.
func TestConsoleModerationDelete(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation?openReports=true")
	var id string
	step(t, p, "d asks first", func(p *rod.Page) {
		id = rowIDs(p)[0]
		p.Keyboard.MustType('j')
		p.MustWait(`() => document.querySelector('[data-testid="post-row-` + id + `"]').getAttribute('aria-selected') === 'true'`)
		p.Keyboard.MustType('d')
		p.MustWait(`() => document.getElementById('delete-` + id + `').open`)
		accessible(t, p, "the delete dialog")
		p.MustElement(`#delete-` + id + ` [data-testid="delete-confirm"]`).MustClick()
	})
	toast(t, p, "Post deleted")
	step(t, p, "the row is gone", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + id + `"]')`)
	})
	if _, ok := pz.postsByID(t)[id]; ok {
		t.Errorf("post %s is still there after the delete", id)
	}
	clean(t, c)
}

// TestConsoleModerationModerator: a moderator, who holds posts:moderate
// and no admin permission, sees the queue without delete and without the
// admin pages in the sidebar, and approves a flagged post.
func TestConsoleModerationModerator(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.modUser, "/admin/moderation?status=flagged&openReports=true")
	accessible(t, p, "the moderation queue (moderator)")
	var id string
	step(t, p, "no delete, no admin pages", func(p *rod.Page) {
		p.MustElement(`[data-testid="nav-moderation"]`)
		for _, sel := range []string{`[data-testid="nav-users"]`, `[data-testid="delete-open"]`, `option[value="delete"]`, `a[data-testid="post-author"]`} {
			if p.MustHas(sel) {
				panic("a moderator sees " + sel)
			}
		}
		id = rowIDs(p)[0]
	})
	step(t, p, "approve with a reason", func(p *rod.Page) {
		row := p.MustElement(`[data-testid="post-row-` + id + `"]`)
		row.MustElement(`[data-testid="post-title"]`).MustClick() // the reason field shows on the selected row
		row.MustElement(`[data-testid="reason"]`).MustInput("Checked: fine")
		row.MustElement(`[data-testid="approve"]`).MustClick()
	})
	toast(t, p, "Post approved")
	step(t, p, "approved posts leave the reported list", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + id + `"]')`)
	})
	if got := pz.postsByID(t)[id]; got.Status != "published" {
		t.Errorf("after the approval the API says status %q", got.Status)
	}
	clean(t, c)
}

// TestConsoleModerationBulkHide: an admin selects two posts, chooses hide
// in the dialog, confirms "Hide 2 posts", and both are hidden.
func TestConsoleModerationBulkHide(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation?status=published&openReports=true")
	var ids []string
	step(t, p, "select two and hide them", func(p *rod.Page) {
		if p.MustElement(`[data-testid="bulk-bar"]`).MustVisible() {
			panic("the bulk bar shows with nothing selected")
		}
		ids = rowIDs(p)[:2]
		for _, id := range ids {
			p.MustElement(`[data-testid="select-` + id + `"]`).MustClick()
		}
		p.MustElementR(`[data-testid="bulk-bar"]`, "2 selected")
		p.MustElement(`[data-testid="bulk-open"]`).MustClick()
		p.MustElement(`[data-testid="bulk-action"]`).MustSelect("Flag")
		p.MustElement(`[data-testid="bulk-action"]`).MustSelect("Hide")
		p.MustElement(`[data-testid="bulk-reason"]`).MustInput("Spam")
		accessible(t, p, "the bulk dialog")
		apply := p.MustElement(`[data-testid="bulk-apply"]`)
		if got := strings.Join(strings.Fields(apply.MustText()), " "); got != "Hide 2 posts" {
			panic("the confirm button says " + got)
		}
		apply.MustClick()
	})
	toast(t, p, "2 posts hidden")
	step(t, p, "the list refreshes and the selection ends", func(p *rod.Page) {
		p.MustWait(`() => document.querySelector('[data-testid="bulk-bar"]').hidden`)
	})
	posts := pz.postsByID(t)
	for _, id := range ids {
		if got := posts[id]; got.Status != "hidden" {
			t.Errorf("post %s is %q after the bulk hide", id, got.Status)
		}
	}
	clean(t, c)
}

// TestConsoleModerationContext: o on the selected row opens its context in
// place, loaded then and not before: the whole post, every open report
// with its reporter, comment and accuracy, and the author's standing with
// a link to the author's page; o again closes it.
func TestConsoleModerationContext(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation?openReports=true")
	var id string
	step(t, p, "the panels are not loaded with the queue", func(p *rod.Page) {
		id = rowIDs(p)[0]
		if p.MustHas(`[data-testid="context-panel-` + id + `"]`) {
			panic("a context panel came with the queue")
		}
	})
	step(t, p, "j then o opens the first post's context", func(p *rod.Page) {
		p.Keyboard.MustType('j')
		p.MustWait(`() => document.querySelector('[data-testid="post-row-` + id + `"]').getAttribute('aria-selected') === 'true'`)
		p.Keyboard.MustType('o')
		panel := p.MustElement(`[data-testid="context-panel-` + id + `"]`)
		post := pz.postsByID(t)[id]
		if got := panel.MustElement(`[data-testid="context-content"]`).MustText(); strings.TrimSpace(got) != strings.TrimSpace(post.Content) {
			panic("the panel's post is not the whole post: " + got)
		}
		reports := panel.MustElements(`[data-testid="context-reports"] li`)
		if len(reports) == 0 || !strings.Contains(reports[0].MustText(), "upheld") && !strings.Contains(reports[0].MustText(), "no earlier reports settled") {
			panic("no reporter's accuracy in the panel: " + panel.MustText())
		}
		reports[0].MustElement(`a[data-testid="reporter"]`)
		panel.MustElement(`[data-testid="comment"]`) // the demo's first reporters comment
		panel.MustElement(`a[data-testid="context-author"]`)
		standing := panel.MustElement(`[data-testid="context-standing"]`).MustText()
		for _, want := range []string{"Joined", "other post", "ban"} {
			if !strings.Contains(standing, want) {
				panic("the author's standing lacks " + want + ": " + standing)
			}
		}
	})
	accessible(t, p, "the queue with a context open")
	step(t, p, "o closes it again", func(p *rod.Page) {
		p.Keyboard.MustType('o')
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + id + `"] details').open`)
	})
	clean(t, c)
}

// TestConsoleModerationDismissAndUndo: x dismisses the selected post's
// reports, telling the reporters; the toast's Undo takes it back and the
// reports are open again.
func TestConsoleModerationDismissAndUndo(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation?openReports=true")
	var id string
	step(t, p, "tell reporters, then x", func(p *rod.Page) {
		id = rowIDs(p)[0]
		row := p.MustElement(`[data-testid="post-row-` + id + `"]`)
		p.Keyboard.MustType('j')
		p.MustWait(`() => document.querySelector('[data-testid="post-row-` + id + `"]').getAttribute('aria-selected') === 'true'`)
		row.MustElement(`[data-testid="notify-reporters"]`).MustClick()
		row.MustEval(`() => this.focus()`) // keys act from the row, not from the checkbox
		p.Keyboard.MustType('x')
	})
	toast(t, p, "Post cleared: reports dismissed")
	step(t, p, "the post leaves the queue", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + id + `"]')`)
	})
	if got := pz.postsByID(t)[id]; got.Status != "published" || len(got.Reports) == 0 || got.Reports[0].Status != "dismissed" {
		t.Errorf("after x the API says status %q, reports %+v", got.Status, got.Reports)
	}
	step(t, p, "Undo on the toast", func(p *rod.Page) {
		p.MustElement(`[data-testid="toast-undo"]`).MustClick()
	})
	toast(t, p, "Undid the dismiss")
	step(t, p, "the post is back in the queue", func(p *rod.Page) {
		p.MustElement(`[data-testid="post-row-` + id + `"]`)
	})
	got := pz.postsByID(t)[id]
	for _, r := range got.Reports {
		if r.Status != "open" {
			t.Errorf("after the undo a report is %s", r.Status)
		}
	}
	clean(t, c)
}

// TestConsoleModerationWidths: at 1280 px no part of the queue's table is
// wider than its card, and at 390 px the page is no wider than the screen
// (the rows become cards, the decisions stacked under the post), with a
// context panel open in both.
func TestConsoleModerationWidths(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation")
	for _, size := range [][2]int{{1280, 800}, {390, 844}} {
		step(t, p, fmt.Sprintf("at %dx%d", size[0], size[1]), func(p *rod.Page) {
			p.MustSetViewport(size[0], size[1], 1, size[0] < 600)
			p.MustNavigate(pz.base + "/admin/moderation").MustWaitLoad()
			id := rowIDs(p)[0]
			p.MustElement(`[data-testid="post-row-` + id + `"] [data-testid="post-title"]`).MustClick()
			p.MustElement(`[data-testid="post-row-` + id + `"] [data-testid="context-open"]`).MustClick()
			p.MustElement(`[data-testid="context-panel-` + id + `"]`)
			over := p.MustEval(`() => {
				const out = [];
				if (document.documentElement.scrollWidth > innerWidth) out.push('page ' + document.documentElement.scrollWidth + ' > ' + innerWidth);
				const card = document.querySelector('[data-testid="post-list"]').getBoundingClientRect();
				for (const el of document.querySelectorAll('[data-testid="post-list"] table, [data-testid="post-list"] table *')) {
					if (el.closest('.sr-only') || el.closest('dialog')) continue;
					const r = el.getBoundingClientRect();
					if (r.width && (r.right > card.right + 0.5 || r.left < card.left - 0.5)) out.push((el.dataset.testid || el.tagName) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
				}
				return out.slice(0, 5).join('; ');
			}`).String()
			if over != "" {
				panic("wider than the card or the screen: " + over)
			}
		})
	}
	clean(t, c)
}

// selectedRow is the post id of the queue's selected row, and whether
// that row holds the focus (so that the keys act on it).
func selectedRow(p *rod.Page) (string, bool) {
	res := p.MustEval(`() => {
		const row = document.querySelector('[data-rows] [data-row][aria-selected="true"]');
		return row ? [row.dataset.rowId, document.activeElement === row] : ['', false];
	}`)
	return res.Get("0").Str(), res.Get("1").Bool()
}

// waitSelected waits until the row of post id is selected and focused.
func waitSelected(t *testing.T, p *rod.Page, id string) {
	t.Helper()
	p.MustWait(`() => {
		const row = document.querySelector('[data-row-id="` + id + `"]');
		return row && row.getAttribute('aria-selected') === 'true' && document.activeElement === row;
	}`)
}

// TestConsoleModerationKeepsItsPlace: the keyboard triage never loses its
// place. j selects the first post and a approves it; the post after it is
// selected at once, so j moves on and h hides the third; u undoes the
// hide from its toast. Escape in a reason field gives the keys back.
func TestConsoleModerationKeepsItsPlace(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation")
	ids := rowIDs(p)
	if len(ids) < 4 {
		t.Fatalf("the demo queue has %d posts, want at least 4", len(ids))
	}
	step(t, p, "j, a: the first is approved and the second selected", func(p *rod.Page) {
		p.Keyboard.MustType('j')
		waitSelected(t, p, ids[0])
		p.Keyboard.MustType('a')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + ids[0] + `"]')`)
		waitSelected(t, p, ids[1])
	})
	step(t, p, "j, h: the third is hidden and the fourth selected", func(p *rod.Page) {
		p.Keyboard.MustType('j')
		waitSelected(t, p, ids[2])
		p.Keyboard.MustType('h')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + ids[2] + `"]')`)
		waitSelected(t, p, ids[3])
	})
	if got := pz.postsByID(t)[ids[2]]; got.Status != "hidden" {
		t.Fatalf("after h the third post is %q", got.Status)
	}
	step(t, p, "u undoes the hide: the third post is back in the queue", func(p *rod.Page) {
		p.MustElement(`[data-testid="toast-undo"]`)
		p.Keyboard.MustType('u')
		p.MustElement(`[data-row-id="` + ids[2] + `"]`)
	})
	if got := pz.postsByID(t)[ids[2]]; got.Status == "hidden" || openReports(got) == 0 {
		t.Errorf("after the undo the third post is %q with %d open reports", got.Status, openReports(got))
	}
	step(t, p, "Escape leaves a reason field for its row", func(p *rod.Page) {
		// The undo swaps the list in again; its row is selected again
		// just after.
		p.MustWait(`() => !!document.querySelector('[data-rows] [data-row][aria-selected="true"]')`)
		id, _ := selectedRow(p)
		field := p.MustElement(`[data-row-id="` + id + `"] [data-testid="reason"]`)
		field.MustClick()
		p.Keyboard.MustType([]input.Key("jk")...)
		p.Keyboard.MustType(input.Escape)
		waitSelected(t, p, id)
	})
	clean(t, c)
}

// openReports counts a post's open reports.
func openReports(p api.V1Post) int {
	n := 0
	for _, r := range p.Reports {
		if r.Status == "open" {
			n++
		}
	}
	return n
}

// TestConsoleLiveQueue: two moderators have the queue open. When Mo
// claims a post on his page, Ana's row says "mo is reviewing" without a
// reload. When Mo hides a post while Ana is typing a reason in another
// row, Ana is told in a toast at once, but her list waits until she leaves
// the field; then the row goes, and the sidebar's badge counts one post
// fewer awaiting a decision.
func TestConsoleLiveQueue(t *testing.T) {
	pz := startPlaza(t)
	a, ac := pz.as(t, pz.admin, "/admin/moderation")
	b, bc := pz.as(t, pz.modUser, "/admin/moderation")
	var first, second string
	var count int
	step(t, a, "Ana's queue and badge", func(p *rod.Page) {
		ids := rowIDs(p)
		if len(ids) < 2 {
			panic("the queue holds fewer than two posts")
		}
		first, second = ids[0], ids[1]
		badge := p.MustElement(`[data-testid="queue-badge"]`)
		n, err := strconv.Atoi(badge.MustElement(`[data-queue-count]`).MustText())
		if err != nil || n < 2 {
			panic(fmt.Sprintf("badge says %d (%v)", n, err))
		}
		count = n
		if label := badge.MustText(); !strings.Contains(label, "posts awaiting review") {
			panic("the badge has no words for screen readers: " + label)
		}
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
	})
	step(t, b, "Mo claims the second post", func(p *rod.Page) {
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="post-title"]`).MustClick() // Claim shows on the selected row
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim"]`).MustClick()
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim-mine"]`)
	})
	step(t, a, "Ana sees who is reviewing it", func(p *rod.Page) {
		p.MustWait(`() => { const o = document.querySelector('[data-testid="post-row-` + second + `"] [data-testid="claim-other"]'); return o && !o.hidden && o.textContent.includes('` + pz.modUser.Username + ` is reviewing'); }`)
		if p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim"]`).MustVisible() {
			panic("Ana may still claim a post Mo reviews")
		}
		if !p.MustHas(`[data-testid="post-row-` + second + `"][data-claimed]`) {
			panic("the row Mo reviews is not dimmed")
		}
	})
	title := pz.postsByID(t)[first].Title
	step(t, a, "Ana types a reason in the second row", func(p *rod.Page) {
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="post-title"]`).MustClick()
		p.MustElement(`#reason-` + second).MustInput("still thinking")
	})
	if res := apptest.DoBody(t, pz.App, "POST", api.ConsoleModeratePath(mustID(t, first)), pz.SessionFor(t, pz.modUser.ID), `{"action":"hide"}`); res.Code != http.StatusOK {
		t.Fatalf("Mo hides: %d %s", res.Code, res.Body)
	}
	toast(t, a, pz.modUser.Username+" hid “"+title+"”")
	step(t, a, "the list waits while Ana types", func(p *rod.Page) {
		if !p.MustHas(`[data-testid="post-row-` + first + `"]`) {
			panic("the list refreshed under Ana's typing")
		}
		if v := p.MustElement(`#reason-` + second).MustProperty("value").String(); v != "still thinking" {
			panic("Ana's reason is gone: " + v)
		}
	})
	step(t, a, "leaving the field lets the list refresh, and the badge counts one fewer", func(p *rod.Page) {
		p.MustElement(`[data-testid="page-title"]`).MustClick()
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + first + `"]')`)
		p.MustWait(`() => document.querySelector('[data-testid="queue-badge"] [data-queue-count]').textContent === '` + strconv.Itoa(count-1) + `'`)
	})
	clean(t, ac)
	clean(t, bc)
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
