package views

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/plazahq/plaza/api"
)

// PostQueue is a page of the moderation queue as the console shows it,
// with the list's state and the reason presets its forms offer.
type PostQueue struct {
	Posts      []api.V1Post
	Pagination api.Pagination
	Query      Query
	Reasons    []string
	// Decisions is, by post id, whether the viewer may decide each post
	// (the policy's answer); a post missing from it shows no decision.
	Decisions map[string]Decision
}

// Decision is what the viewer may do with one post of the queue: decide
// it, or only read it, since the rank rule or its own authorship leaves
// the decision to someone else (Own, AuthorRole say who).
type Decision struct {
	May        bool
	Own        bool   // the viewer wrote the post
	AuthorRole string // the author's highest role
}

// decider is who decides a post whose author holds role, as the rank rule
// reads it: someone of a strictly higher role.
var decider = map[string]string{api.RoleModerator: "an admin", api.RoleAdmin: "a super admin", api.RoleSuperAdmin: "another super admin"}

// roleTitle is whose post it is, by the author's highest role.
var roleTitle = map[string]string{api.RoleModerator: "A moderator's post", api.RoleAdmin: "An admin's post", api.RoleSuperAdmin: "A super admin's post"}

// heldNote is the one line a post the viewer may not decide shows in
// place of its decisions.
func heldNote(d Decision) string {
	who := decider[d.AuthorRole]
	if who == "" {
		who = "another moderator"
	}
	if d.Own {
		return "Your post: " + who + " decides"
	}
	if title, ok := roleTitle[d.AuthorRole]; ok {
		return title + ": " + who + " decides"
	}
	return "Not yours to decide"
}

// ConsoleModeratePath is where the console's queue moderates a post.
func ConsoleModeratePath(id string) string { return api.PathConsoleModeration + "/" + id }

// queueShows is the queue's "show" choice: "true" for the posts awaiting
// a decision (the default), "false" for all posts.
func queueShows(q Query) string {
	if q.Get("needsReview") == "false" {
		return "false"
	}
	return "true"
}

// excerptLength is how many characters of a post the queue shows.
const excerptLength = 160

// excerpt is the start of a post's content on one line, cut at a word
// with an ellipsis when longer than n characters.
func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " .,;:") + "…"
}

// openReports counts a post's open reports among those listed, and their
// distinct reasons in the order first seen.
func openReports(p api.V1Post) (int, []string) {
	n := 0
	var reasons []string
	seen := map[string]bool{}
	for _, r := range p.Reports {
		if r.Status != "open" {
			continue
		}
		n++
		key := strings.ToLower(strings.TrimSpace(r.Reason))
		if key != "" && !seen[key] {
			seen[key] = true
			reasons = append(reasons, strings.TrimSpace(r.Reason))
		}
	}
	return n, reasons
}

// openReportCount is how many open reports a post has among those listed.
func openReportCount(p api.V1Post) int {
	n, _ := openReports(p)
	return n
}

// openReportReasons are the distinct reasons of a post's open reports.
func openReportReasons(p api.V1Post) string {
	_, reasons := openReports(p)
	return strings.Join(reasons, ", ")
}

// emptyPosts says that the queue's filters found nothing.
func emptyPosts(search string) string {
	if search == "" {
		return "No posts match these filters."
	}
	return "No posts match '" + search + "'."
}

// moderateVals is the hx-vals of a moderation button.
func moderateVals(action string) string { return `{"action":"` + action + `"}` }

// postTitle is a post's title, or a stand-in when it has none.
func postTitle(p api.V1Post) string { return TitleOr(p.Title) }

// TitleOr is title, or "Untitled post" when it is blank.
func TitleOr(title string) string {
	if strings.TrimSpace(title) == "" {
		return "Untitled post"
	}
	return title
}

// ConsolePostContextPath is where a queue row loads its post's context.
func ConsolePostContextPath(id string) string { return ConsoleModeratePath(id) + "/context" }

// ConsoleUndoPath is where the console undoes its last decision on a post.
func ConsoleUndoPath(id string) string { return ConsoleModeratePath(id) + "/undo" }

// accuracy says how many of a reporter's settled reports were upheld.
func accuracy(r api.V1Reporter) string {
	if r.Settled == 0 {
		return "no earlier reports settled"
	}
	return strconv.Itoa(r.Upheld) + " of " + strconv.Itoa(r.Settled) + " upheld"
}

// strikes sums up an author's bans and timeouts.
func strikes(s api.V1AuthorStanding) string {
	if s.Bans+s.Timeouts == 0 {
		return "No bans or timeouts"
	}
	return plural(s.Bans, "ban") + ", " + plural(s.Timeouts, "timeout")
}

// pastModerations sums up the decisions on an author's other posts.
func pastModerations(s api.V1AuthorStanding) string {
	if s.Moderations == 0 {
		return "No decisions on their other posts"
	}
	return plural(s.Moderations, "decision") + " on their other posts (" + strconv.Itoa(s.Hidden) + " hidden, " +
		strconv.Itoa(s.Removed) + " removed)"
}

// otherReported sums up an author's other reported posts.
func otherReported(s api.V1AuthorStanding) string {
	if s.ReportedPosts == 0 {
		return "No other post reported"
	}
	return plural(s.ReportedPosts, "other post") + " reported, " + strconv.Itoa(s.OpenReported) + " with open reports now"
}

// postInList is the console's list of all posts narrowed to p's author
// and title: Plaza has no public page of a post, and this is where the
// post is seen among the others.
func postInList(p api.V1Post) string {
	q := url.Values{"needsReview": {"false"}, "author": {p.Author.ID}}
	if strings.TrimSpace(p.Title) != "" {
		q.Set("search", truncateRunes(p.Title, 100))
	}
	return api.PathConsoleModeration + "?" + q.Encode()
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// lastDecision names a post's last decision and who made it, so that a
// flagged post shows which moderator has seen it.
func lastDecision(m api.V1LastModeration) string {
	words := map[string]string{"approve": "Approved", "hide": "Hidden", "flag": "Flagged", "dismiss": "Reports dismissed",
		"undo": "Decision undone", "delete": "Deleted"}[m.Action]
	if words == "" {
		words = m.Action
	}
	if m.By == nil { // automatic (five reports), or an account since deleted
		return words
	}
	return words + " by " + *m.By
}
