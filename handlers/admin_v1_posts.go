package handlers

import (
	"context"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// V1PostStore is what the versioned admin posts handlers read; their
// writes go through the actions.
type V1PostStore interface {
	ListPostsAdmin(ctx context.Context, f models.PostListFilter) (models.PostPage, error)
	PostContextByID(ctx context.Context, id int64) (*models.PostContext, error)
	PostClaims(ctx context.Context, ids []int64) (map[int64]models.Claim, error)
	PostRecordByID(ctx context.Context, id int64) (*models.PostRecord, error)
	ListedPostByID(ctx context.Context, id int64) (*models.ListedPost, error)
	PostDecisions(ctx context.Context, id int64) ([]models.PostDecision, error)
	UsernamesByID(ctx context.Context, ids []int64) (map[int64]string, error)
	ListedUsersByID(ctx context.Context, ids []int64) ([]models.ListedUser, error)
}

// V1Posts answers the versioned admin family's posts routes
// (/api/v1/admin/posts), and the console's moderation queue from
// the same results.
type V1Posts struct {
	Store   V1PostStore
	Actions *actions.Actions
	Reasons ModerationReasons
}

// List answers GET /api/v1/admin/posts: a page of posts filtered by
// status, author, reports (any, or open ones) and title, sorted as asked. Statuses: 200,
// 401, 403, 422. The console's moderation queue (GET /admin/moderation)
// runs it too, sorted by open reports (most first) unless it asks otherwise.
func (h V1Posts) List(c echo.Context) error {
	q := c.QueryParams()
	queue := c.Path() == api.PathConsoleModeration
	parse := api.ParseV1Posts
	if queue {
		q, parse = queueDefaults(q), api.ParseQueuePosts
	}
	p, err := parse(q)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	found, err := h.Store.ListPostsAdmin(ctx, models.PostListFilter{
		Status: p.Status, AuthorID: p.AuthorID, Reported: p.Reported, OpenReports: p.OpenReports, NeedsReview: p.NeedsReview, Search: p.Search, Sort: p.Sort, Desc: p.Desc,
		Limit: p.Page.Limit, Offset: p.Page.Offset,
	})
	if err != nil {
		return err
	}
	rows := found.Rows
	out := make([]api.V1Post, len(rows))
	for i := range rows {
		out[i] = v1Post(&rows[i])
	}
	if queue {
		if err := h.withClaims(ctx, rows, out); err != nil {
			return err
		}
	}
	page := api.Page(out, found.Total, p.Page)
	page.Meta.Pagination.TotalCapped = found.Capped
	if !queue || wantsJSON(c) {
		return c.JSON(http.StatusOK, page)
	}
	list := views.PostQueue{Posts: out, Pagination: page.Meta.Pagination, Query: consoleQuery(c, "open_reports", true)}
	if list.Reasons, err = h.Reasons.read(ctx); err != nil {
		return err
	}
	if list.Decisions, err = h.decisions(ctx, rows); err != nil {
		return err
	}
	return respond(c, http.StatusOK, page, View{Partial: views.PostQueueList(list), Page: views.ModerationPage(list)})
}

// queueDefaults fills in what the moderation queue shows unless asked
// otherwise: the posts awaiting a decision, most open reports first (the
// count its rows show).
func queueDefaults(q url.Values) url.Values {
	q = cloneValues(q)
	for name, value := range map[string]string{"sort": "open_reports", "needsReview": "true"} {
		if q.Get(name) == "" {
			q.Set(name, value)
		}
	}
	return q
}

// cloneValues is a copy of q to change.
func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, vs := range q {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Moderate answers POST /api/v1/admin/posts/{id}/moderate {action, reason,
// notes, notifyAuthor, notifyReporters} through the moderation action: the
// post as it now is, or {deleted, id} after a delete, which needs
// admin:delete too. The console's toast offers to undo any other decision.
// Statuses: 200, 401, 403, 404, 422 (approving a draft), 423 while another
// admin holds the post's lock.
func (h V1Posts) Moderate(c echo.Context) error {
	var req api.V1ModerationRequest
	id, err := idAndBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	title := ""
	if req.Action == "delete" { // gone after, and the toast names it
		if rec, err := h.Store.PostRecordByID(ctx, id); err == nil {
			title = rec.Title
		}
	}
	post, err := h.Actions.ModeratePost(ctx, access.PrincipalFrom(ctx), id, moderation(req.Action, req.Reason, req.Notes, req.NotifyAuthor, req.NotifyReporters))
	if err != nil {
		return err
	}
	if post != nil {
		title = post.Title
	}
	done := Done{Toast: "Post " + moderated[req.Action] + ": “" + views.TitleOr(title) + "”", Events: []string{"plaza:posts"}}
	if c.Path() == api.PathConsoleModeratePost && req.Action != "delete" {
		done.Undo = []string{views.ConsoleUndoPath(itoa(id))}
	}
	if post == nil {
		return respondAction(c, http.StatusOK, api.OK(api.V1DeletedPost{Deleted: true, ID: itoa(id)}), done)
	}
	return respondAction(c, http.StatusOK, api.OK(v1Post(post)), done)
}

func moderation(action, reason, notes string, notifyAuthor, notifyReporters bool) actions.Moderation {
	return actions.Moderation{Action: action, Reason: reason, Notes: notes, NotifyAuthor: notifyAuthor, NotifyReporters: notifyReporters}
}

// moderated is what a moderation action did, as a toast says it.
var moderated = map[string]string{"approve": "approved", "hide": "hidden", "delete": "deleted", "flag": "flagged",
	"dismiss": "cleared: reports dismissed"}

func v1Post(p *models.ListedPost) api.V1Post {
	out := api.V1Post{ID: itoa(p.ID), Title: p.Title, Content: p.Content, Status: p.Status, ReportCount: p.ReportCount,
		Author:    api.V1PostAuthor{ID: itoa(p.AuthorID), Username: p.AuthorUsername, Status: p.AuthorStatus},
		Reports:   make([]api.V1Report, len(p.Reports)),
		CreatedAt: api.Timestamp(p.CreatedAt), UpdatedAt: api.Timestamp(p.UpdatedAt)}
	for i, r := range p.Reports {
		out.Reports[i] = api.V1Report{Reason: r.Reason, Comment: r.Comment, ReportedBy: itoa(r.ReporterID), ReportedAt: api.Timestamp(r.CreatedAt), Status: r.Status}
	}
	if p.LastAction != nil && p.LastActionAt != nil {
		out.LastModeration = &api.V1LastModeration{Action: *p.LastAction, By: p.LastActionBy, At: api.Timestamp(*p.LastActionAt)}
	}
	return out
}

// BulkModerate answers POST /api/v1/admin/posts/bulk-moderate {postIds,
// action, reason?, notes?, notifyAuthor?} through the bulk moderation
// action: one decision for every named post, in one transaction with one
// posts.bulk_moderate audit entry, or for none. Statuses: 200, 401, 403
// (delete without admin:delete, or a session's stale confirmation), 404
// naming unknown ids, 422 (bad body, or approving a draft), 423.
func (h V1Posts) BulkModerate(c echo.Context) error {
	var req api.V1BulkModeration
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ids, err := req.Check()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	n, err := h.Actions.BulkModerate(ctx, access.PrincipalFrom(ctx), ids, moderation(req.Action, req.Reason, req.Notes, req.NotifyAuthor, req.NotifyReporters))
	if err != nil {
		return err
	}
	out := api.V1BulkModerationResult{Moderated: n, IDs: make([]string, len(ids))}
	for i, id := range ids {
		out.IDs[i] = itoa(id)
	}
	done := Done{Toast: plural(out.Moderated, "post") + " " + moderated[req.Action], Events: []string{"plaza:posts"}}
	if c.Path() == api.PathConsoleBulkModerate && req.Action != "delete" {
		for _, id := range out.IDs {
			done.Undo = append(done.Undo, views.ConsoleUndoPath(id))
		}
	}
	return respondAction(c, http.StatusOK, api.OK(out), done)
}

// decisions asks the policy, for each post of the queue's page, whether
// the viewer may decide it: the target is the author with the author's
// highest role, as the moderation action asks. The page's authors are
// read in one query.
func (h V1Posts) decisions(ctx context.Context, rows []models.ListedPost) (map[string]views.Decision, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, 0, len(rows))
	for i := range rows {
		ids = append(ids, rows[i].AuthorID)
	}
	authors, err := h.Store.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	roles := make(map[int64]string, len(authors))
	for _, u := range authors {
		if u.TopRole != nil {
			roles[u.ID] = *u.TopRole
		}
	}
	who := access.PrincipalFrom(ctx)
	out := make(map[string]views.Decision, len(rows))
	for i := range rows {
		author := rows[i].AuthorID
		target := policy.Owned(author)
		if role, ok := roles[author]; ok {
			target = policy.Person(author, []string{role})
		}
		out[itoa(rows[i].ID)] = views.Decision{May: h.Actions.Policy.May(who, policy.ModeratePost, target),
			Own: who != nil && who.UserID == author, AuthorRole: roles[author]}
	}
	return out, nil
}
