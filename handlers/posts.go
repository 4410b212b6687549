package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// PostStore is what the general API's post handlers read; every change is
// an action.
type PostStore interface {
	PostFeed(ctx context.Context, f models.PostFeedFilter) ([]models.PostRecord, int, error)
	PostRecordByID(ctx context.Context, id int64) (*models.PostRecord, error)
}

// Posts serves the general API's posts and reports (docs/api.md,
// "Posts"). Published posts are everyone's; the others only their
// author's and those the policy lets see unpublished posts (moderators).
// Edits and deletions go through the post actions. Statuses: 200, 201,
// 401, 403, 404, 422, 423 (another admin's edit lock), 429.
type Posts struct {
	Store   PostStore
	Actions *actions.Actions
}

// List answers GET /api/posts?author&published&tag&sort&order&limit&offset.
// published=false lists unpublished posts: all of them for moderators, the
// caller's own for anyone else (none when anonymous). Staff who may not
// use their power to read now (an unenrolled staff session under
// REQUIRE_STAFF_2FA) are refused unpublished posts other than their own,
// with the policy's reason, rather than shown less without a word.
func (h Posts) List(c echo.Context) error {
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	staffRead := h.Actions.Policy.Check(p, policy.SeeUnpublishedPosts, policy.Platform)
	f, err := parsePostFeed(c, p, staffRead == nil)
	if err != nil {
		return err
	}
	ownOnly := f.AuthorID != nil && *f.AuthorID == f.ViewerID
	if f.Unpublished && !ownOnly && errors.Is(staffRead, policy.ErrNeedsSecondFactor) {
		return staffRead
	}
	if !h.Actions.Policy.May(p, policy.SeeOwnAccount, policy.AsSelf(p)) {
		f.ViewerID = 0 // a token without account:read lists no drafts of its own
	}
	rows, total, err := h.Store.PostFeed(ctx, f)
	if err != nil {
		return err
	}
	out := make([]api.Post, len(rows))
	for i := range rows {
		out[i] = postRecord(&rows[i])
	}
	return c.JSON(http.StatusOK, api.PostList{Posts: out, Total: total, Limit: f.Limit, Offset: f.Offset})
}

// parsePostFeed reads the feed's query for p; seesAll lists every
// unpublished post where others see only their own.
func parsePostFeed(c echo.Context, p *access.Principal, seesAll bool) (models.PostFeedFilter, error) {
	q := c.QueryParams()
	page, issues := api.ParseGeneralPage(q)
	author, is := api.ParseID(q, "author")
	issues = append(issues, is...)
	published, is := api.ParseChoice(q, "published", "true", "true", "false")
	issues = append(issues, is...)
	sort, is := api.ParseChoice(q, "sort", "created_at", "created_at", "updated_at", "title")
	issues = append(issues, is...)
	order, is := api.ParseChoice(q, "order", "desc", "asc", "desc")
	issues = append(issues, is...)
	tag := strings.ToLower(strings.TrimSpace(q.Get("tag")))
	if q.Has("tag") && !actions.ValidTag(tag) {
		issues = append(issues, api.FieldIssue("tag", "invalid_string", actions.TagRule))
	}
	f := models.PostFeedFilter{AuthorID: author, Tag: tag, Unpublished: published == "false", Moderator: seesAll,
		Sort: sort, Desc: order == "desc", Limit: page.Limit, Offset: page.Offset}
	if p != nil {
		f.ViewerID = p.UserID
	}
	if len(issues) > 0 {
		return f, api.Invalid(issues...)
	}
	return f, nil
}

func postRecord(p *models.PostRecord) api.Post {
	return api.Post{ID: itoa(p.ID), Title: p.Title, Content: p.Content, AuthorID: itoa(p.AuthorID),
		Author:    api.PostAuthor{ID: itoa(p.AuthorID), Username: p.AuthorUsername},
		CreatedAt: api.Timestamp(p.CreatedAt), UpdatedAt: api.Timestamp(p.UpdatedAt),
		Published: p.Status == models.PostPublished, Status: p.Status, Tags: p.Tags()}
}

// Get answers GET /api/posts/{id}; a post the caller may not see is 404.
func (h Posts) Get(c echo.Context) error {
	ctx := c.Request().Context()
	post, err := h.visible(ctx, c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, postRecord(post))
}

// visible loads the post the path names, if the caller may see it.
func (h Posts) visible(ctx context.Context, c echo.Context) (*models.PostRecord, error) {
	id, err := pathID(c)
	if err != nil {
		return nil, err
	}
	post, err := h.Store.PostRecordByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := h.Actions.SeePost(access.PrincipalFrom(ctx), post); err != nil {
		return nil, err
	}
	return post, nil
}

var (
	errCannotPost = &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "This account cannot post or report"}
	errOwnPost    = &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "You cannot report your own post"}
)

// Create answers POST /api/posts {title, content, tags?, published?} → 201
// with the post, whose author is the caller: published, or a draft when
// published is false or absent.
func (h Posts) Create(c echo.Context) error {
	var req api.NewPost
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	in := models.PostInput{Title: req.Title, Content: req.Content, Tags: req.Tags, Published: req.Published}
	post, err := h.Actions.CreatePost(ctx, access.PrincipalFrom(ctx), in)
	if errors.Is(err, models.ErrUserNotActive) {
		return errCannotPost
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, postRecord(post))
}

// Update answers PUT /api/posts/{id} {title?, content?, tags?,
// published?} through the post edit action: the title, content and tags
// are the author's alone. published:true publishes the author's draft;
// published:false turns the author's published post back into a draft. On
// a hidden or flagged post, and on someone else's, the flag is moderation
// (see actions.EditPost): only a moderator republishes one, or hides
// someone else's published post.
func (h Posts) Update(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.PostUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	after, err := h.Actions.EditPost(ctx, access.PrincipalFrom(ctx), actions.PostEdit{PostID: id,
		Title: req.Title, Content: req.Content, Tags: req.Tags, Published: req.Published})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, postRecord(after))
}

// Delete answers DELETE /api/posts/{id} through the post delete action:
// the author's own, or anyone's with admin:delete (audited when the post
// is someone else's).
func (h Posts) Delete(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := h.Actions.DeletePost(ctx, access.PrincipalFrom(ctx), id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.Deleted{Deleted: true, ID: itoa(id)})
}

// Report answers POST /api/posts/{id}/report {reason, comment?} → 201
// with the report; a comment over 500 characters is 422. One open report per user and post (a second is 422); one's own
// post cannot be reported (403). The fifth user's open report flags a
// published post (models.ReportPost).
func (h Posts) Report(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.ReportRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := h.Actions.ReportPost(ctx, access.PrincipalFrom(ctx), id, req.Reason, req.Comment)
	switch {
	case errors.Is(err, actions.ErrOwnReport):
		return errOwnPost
	case errors.Is(err, models.ErrAlreadyReported):
		return api.Invalid(api.FieldIssue("id", "custom", "you have an open report on this post already"))
	case errors.Is(err, models.ErrUserNotActive):
		return errCannotPost
	case err != nil:
		return err
	}
	return c.JSON(http.StatusCreated, api.Report{ID: itoa(r.ID), PostID: itoa(r.PostID), Reason: r.Reason, Comment: r.Comment,
		Status: r.Status, CreatedAt: api.Timestamp(r.CreatedAt)})
}
