package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// Undo answers POST /api/v1/admin/posts/{id}/moderate/undo and the
// console's POST /admin/moderation/{id}/undo: the caller's own last
// decision on the post, within ten minutes and not a delete, is taken
// back (the previous status, exactly the reports it settled open again),
// through the undo action. The answer names the decision undone, the
// status again, how many reports reopened and the post; htmx gets a toast
// saying so. Statuses: 200, 401, 403, 404, 422 (nothing of the caller's
// to undo, or a reporter reported again since), 423.
func (h V1Posts) Undo(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	undone, post, err := h.Actions.UndoModeration(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	out := api.V1UndoResult{Undone: undone.Action, Status: undone.Status, Reopened: undone.Reopened, Post: v1Post(post)}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: undoneToast(undone), Events: []string{"plaza:posts"}})
}

// undoneToast says what an undo did.
func undoneToast(u *models.Undone) string {
	msg := "Undid the " + u.Action + ": the post is " + u.Status + " again"
	if u.Reopened > 0 {
		msg += ", " + plural(u.Reopened, "report") + " open again"
	}
	return msg
}
