package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Page answers GET /admin/posts/{id}, a post's own page in the console:
// the whole post, its latest reports and every moderation decision on it.
// Reading it is what reading the post asks (actions.SeePost): a post the
// caller may not see is not found. Statuses: 200, 401, 403, 404.
func (h V1Posts) Page(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	post, err := h.Store.ListedPostByID(ctx, id)
	if err != nil {
		return err
	}
	if err := h.Actions.SeePost(access.PrincipalFrom(ctx), &models.PostRecord{Post: post.Post}); err != nil {
		return err
	}
	decisions, err := h.Store.PostDecisions(ctx, id)
	if err != nil {
		return err
	}
	out := api.V1PostPage{Post: v1Post(post), History: make([]api.V1PostDecision, len(decisions))}
	ids := []string{}
	for i, d := range decisions {
		out.History[i] = api.V1PostDecision{ID: itoa(d.ID), Action: d.Action, Reason: d.Reason, Notes: d.Notes,
			FromStatus: d.FromStatus, ToStatus: d.ToStatus, ReportsSettled: d.ReportsSettled, At: api.Timestamp(d.CreatedAt)}
		if d.AdminID != nil {
			by := itoa(*d.AdminID)
			out.History[i].By, ids = &by, append(ids, by)
		}
	}
	for _, r := range out.Post.Reports {
		ids = append(ids, r.ReportedBy)
	}
	people, err := lookUpPeople(ctx, h.Store, append(ids, out.Post.Author.ID))
	if err != nil {
		return err
	}
	page := views.PostPage{Post: out, People: people}
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.PostDetail(page), Page: views.PostDetailPage(page)})
}
