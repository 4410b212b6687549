package e2e

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
)

// TestDeskPeerModeratorsPost: a moderator's desk shows a peer moderator's
// post with one line saying an admin decides it, and no decision or
// checkbox; j and k still move across it, and a on it decides nothing.
func TestDeskPeerModeratorsPost(t *testing.T) {
	pz := startPlaza(t)
	deskQueue(t, pz, 2)
	reporter := pz.SessionFor(t, pz.User(t, "desk-r3@plaza.test").ID)
	reported := func(author http.Header, title string) string {
		t.Helper()
		var post struct {
			ID string `json:"id"`
		}
		res := apptest.DoBody(t, pz.App, "POST", api.PathPosts, author, `{"title":"`+title+`","content":"A post","published":true}`)
		if res.Code != http.StatusCreated || json.Unmarshal(res.Body.Bytes(), &post) != nil {
			t.Fatalf("post %s: %d %s", title, res.Code, res.Body)
		}
		if res := apptest.DoBody(t, pz.App, "POST", api.PostPath(post.ID)+"/report", reporter, `{"reason":"spam"}`); res.Code >= 300 {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		return post.ID
	}
	peer := reported(pz.SessionFor(t, pz.User(t, "desk-peer@plaza.test", access.RoleModerator).ID), "Desk peer")
	last := reported(pz.SessionFor(t, pz.deskAuthor(t).ID), "Desk last")

	p, c := pz.as(t, pz.modUser, deskPath+"&sort=created_at&order=asc")
	rows := rowIDs(p)
	if len(rows) != 4 || rows[2] != peer || rows[3] != last {
		t.Fatalf("the desk shows %v, want two members' posts, the peer's %s, then %s", rows, peer, last)
	}
	step(t, p, "the peer's row says who decides and offers no decision", func(p *rod.Page) {
		row := `[data-row-id="` + peer + `"] `
		if got := p.MustElement(row + `[data-testid="decision-held"]`).MustText(); got != "A moderator's post: an admin decides" {
			panic("the note reads " + got)
		}
		if n := len(p.MustElements(row + `[data-decision], ` + row + `[data-select], ` + row + `[data-key="d"]`)); n != 0 {
			panic("the peer's row offers decisions")
		}
	})
	selectRow(t, p, rows[1])
	step(t, p, "j moves onto the peer's post, a decides nothing there, j moves past it", func(p *rod.Page) {
		p.Keyboard.MustType('j')
		waitSelected(t, p, peer)
		p.Keyboard.MustType('a')
		deskSettled(p)
		waitSelected(t, p, peer)
		p.Keyboard.MustType('j')
		waitSelected(t, p, last)
	})
	step(t, p, "k moves back up across it", func(p *rod.Page) {
		p.Keyboard.MustType('k')
		waitSelected(t, p, peer)
		p.Keyboard.MustType('k')
		waitSelected(t, p, rows[1])
	})
	if got := pz.postsByID(t)[peer]; got.Status != "published" || openReports(got) != 1 {
		t.Errorf("the peer's post is %q with %d open reports, want it untouched", got.Status, openReports(got))
	}
	clean(t, c)
}
