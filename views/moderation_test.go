package views_test

import (
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// TestQueueRowDecisions: a queue row offers every decision with its key,
// both notices, and a context disclosure the keyboard reaches through data
// attributes alone (Enter clicks data-row-link, o its data-key), loaded
// lazily from the post's context route.
func TestQueueRowDecisions(t *testing.T) {
	post := api.V1Post{ID: "7", Title: "Cheap pills", Content: "Buy now", Status: "flagged",
		Author: api.V1PostAuthor{ID: "3", Username: "spammer"}, Reports: []api.V1Report{{Reason: "spam", Status: "open"}}}
	doc := render(t, views.PostQueueList(views.PostQueue{Posts: []api.V1Post{post}, Pagination: api.Pagination{Total: 1, Limit: 50},
		Decisions: map[string]views.Decision{"7": {May: true}}}))
	row := testid(t, doc, "post-row-7")
	for action, key := range map[string]string{"approve": "a", "hide": "h", "flag": "f", "dismiss": "x"} {
		b := row.Find(`[data-testid="` + action + `"]`)
		if b.AttrOr("data-key", "") != key || b.AttrOr("hx-post", "") != "/admin/moderation/7" {
			t.Errorf("%s button: key %q, hx-post %q", action, b.AttrOr("data-key", ""), b.AttrOr("hx-post", ""))
		}
	}
	if row.Find(`input[name="notifyReporters"][type="checkbox"]`).Length() != 1 || row.Find(`input[name="notifyAuthor"]`).Length() != 1 {
		t.Error("the row lacks Tell author or Tell reporters")
	}
	details := row.Find(`details[data-testid="context"]`)
	if details.AttrOr("hx-get", "") != "/admin/moderation/7/context" || details.AttrOr("hx-trigger", "") != "toggle once" {
		t.Errorf("context disclosure: hx-get %q, hx-trigger %q", details.AttrOr("hx-get", ""), details.AttrOr("hx-trigger", ""))
	}
	summary := details.Find("summary")
	if _, ok := summary.Attr("data-row-link"); !ok || summary.AttrOr("data-key", "") != "o" {
		t.Error("the context's summary is not the row's link with key o")
	}
	if doc.Find(`[data-testid^="context-panel"]`).Length() != 0 {
		t.Error("the queue carries a context panel before one is opened")
	}
}

// TestPostContextPanelView: the panel shows the whole post, each report's
// reporter, comment and accuracy, and the author's standing in words.
func TestPostContextPanelView(t *testing.T) {
	long := strings.Repeat("word ", 60) + "THE END"
	c := api.V1PostContext{
		Post: api.V1Post{ID: "7", Title: "Long", Content: long, Author: api.V1PostAuthor{ID: "3", Username: "spammer"}},
		Reports: []api.V1ContextReport{
			{ID: "1", Reason: "spam", Comment: "Same link everywhere", ReportedAt: "2026-11-20T10:00:00.000Z", Reporter: api.V1Reporter{ID: "4", Username: "rita", Upheld: 7, Settled: 9}},
			{ID: "2", Reason: "spam", ReportedAt: "2026-11-20T11:00:00.000Z", Reporter: api.V1Reporter{ID: "5", Username: "sam"}},
		},
		Standing: api.V1AuthorStanding{JoinedAt: "2026-01-01T00:00:00.000Z", Bans: 1, Timeouts: 2, Moderations: 3, Hidden: 2, Removed: 1, ReportedPosts: 4, OpenReported: 1},
	}
	doc := render(t, views.PostContextPanel(c))
	if got := text(testid(t, doc, "context-content")); got != long {
		t.Errorf("content %q", got)
	}
	reports := testid(t, doc, "context-reports").Find("li")
	if reports.Length() != 2 || !strings.Contains(text(reports.First()), "(7 of 9 upheld)") || !strings.Contains(text(reports.Last()), "no earlier reports settled") {
		t.Errorf("reports: %q", text(reports))
	}
	if text(testid(t, doc, "comment")) != "Same link everywhere" {
		t.Error("the comment is missing")
	}
	standing := text(testid(t, doc, "context-standing"))
	for _, want := range []string{"1 ban, 2 timeouts", "3 decisions on their other posts (2 hidden, 1 removed)", "4 other posts reported, 1 with open reports now"} {
		if !strings.Contains(standing, want) {
			t.Errorf("standing %q lacks %q", standing, want)
		}
	}
	if href := testid(t, doc, "context-where").AttrOr("href", ""); !strings.HasPrefix(href, "/admin/moderation?") || !strings.Contains(href, "author=3") {
		t.Errorf("where it lives: %q", href)
	}
}

// TestQueueRowHeld: a post the viewer may not decide offers no decision
// and no bulk checkbox, but says in one line who decides; its context
// still opens.
func TestQueueRowHeld(t *testing.T) {
	posts := []api.V1Post{{ID: "7", Title: "Mine", Author: api.V1PostAuthor{ID: "3"}}, {ID: "8", Title: "Peer's", Author: api.V1PostAuthor{ID: "4"}}}
	doc := render(t, views.PostQueueList(views.PostQueue{Posts: posts, Pagination: api.Pagination{Total: 2, Limit: 50},
		Decisions: map[string]views.Decision{"7": {Own: true, AuthorRole: api.RoleModerator}, "8": {AuthorRole: api.RoleModerator}}}))
	for id, note := range map[string]string{"7": "Your post: an admin decides", "8": "A moderator's post: an admin decides"} {
		row := testid(t, doc, "post-row-"+id)
		if n := row.Find(`[data-decision], [data-select], [data-testid="delete-open"]`).Length(); n != 0 {
			t.Errorf("post %s: %d decision controls", id, n)
		}
		if got := text(row.Find(`[data-testid="decision-held"]`)); got != note {
			t.Errorf("post %s: note %q, want %q", id, got, note)
		}
		if row.Find(`[data-testid="context-open"]`).Length() != 1 {
			t.Errorf("post %s: no context", id)
		}
	}
}
