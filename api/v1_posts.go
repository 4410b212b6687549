package api

import (
	"net/url"
	"strconv"
	"strings"
)

// V1Post is a post as the versioned admin family shows it,
// with the admin metadata of Plaza: the author's status and the last
// moderation.
type V1Post struct {
	ID             string            `json:"id"`
	Title          string            `json:"title"`
	Content        string            `json:"content"`
	Author         V1PostAuthor      `json:"author"`
	Status         string            `json:"status" enum:"published,draft,hidden,flagged,pending"`
	ReportCount    int               `json:"reportCount"`
	Reports        []V1Report        `json:"reports" maxItems:"20" description:"The latest 20 reports, newest first."`
	LastModeration *V1LastModeration `json:"lastModeration" nullable:"true"`
	CreatedAt      string            `json:"createdAt" format:"date-time"`
	UpdatedAt      string            `json:"updatedAt" format:"date-time"`
	Claim          *V1Claim          `json:"claim,omitempty" description:"The console's moderation queue only: who is reviewing the post, while their claim holds."`
}

// V1PostAuthor is who wrote a post.
type V1PostAuthor struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Status   string `json:"status" enum:"active,inactive,banned" description:"As of now."`
}

// V1Report is one report of a post.
type V1Report struct {
	Reason     string `json:"reason"`
	Comment    string `json:"comment" description:"The reporter's comment; empty when none."`
	ReportedBy string `json:"reportedBy"`
	ReportedAt string `json:"reportedAt" format:"date-time"`
	Status     string `json:"status" enum:"open,resolved,dismissed"`
}

// V1LastModeration is the latest moderation decision on a post.
type V1LastModeration struct {
	Action string  `json:"action" enum:"approve,hide,delete,flag,dismiss,undo"`
	By     *string `json:"by" description:"The admin's username; null once that account is deleted."`
	At     string  `json:"at" format:"date-time"`
}

// V1PostsQuery documents the query of GET /api/v1/admin/posts.
type V1PostsQuery struct {
	Limit        int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset       int    `query:"offset" minimum:"0" default:"0"`
	Status       string `query:"status" enum:"all,published,draft,hidden,flagged,pending" default:"all" description:"Only posts in this status; all, like leaving it out, keeps every status."`
	Author       string `query:"author" description:"Only this user's posts (a user id)."`
	Reported     bool   `query:"reported" description:"Only posts that were ever reported: with reports open or settled."`
	ReportedOnly bool   `query:"reportedOnly" description:"The same as reported."`
	OpenReports  bool   `query:"openReports" description:"Only posts with open reports, which no decision has settled yet (Plaza's addition)."`
	NeedsReview  bool   `query:"needsReview" description:"Only posts awaiting a decision: with open reports, or flagged."`
	Search       string `query:"search" minLength:"1" maxLength:"100" description:"A case-insensitive substring of the title."`
	Sort         string `query:"sort" enum:"created_at,updated_at,report_count,title,createdAt,updatedAt,reportCount" default:"created_at"`
	Order        string `query:"order" enum:"asc,desc" default:"desc"`
}

// V1PostParams are the checked parameters of GET /api/v1/admin/posts.
type V1PostParams struct {
	Page     PageParams
	Status   string
	AuthorID *int64
	// Reported keeps the posts with reports, open or settled; OpenReports
	// those with open reports.
	Reported    bool
	OpenReports bool
	// NeedsReview keeps the posts awaiting a decision: with open reports,
	// or flagged.
	NeedsReview bool
	Search      string
	Sort        string
	Desc        bool
}

var v1PostSorts = map[string]string{
	"created_at": "created_at", "createdAt": "created_at", "updated_at": "updated_at", "updatedAt": "updated_at",
	"report_count": "report_count", "reportCount": "report_count", "title": "title",
}

// queuePostSorts are the console queue's sorts: the API's, and its open
// reports, which its rows show.
var queuePostSorts = func() map[string]string {
	out := map[string]string{"open_reports": "open_reports", "openReports": "open_reports"}
	for k, v := range v1PostSorts {
		out[k] = v
	}
	return out
}()

// ParseV1Posts reads the list's parameters; any
// value out of range is an issue, never clamped or ignored.
func ParseV1Posts(q url.Values) (V1PostParams, error) {
	return parsePosts(q, v1PostSorts, "created_at, updated_at, report_count, title")
}

// ParseQueuePosts is ParseV1Posts for the console's moderation queue,
// which may sort by open reports too.
func ParseQueuePosts(q url.Values) (V1PostParams, error) {
	return parsePosts(q, queuePostSorts, "open_reports, created_at, updated_at, report_count, title")
}

func parsePosts(q url.Values, sorts map[string]string, names string) (V1PostParams, error) {
	page, issues := ParsePage(q)
	out := V1PostParams{Page: page, Sort: "created_at", Desc: true}
	var is []Issue
	out.Status, is = parseFilter(q, "status", PostPublished, PostDraft, PostHidden, PostFlagged, PostPending)
	issues = append(issues, is...)
	out.AuthorID, is = ParseID(q, "author")
	issues = append(issues, is...)
	order, is := ParseChoice(q, "order", "desc", "asc", "desc")
	issues, out.Desc = append(issues, is...), order == "desc"
	for _, name := range []string{"reported", "reportedOnly"} {
		v, is := ParseChoice(q, name, "false", "true", "false")
		issues, out.Reported = append(issues, is...), out.Reported || v == "true"
	}
	open, is := ParseChoice(q, "openReports", "false", "true", "false")
	issues, out.OpenReports = append(issues, is...), open == "true"
	review, is := ParseChoice(q, "needsReview", "false", "true", "false")
	issues, out.NeedsReview = append(issues, is...), review == "true"
	out.Sort, is = parseSort(q, out.Sort, sorts, names)
	issues = append(issues, is...)
	out.Search, is = parseSearchTerm(q)
	issues = append(issues, is...)
	if len(issues) > 0 {
		return out, Invalid(issues...)
	}
	return out, nil
}

// V1ModerationRequest is the body of POST /api/v1/admin/posts/{id}/moderate.
type V1ModerationRequest struct {
	Action          string `json:"action" required:"true" enum:"approve,hide,delete,flag,dismiss" description:"What happens to the post and its open reports: approve publishes it and dismisses them; hide hides it and resolves them (upheld); delete removes it and resolves them; flag keeps them open and the post in review; dismiss dismisses them (unfounded) and publishes a flagged post again, leaving any other status as it is."`
	Reason          string `json:"reason,omitempty" maxLength:"500"`
	Notes           string `json:"notes,omitempty" maxLength:"2000"`
	NotifyAuthor    bool   `json:"notifyAuthor,omitempty" description:"Put a notification in the author's inbox."`
	NotifyReporters bool   `json:"notifyReporters,omitempty" description:"Tell each reporter of the reports this decision settles its outcome, in their inbox."`
}

// Check reports what is wrong with the request.
func (r *V1ModerationRequest) Check() error {
	if issues := r.issues(); len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}

// MaxModerationReason is the longest reason of a moderation decision, in
// characters; the console's reason fields take it as their maxlength.
const MaxModerationReason = 500

// atMost is the message of a field over its limit of n characters.
func atMost(field string, n int) string {
	return field + " must be at most " + strconv.Itoa(n) + " characters"
}

func (r *V1ModerationRequest) issues() []Issue {
	var issues []Issue
	switch r.Action {
	case "approve", "hide", "delete", "flag", "dismiss":
	default:
		issues = append(issues, FieldIssue("action", "invalid_enum_value", "action must be approve, hide, delete, flag or dismiss"))
	}
	r.Reason = strings.TrimSpace(r.Reason)
	if len([]rune(r.Reason)) > MaxModerationReason {
		issues = append(issues, FieldIssue("reason", "too_big", atMost("reason", MaxModerationReason)))
	}
	if len([]rune(r.Notes)) > MaxAdminNotes {
		issues = append(issues, FieldIssue("notes", "too_big", atMost("notes", MaxAdminNotes)))
	}
	return issues
}

// V1DeletedPost answers a delete.
type V1DeletedPost struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

// MaxBulkPosts is how many posts one bulk moderation may name.
const MaxBulkPosts = 200

// V1BulkModeration is the body of POST /api/v1/admin/posts/bulk-moderate:
// one decision for 1..200 posts.
type V1BulkModeration struct {
	PostIDs         []string `json:"postIds" required:"true" minItems:"1" maxItems:"200" description:"Post ids (strings of digits); a repeated id counts once."`
	Action          string   `json:"action" required:"true" enum:"approve,hide,delete,flag,dismiss"`
	Reason          string   `json:"reason,omitempty" maxLength:"500"`
	Notes           string   `json:"notes,omitempty" maxLength:"2000"`
	NotifyAuthor    bool     `json:"notifyAuthor,omitempty"`
	NotifyReporters bool     `json:"notifyReporters,omitempty"`
}

// Check reads the ids (distinct, in the order given), or says what is
// wrong with the request.
func (b *V1BulkModeration) Check() ([]int64, error) {
	ids, issues := idList("postIds", "post", b.PostIDs, MaxBulkPosts)
	one := V1ModerationRequest{Action: b.Action, Reason: b.Reason, Notes: b.Notes}
	issues = append(issues, one.issues()...)
	b.Reason = one.Reason
	if len(issues) > 0 {
		return nil, Invalid(issues...)
	}
	return ids, nil
}

// V1BulkModerationResult answers a bulk moderation: how many posts it
// moderated, and their ids.
type V1BulkModerationResult struct {
	Moderated int      `json:"moderated"`
	IDs       []string `json:"ids"`
}

// V1UndoResult answers an undo: the decision undone, the post's status
// again, how many reports opened again, and the post as it now is.
type V1UndoResult struct {
	Undone   string `json:"undone" enum:"approve,hide,flag,dismiss"`
	Status   string `json:"status" enum:"published,draft,hidden,flagged,pending"`
	Reopened int    `json:"reopened"`
	Post     V1Post `json:"post"`
}

// V1PostContext is what a moderator reads before deciding on a post: the
// whole post, its open reports with their reporters' records, and its
// author's standing.
type V1PostContext struct {
	Post     V1Post            `json:"post"`
	Reports  []V1ContextReport `json:"reports" description:"Every open report, oldest first."`
	Standing V1AuthorStanding  `json:"authorStanding"`
}

// V1ContextReport is one open report with its reporter and how many of
// the reporter's settled reports were upheld.
type V1ContextReport struct {
	ID         string     `json:"id"`
	Reason     string     `json:"reason"`
	Comment    string     `json:"comment"`
	ReportedAt string     `json:"reportedAt" format:"date-time"`
	Reporter   V1Reporter `json:"reporter"`
}

// V1Reporter is who filed a report, with their accuracy so far: Upheld of
// Settled reports were upheld (hidden or deleted posts).
type V1Reporter struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Upheld   int    `json:"upheld"`
	Settled  int    `json:"settled"`
}

// V1AuthorStanding is a post's author's record as moderation sees it; the
// counts of posts and decisions leave the post itself out.
type V1AuthorStanding struct {
	JoinedAt      string `json:"joinedAt" format:"date-time"`
	Bans          int    `json:"bans" description:"Permanent bans, lifted ones included."`
	Timeouts      int    `json:"timeouts" description:"Bans with an end, over or not."`
	Moderations   int    `json:"moderations" description:"Decisions on the author's other posts, deleted ones included; undos left out."`
	Hidden        int    `json:"hidden" description:"Of those, hides."`
	Removed       int    `json:"removed" description:"Of those, deletions."`
	ReportedPosts int    `json:"reportedPosts" description:"The author's other posts ever reported."`
	OpenReported  int    `json:"openReported" description:"The author's other posts with open reports now."`
}

// V1PostPage is one post as the console's page of it shows it: the post
// with its latest reports, and every moderation decision on it.
type V1PostPage struct {
	Post    V1Post           `json:"post"`
	History []V1PostDecision `json:"history" description:"Every moderation decision on the post, newest first."`
}

// V1PostDecision is one moderation decision on a post.
type V1PostDecision struct {
	ID             string  `json:"id"`
	Action         string  `json:"action" enum:"approve,hide,delete,flag,dismiss,undo"`
	By             *string `json:"by" description:"The admin's id; null for an automatic rule or a deleted account."`
	Reason         string  `json:"reason"`
	Notes          string  `json:"notes"`
	FromStatus     string  `json:"fromStatus"`
	ToStatus       string  `json:"toStatus"`
	ReportsSettled int     `json:"reportsSettled"`
	At             string  `json:"at" format:"date-time"`
}
