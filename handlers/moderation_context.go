package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Context answers GET /admin/moderation/{id}/context: what a moderator
// reads before deciding on one post (the whole post, its open reports
// with their reporters' accuracy, the author's standing), as the panel a
// queue row opens for htmx, or JSON. Statuses: 200, 401, 403, 404.
func (h V1Posts) Context(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	pc, err := h.Store.PostContextByID(c.Request().Context(), id)
	if err != nil {
		return err
	}
	out := postContext(pc)
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.PostContextPanel(out), Page: views.PostContextPage(out)})
}

func postContext(pc *models.PostContext) api.V1PostContext {
	st := pc.Standing
	out := api.V1PostContext{Post: v1Post(&pc.Post), Reports: make([]api.V1ContextReport, len(pc.Reports)),
		Standing: api.V1AuthorStanding{JoinedAt: api.Timestamp(st.JoinedAt), Bans: st.Bans, Timeouts: st.Timeouts,
			Moderations: st.Moderations, Hidden: st.Hidden, Removed: st.Removed, ReportedPosts: st.ReportedPosts, OpenReported: st.OpenReported}}
	for i, r := range pc.Reports {
		out.Reports[i] = api.V1ContextReport{ID: itoa(r.ID), Reason: r.Reason, Comment: r.Comment, ReportedAt: api.Timestamp(r.CreatedAt),
			Reporter: api.V1Reporter{ID: itoa(r.ReporterID), Username: r.ReporterUsername, Upheld: r.Upheld, Settled: r.Upheld + r.Rejected}}
	}
	return out
}
