package e2e

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/seed"
)

// walkDecisions is how many posts the walk decides by keyboard in a row.
const walkDecisions = 50

// TestTwoModeratorsDeskWalk is the desk on a big day, as two new
// moderators live it side by side: the queue holds over 200 posts from a
// bulk seed (what `plaza seed` writes by default). Lea decides 50 in a row with the
// keyboard alone while Mia, further down the queue, types a reason for a
// post of her own; every one of Lea's decisions lands on the post she had
// selected, Mia's typing and selection outlive the 50 live refreshes, and
// the audit log's first page is exactly Lea's 50 decisions.
func TestTwoModeratorsDeskWalk(t *testing.T) {
	pz := startPlaza(t)
	ctx := context.Background()
	if _, err := seed.Bulk(ctx, pz.Store, seed.Options{Users: 1000, Posts: 5000, Seed: 49}); err != nil {
		t.Fatal(err)
	}
	// A moderator decides only on the posts of people of a lower role
	// (rank among equals): the seed's few moderators become members, so
	// that every post of the queue is Lea's to decide.
	moderator := pz.Store.DB.NewSelect().Model((*models.Role)(nil)).Column("id").Where("name = ?", models.RoleModerator)
	if _, err := pz.Store.DB.NewDelete().Model((*models.UserRole)(nil)).Where("role_id IN (?)", moderator).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	queue := pz.queueOrder(t)
	if len(queue) < 200 {
		t.Fatalf("the seeded queue holds %d posts awaiting a decision, want at least 200", len(queue))
	}
	lea := pz.User(t, "lea@plaza.test", access.RoleModerator)
	mia := pz.User(t, "mia@plaza.test", access.RoleModerator)

	// Mia works from the oldest post up, on one Lea's 50 cannot reach.
	m, mc := pz.as(t, mia, "/admin/moderation?sort=created_at&order=asc")
	var mine string
	for _, id := range rowIDs(m) {
		if !slices.Contains(queue[:2*walkDecisions], id) {
			mine = id
			break
		}
	}
	if mine == "" {
		t.Fatal("Mia's first page holds only posts Lea may decide")
	}
	const typed = "Spam wave, same link as the others"
	step(t, m, "Mia selects her post and types a reason", func(p *rod.Page) {
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		p.MustElement(`[data-row-id="` + mine + `"]`).MustClick()
		p.MustWait(`() => document.querySelector('[data-row-id="` + mine + `"]').getAttribute('aria-selected') === 'true'`)
		p.MustElement(`#reason-` + mine).MustInput(typed)
	})

	l, lc := pz.as(t, lea, "/admin/moderation")
	step(t, l, "Lea's queue is live and j selects its first post", func(p *rod.Page) {
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		p.Keyboard.MustType('j')
	})
	keys := []struct {
		key    input.Key
		action string
	}{{'h', "hide"}, {'a', "approve"}, {'x', "dismiss"}}
	decided := map[string]string{}
	var order []string
	for n := range walkDecisions {
		var id string
		step(t, l, fmt.Sprintf("decision %d: a post is selected and focused", n+1), func(p *rod.Page) {
			waitAcrossLoad(p, `() => { const r = document.querySelector('[data-rows] [data-row][aria-selected="true"]'); return !!r && document.activeElement === r; }`)
			id, _ = selectedRow(p)
		})
		if _, again := decided[id]; again || id == mine {
			t.Fatalf("decision %d: post %s is selected, which is decided already or Mia's", n+1, id)
		}
		k := keys[n%len(keys)]
		step(t, l, fmt.Sprintf("decision %d: %s %s", n+1, k.action, id), func(p *rod.Page) {
			p.Keyboard.MustType(k.key)
			p.MustWait(`() => !document.querySelector('[data-rows] [data-row-id="` + id + `"]')`)
		})
		decided[id] = k.action
		order = append(order, id)
	}

	step(t, m, "Mia's list waited while she typed, her reason intact", func(p *rod.Page) {
		if v := p.MustElement(`#reason-` + mine).MustProperty("value").String(); v != typed {
			panic(fmt.Sprintf("Mia's reason reads %q", v))
		}
	})
	step(t, m, "Escape lets the held refresh run; her reason and selection outlive it", func(p *rod.Page) {
		p.Keyboard.MustType(input.Escape)
		p.MustWait(`() => !document.querySelector('[data-rows] [data-row-id="` + order[len(order)-1] + `"]')`)
		if v := p.MustElement(`#reason-` + mine).MustProperty("value").String(); v != typed {
			panic(fmt.Sprintf("Mia's reason reads %q after the refresh", v))
		}
		if id, _ := selectedRow(p); id != mine {
			panic("Mia's selection moved to " + id)
		}
	})

	for id, action := range decided {
		got := pz.decisions(t, id)
		if len(got) != 1 || got[0].Action != action || got[0].AdminID == nil || *got[0].AdminID != lea.ID {
			t.Errorf("post %s: decisions %+v, want one: %s by Lea", id, got, action)
		}
	}
	pz.auditFirstPageIs(t, order)

	step(t, m, "Mia hides her post with the reason she typed", func(p *rod.Page) {
		waitSelected(t, p, mine)
		p.Keyboard.MustType('h')
		p.MustWait(`() => !document.querySelector('[data-rows] [data-row-id="` + mine + `"]')`)
	})
	if got := pz.decisions(t, mine); len(got) != 1 || got[0].Action != "hide" || got[0].Reason != typed {
		t.Errorf("Mia's post: decisions %+v, want one: hide for %q", got, typed)
	}
	clean(t, lc)
	clean(t, mc)
}

// queueOrder is the ids of every post awaiting a decision, in the
// queue's own order (most open reports first).
func (pz *plaza) queueOrder(t *testing.T) []string {
	t.Helper()
	var ids []string
	for offset := 0; ; offset += 100 {
		var got struct {
			Data []api.V1Post
			Meta struct{ Pagination api.Pagination }
		}
		pz.api(t, pz.admin, "GET", api.PathAdminV1Posts+"?needsReview=true&sort=report_count&limit=100&offset="+strconv.Itoa(offset), &got)
		for _, p := range got.Data {
			ids = append(ids, p.ID)
		}
		if !got.Meta.Pagination.HasMore {
			return ids
		}
	}
}

// decisions are the moderation decisions recorded on post id, oldest
// first.
func (pz *plaza) decisions(t *testing.T, id string) []models.ModerationAction {
	t.Helper()
	var out []models.ModerationAction
	if err := pz.Store.DB.NewSelect().Model(&out).Where("post_id = ?", mustID(t, id)).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out
}

// auditFirstPageIs checks that the console's audit log, opened as an
// admin, lists on its first page exactly the moderation decisions on
// posts ids, newest first.
func (pz *plaza) auditFirstPageIs(t *testing.T, ids []string) {
	t.Helper()
	pz.FlushAudit(t)
	entries := map[string]string{} // audit entry id -> "action target"
	for _, e := range pz.AuditEntries(t) {
		entries[strconv.FormatInt(e.ID, 10)] = e.Action + " " + e.TargetID
	}
	p, c := pz.as(t, pz.admin, api.PathConsoleAudit)
	var rows []string
	step(t, p, "the audit log's first page", func(p *rod.Page) {
		for _, el := range p.MustElements(`[data-testid="audit-list"] [data-rows] [data-row]`) {
			rows = append(rows, strings.TrimPrefix(*el.MustAttribute("data-testid"), "audit-"))
		}
	})
	var want []string
	for _, id := range slices.Backward(ids) {
		want = append(want, "post.moderate "+id)
	}
	var got []string
	for _, r := range rows {
		got = append(got, entries[r])
	}
	if !slices.Equal(got, want) {
		t.Errorf("the audit log's first page lists\n%s\nwant Lea's decisions, newest first:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	clean(t, c)
}
