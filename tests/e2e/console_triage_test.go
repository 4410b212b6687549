package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleClearsAQueueByKeyboard is the moderation desk end to end: a
// moderator clears a queue of twenty reported posts with the keyboard
// alone, opening each post's context (the whole post and its reporters)
// before deciding, while a second moderator's decisions on two of them
// arrive live and take them off the first one's list.
func TestConsoleClearsAQueueByKeyboard(t *testing.T) {
	pz := startPlaza(t)
	author := pz.User(t, "triage-author@plaza.test")
	reporters := []http.Header{pz.SessionFor(t, pz.User(t, "triage-r1@plaza.test").ID), pz.SessionFor(t, pz.User(t, "triage-r2@plaza.test").ID)}
	wrote := pz.SessionFor(t, author.ID)
	content := map[string]string{}
	var ids []string
	for i := range 20 {
		body := fmt.Sprintf("Triage post %02d in full: %s", i, strings.Repeat("every word of it counts. ", 12))
		var out struct {
			ID string `json:"id"`
		}
		res := apptest.DoBody(t, pz.App, "POST", api.PathPosts, wrote, fmt.Sprintf(`{"title":"Triage %02d","content":%q,"published":true}`, i, body))
		if res.Code != http.StatusCreated {
			t.Fatalf("post %d: %d %s", i, res.Code, res.Body)
		}
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || out.ID == "" {
			t.Fatalf("post %d: %v %s", i, err, res.Body)
		}
		content[out.ID] = body
		ids = append(ids, out.ID)
		for n, r := range reporters {
			res := apptest.DoBody(t, pz.App, "POST", api.PostPath(out.ID)+"/report", r, fmt.Sprintf(`{"reason":"spam","comment":"reporter %d says so"}`, n+1))
			if res.Code >= 300 {
				t.Fatalf("report %s: %d %s", out.ID, res.Code, res.Body)
			}
		}
	}
	p, c := pz.as(t, pz.modUser, "/admin/moderation?search=Triage")
	if got := len(rowIDs(p)); got != 20 {
		t.Fatalf("the queue shows %d of the 20 reported posts", got)
	}
	keys := []input.Key{'h', 'a', 'x'}
	step(t, p, "j selects the first post", func(p *rod.Page) { p.Keyboard.MustType('j') })
	for n := 0; ; n++ {
		// A list between its swap and its settling has no row selected yet.
		step(t, p, "the list settles", func(p *rod.Page) {
			p.MustWait(`() => !!document.querySelector('[data-rows] [data-row][aria-selected="true"]') || !document.querySelector('[data-rows] [data-row]')`)
		})
		id, focused := selectedRow(p)
		if id == "" {
			break
		}
		if !focused {
			t.Fatalf("decision %d: the selected row %s does not hold the focus", n, id)
		}
		step(t, p, "o opens the context of "+id, func(p *rod.Page) {
			p.Keyboard.MustType('o')
			panel := p.MustElement(`[data-testid="context-panel-` + id + `"]`)
			if got := strings.TrimSpace(panel.MustElement(`[data-testid="context-content"]`).MustText()); got != strings.TrimSpace(content[id]) {
				panic("not the whole post: " + got)
			}
			if n := len(panel.MustElements(`[data-testid="context-reports"] [data-testid="reporter"]`)); n != 2 {
				panic(fmt.Sprintf("%d reporters named", n))
			}
		})
		step(t, p, "a key decides on "+id, func(p *rod.Page) {
			p.Keyboard.MustType(keys[n%len(keys)])
			p.MustWait(`() => !document.querySelector('[data-row-id="` + id + `"]')`)
		})
		if n == 4 {
			// The other moderator settles the two oldest posts, at the
			// bottom of the list (newest first).
			admin := pz.SessionFor(t, pz.admin.ID)
			for _, other := range ids[:2] {
				res := apptest.DoBody(t, pz.App, "POST", api.ConsoleModeratePath(mustID(t, other)), admin, `{"action":"hide"}`)
				if res.Code != http.StatusOK {
					t.Fatalf("the other moderator hides %s: %d %s", other, res.Code, res.Body)
				}
			}
			step(t, p, "the other moderator's decisions arrive live", func(p *rod.Page) {
				p.MustWait(`() => !document.querySelector('[data-row-id="` + ids[0] + `"]') && !document.querySelector('[data-row-id="` + ids[1] + `"]')`)
			})
			toast(t, p, pz.admin.Username)
		}
		if n > 20 {
			t.Fatal("more decisions than posts")
		}
	}
	step(t, p, "the queue is empty", func(p *rod.Page) {
		p.MustWait(`() => document.querySelectorAll('[data-rows] [data-row]').length === 0`)
	})
	for _, id := range ids {
		if got := pz.postsByID(t)[id]; openReports(got) != 0 {
			t.Errorf("post %s still has %d open reports", id, openReports(got))
		}
	}
	clean(t, c)
}
