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
		p.MustElement(`body`).MustClick()
		p.Keyboard.MustType('?')
		p.MustWait(`() => document.getElementById('shortcut-help').open`)
		p.MustElementR(`[data-testid="shortcut-help"]`, "approve, hide, delete or flag")
		p.Keyboard.MustType(input.Escape)
		p.MustWait(`() => !document.getElementById('shortcut-help').open`)
	})
	clean(t, c)
}

// TestConsoleModerationDelete: an admin deletes a post after confirming
// in a dialog.
func TestConsoleModerationDelete(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/moderation?reported=true")
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
	p, c := pz.as(t, pz.modUser, "/admin/moderation?status=flagged&reported=true")
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
	p, c := pz.as(t, pz.admin, "/admin/moderation?status=published&reported=true")
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
		if label := badge.MustText(); !strings.Contains(label, "awaiting a decision") {
			panic("the badge has no words for screen readers: " + label)
		}
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
	})
	step(t, b, "Mo claims the second post", func(p *rod.Page) {
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim"]`).MustClick()
		p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim-mine"]`)
	})
	step(t, a, "Ana sees who is reviewing it", func(p *rod.Page) {
		p.MustWait(`() => { const o = document.querySelector('[data-testid="post-row-` + second + `"] [data-testid="claim-other"]'); return o && !o.hidden && o.textContent.includes('` + pz.modUser.Username + ` is reviewing'); }`)
		if p.MustElement(`[data-testid="post-row-` + second + `"] [data-testid="claim"]`).MustVisible() {
			panic("Ana may still claim a post Mo reviews")
		}
	})
	title := pz.postsByID(t)[first].Title
	step(t, a, "Ana types a reason in the second row", func(p *rod.Page) {
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
