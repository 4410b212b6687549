package e2e

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleNewAccountsHoldsPosts: an admin opens "New accounts" from the
// sidebar and holds new accounts' first two posts (htmx: a toast, the card
// kept); a new member's post then waits in the moderation queue marked
// "New account" and "Awaiting approval", out of public view; the admin
// approves it there and it is published. A moderator has no link to the
// page.
func TestConsoleNewAccountsHoldsPosts(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, api.PathConsole)
	step(t, p, "open New accounts from the sidebar", func(p *rod.Page) {
		p.MustElement(`[data-testid="nav-new-accounts"]`).MustClick()
		p.MustWaitLoad()
		p.MustElement(`[data-testid="new-account-posts-form"]`)
	})
	accessible(t, p, "the New accounts page")
	step(t, p, "hold the first two posts", func(p *rod.Page) {
		p.MustElement(`[data-testid="hold-first"]`).MustSelectAllText().MustInput("2")
		p.MustElement(`[data-testid="new-account-posts-save"]`).MustClick()
	})
	toast(t, p, "New accounts' posts saved")
	var setting struct{ Data api.NewAccountPosts }
	pz.api(t, pz.admin, "GET", api.PathAdminV1NewAccountPosts, &setting)
	if setting.Data != (api.NewAccountPosts{HoldFirst: 2}) {
		t.Fatalf("after saving: %+v", setting.Data)
	}

	newbie := pz.SessionFor(t, pz.User(t, "newbie@plaza.test").ID)
	res := apptest.DoBody(t, pz.App, "POST", api.PathPosts, newbie, `{"title":"Held first post","content":"Hello","published":true}`)
	var post api.Post
	if res.Code != http.StatusCreated || json.Unmarshal(res.Body.Bytes(), &post) != nil || post.Status != api.PostPending {
		t.Fatalf("the new member's post: %d %s, want pending", res.Code, res.Body)
	}
	if res := apptest.Do(t, pz.App, "GET", api.PostPath(post.ID), nil); res.Code != http.StatusNotFound {
		t.Errorf("an anonymous reader of the held post: %d, want 404", res.Code)
	}

	step(t, p, "the queue shows the held post, marked", func(p *rod.Page) {
		p.MustNavigate(pz.base + "/admin/moderation?status=pending").MustWaitLoad()
		row := p.MustElement(`[data-testid="post-row-` + post.ID + `"]`)
		if got := row.MustElement(`[data-testid="new-account"]`).MustText(); got != "New account" {
			panic("the badge reads " + got)
		}
		if got := row.MustElement(`[data-testid="post-status"]`).MustText(); got != "Awaiting approval" {
			panic("the status reads " + got)
		}
	})
	step(t, p, "approve it", func(p *rod.Page) {
		row := p.MustElement(`[data-testid="post-row-` + post.ID + `"]`)
		row.MustElement(`[data-testid="post-title"]`).MustClick()
		row.MustElement(`[data-testid="approve"]`).MustClick()
	})
	toast(t, p, "Post approved")
	step(t, p, "the approved post leaves the held list", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('[data-testid="post-row-` + post.ID + `"]')`)
	})
	if got := pz.postsByID(t)[post.ID]; got.Status != api.PostPublished {
		t.Errorf("after the approval the API says status %q", got.Status)
	}
	if res := apptest.Do(t, pz.App, "GET", api.PostPath(post.ID), nil); res.Code != http.StatusOK {
		t.Errorf("an anonymous reader of the approved post: %d, want 200", res.Code)
	}
	clean(t, c)

	m, c2 := pz.as(t, pz.modUser, api.PathConsole)
	waitText(t, m, `[data-testid="nav-moderation"]`, "Moderation queue")
	if m.MustHas(`[data-testid="nav-new-accounts"]`) {
		t.Error("a moderator has a link to New accounts")
	}
	clean(t, c2)
}
