package api

import (
	"net/url"
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
	Status         string            `json:"status" enum:"published,draft,hidden,flagged"`
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
	ReportedBy string `json:"reportedBy"`
	ReportedAt string `json:"reportedAt" format:"date-time"`
	Status     string `json:"status" enum:"open,resolved,dismissed"`
}

// V1LastModeration is the latest moderation decision on a post.
type V1LastModeration struct {
	Action string  `json:"action" enum:"approve,hide,delete,flag"`
	By     *string `json:"by" description:"The admin's username; null once that account is deleted."`
	At     string  `json:"at" format:"date-time"`
}

// V1PostsQuery documents the query of GET /api/v1/admin/posts.
type V1PostsQuery struct {
	Limit        int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset       int    `query:"offset" minimum:"0" default:"0"`
	Status       string `query:"status" enum:"published,draft,hidden,flagged"`
	Author       string `query:"author" description:"Only this user's posts (a user id)."`
	Reported     bool   `query:"reported" description:"Only posts with open reports."`
	ReportedOnly bool   `query:"reportedOnly" description:"The same as reported."`
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
	Reported bool
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

// ParseV1Posts reads the list's parameters; any
// value out of range is an issue, never clamped or ignored.
func ParseV1Posts(q url.Values) (V1PostParams, error) {
	page, issues := ParsePage(q)
	out := V1PostParams{Page: page, Sort: "created_at", Desc: true}
	var is []Issue
	out.Status, is = ParseChoice(q, "status", "", "published", "draft", "hidden", "flagged")
	issues = append(issues, is...)
	out.AuthorID, is = ParseID(q, "author")
	issues = append(issues, is...)
	order, is := ParseChoice(q, "order", "desc", "asc", "desc")
	issues, out.Desc = append(issues, is...), order == "desc"
	for _, name := range []string{"reported", "reportedOnly"} {
		v, is := ParseChoice(q, name, "false", "true", "false")
		issues, out.Reported = append(issues, is...), out.Reported || v == "true"
	}
	review, is := ParseChoice(q, "needsReview", "false", "true", "false")
	issues, out.NeedsReview = append(issues, is...), review == "true"
	out.Sort, is = parseSort(q, out.Sort, v1PostSorts, "created_at, updated_at, report_count, title")
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
	Action       string `json:"action" enum:"approve,hide,delete,flag"`
	Reason       string `json:"reason,omitempty" maxLength:"500"`
	Notes        string `json:"notes,omitempty" maxLength:"2000"`
	NotifyAuthor bool   `json:"notifyAuthor,omitempty" description:"Put a notification in the author's inbox."`
}

// Check reports what is wrong with the request.
func (r *V1ModerationRequest) Check() error {
	if issues := r.issues(); len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}

func (r *V1ModerationRequest) issues() []Issue {
	var issues []Issue
	switch r.Action {
	case "approve", "hide", "delete", "flag":
	default:
		issues = append(issues, FieldIssue("action", "invalid_enum_value", "action must be approve, hide, delete or flag"))
	}
	r.Reason = strings.TrimSpace(r.Reason)
	if len([]rune(r.Reason)) > 500 {
		issues = append(issues, FieldIssue("reason", "too_big", "reason must be at most 500 characters"))
	}
	if len([]rune(r.Notes)) > MaxAdminNotes {
		issues = append(issues, FieldIssue("notes", "too_big", "notes must be at most 2000 characters"))
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
	PostIDs      []string `json:"postIds" minItems:"1" maxItems:"200" description:"Post ids (strings of digits); a repeated id counts once."`
	Action       string   `json:"action" enum:"approve,hide,delete,flag"`
	Reason       string   `json:"reason,omitempty" maxLength:"500"`
	Notes        string   `json:"notes,omitempty" maxLength:"2000"`
	NotifyAuthor bool     `json:"notifyAuthor,omitempty"`
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
