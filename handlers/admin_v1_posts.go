package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// V1PostStore is what the versioned admin posts handlers need.
type V1PostStore interface {
	ChangeLocked(ctx context.Context, typ, id string, userID int64, fn func(ctx context.Context) error) error
	ListPostsAdmin(ctx context.Context, f models.PostListFilter) ([]models.ListedPost, int, error)
	ListedPostByID(ctx context.Context, id int64) (*models.ListedPost, error)
	ModeratePost(ctx context.Context, m models.Moderation) (string, error)
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	CheckLocks(ctx context.Context, typ string, ids []string, userID int64) error
}

// V1Posts answers the versioned admin family's posts routes
// (/api/v1/admin/posts), and the console's moderation queue from
// the same results.
type V1Posts struct {
	Store   V1PostStore
	Reasons ModerationReasons
}

// List answers GET /api/v1/admin/posts: a page of posts filtered by
// status, author, open reports and title, sorted as asked. Statuses: 200,
// 401, 403, 422. The console's moderation queue (GET /admin/moderation)
// runs it too, sorted by reports (most first) unless it asks otherwise.
func (h V1Posts) List(c echo.Context) error {
	q := c.QueryParams()
	queue := c.Path() == api.PathConsoleModeration
	if queue {
		q = queueDefaults(q)
	}
	p, err := api.ParseV1Posts(q)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, total, err := h.Store.ListPostsAdmin(ctx, models.PostListFilter{
		Status: p.Status, AuthorID: p.AuthorID, Reported: p.Reported, NeedsReview: p.NeedsReview, Search: p.Search, Sort: p.Sort, Desc: p.Desc,
		Limit: p.Page.Limit, Offset: p.Page.Offset,
	})
	if err != nil {
		return err
	}
	out := make([]api.V1Post, len(rows))
	for i := range rows {
		out[i] = v1Post(&rows[i])
	}
	page := api.Page(out, total, p.Page)
	if !queue || wantsJSON(c) {
		return c.JSON(http.StatusOK, page)
	}
	list := views.PostQueue{Posts: out, Pagination: page.Meta.Pagination, Query: consoleQuery(c, "report_count", true)}
	if list.Reasons, err = h.Reasons.read(ctx); err != nil {
		return err
	}
	return respond(c, http.StatusOK, page, View{Partial: views.PostQueueList(list), Page: views.ModerationPage(list)})
}

// queueDefaults fills in what the moderation queue shows unless asked
// otherwise: the posts awaiting a decision, most reported first.
func queueDefaults(q url.Values) url.Values {
	q = cloneValues(q)
	for name, value := range map[string]string{"sort": "report_count", "needsReview": "true"} {
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
// notes, notifyAuthor}: the post as it now is, or {deleted, id} after a
// delete, which needs admin:delete too. Statuses: 200, 401, 403, 404, 422
// (approving a draft), 423 while another admin holds the post's lock.
func (h V1Posts) Moderate(c echo.Context) error {
	var req api.V1ModerationRequest
	id, err := idAndBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	caller := auth.PrincipalFrom(ctx)
	if err := mayModerate(caller, req.Action); err != nil {
		return err
	}
	var post *models.ListedPost
	err = h.Store.ChangeLocked(ctx, "post", itoa(id), caller.UserID, func(ctx context.Context) error {
		from, err := h.Store.ModeratePost(ctx, models.Moderation{PostID: id, AdminID: caller.UserID, Action: req.Action,
			Reason: req.Reason, Notes: req.Notes, NotifyAuthor: req.NotifyAuthor})
		if errors.Is(err, models.ErrDraftNotApproved) {
			return api.Invalid(api.FieldIssue("action", "invalid_enum_value", "a draft is published by its author, not approved"))
		}
		if err != nil {
			return err
		}
		setAuditTarget(ctx, "post", itoa(id), map[string]any{"action": req.Action, "reason": req.Reason,
			"from": from, "notifyAuthor": req.NotifyAuthor})
		if req.Action != "delete" {
			post, err = h.Store.ListedPostByID(ctx, id)
		}
		return err
	})
	if err != nil {
		return err
	}
	done := Done{Toast: "Post " + moderated[req.Action], Events: []string{"plaza:posts"}}
	if post == nil {
		return respondAction(c, http.StatusOK, api.OK(api.V1DeletedPost{Deleted: true, ID: itoa(id)}), done)
	}
	return respondAction(c, http.StatusOK, api.OK(v1Post(post)), done)
}

// moderated is what a moderation action did, as a toast says it.
var moderated = map[string]string{"approve": "approved", "hide": "hidden", "delete": "deleted", "flag": "flagged"}

func v1Post(p *models.ListedPost) api.V1Post {
	out := api.V1Post{ID: itoa(p.ID), Title: p.Title, Content: p.Content, Status: p.Status, ReportCount: p.ReportCount,
		Author:    api.V1PostAuthor{ID: itoa(p.AuthorID), Username: p.AuthorUsername, Status: p.AuthorStatus},
		Reports:   make([]api.V1Report, len(p.Reports)),
		CreatedAt: api.Timestamp(p.CreatedAt), UpdatedAt: api.Timestamp(p.UpdatedAt)}
	for i, r := range p.Reports {
		out.Reports[i] = api.V1Report{Reason: r.Reason, ReportedBy: itoa(r.ReporterID), ReportedAt: api.Timestamp(r.CreatedAt), Status: r.Status}
	}
	if p.LastAction != nil && p.LastActionAt != nil {
		out.LastModeration = &api.V1LastModeration{Action: *p.LastAction, By: p.LastActionBy, At: api.Timestamp(*p.LastActionAt)}
	}
	return out
}

// BulkModerate answers POST /api/v1/admin/posts/bulk-moderate {postIds,
// action, reason?, notes?, notifyAuthor?}: one decision for every named
// post, in one transaction with one posts.bulk_moderate audit entry, or for
// none. Statuses: 200, 401, 403 (delete without admin:delete), 404 naming
// unknown ids, 422 (bad body, or approving a draft), 423.
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
	caller := auth.PrincipalFrom(ctx)
	if err := mayModerate(caller, req.Action); err != nil {
		return err
	}
	out := api.V1BulkModerationResult{IDs: make([]string, len(ids))}
	keys := make([]string, len(ids))
	for i, id := range ids {
		out.IDs[i], keys[i] = itoa(id), itoa(id)
	}
	err = h.Store.Change(ctx, func(ctx context.Context) error {
		if err := h.Store.CheckLocks(ctx, "post", keys, caller.UserID); err != nil {
			return err
		}
		from := make(map[string]string, len(ids))
		for _, id := range ids {
			was, err := h.Store.ModeratePost(ctx, models.Moderation{PostID: id, AdminID: caller.UserID, Action: req.Action,
				Reason: req.Reason, Notes: req.Notes, NotifyAuthor: req.NotifyAuthor})
			if err != nil {
				return bulkModerationError(id, err)
			}
			from[itoa(id)] = was
		}
		out.Moderated = len(ids)
		setAuditTarget(ctx, "posts", "", map[string]any{"action": req.Action, "reason": req.Reason, "count": len(ids), "from": from})
		return nil
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: plural(out.Moderated, "post") + " " + moderated[req.Action],
		Events: []string{"plaza:posts"}})
}

// bulkModerationError names the post a bulk moderation stopped at.
func bulkModerationError(id int64, err error) error {
	switch {
	case errors.Is(err, models.ErrNotFound):
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "No post has id " + itoa(id)}
	case errors.Is(err, models.ErrDraftNotApproved):
		return api.Invalid(api.FieldIssue("postIds", "invalid_enum_value", "post "+itoa(id)+" is a draft, which its author publishes"))
	}
	return err
}

// mayModerate refuses a delete to a caller without admin:delete, which the
// route's own permissions (admin:write) do not imply.
func mayModerate(caller *auth.Principal, action string) error {
	if action == "delete" && !caller.Can(auth.PermAdminDelete) {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeInsufficientAdminPermissions,
			Message: "Deleting posts needs admin:delete", RequiredPermission: auth.PermAdminDelete}
	}
	return nil
}
