package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// PasswordReset answers POST /api/v1/admin/users/{id}/password-reset: a
// reset of the user's password, mailed ({sent: true, expiresAt}) or, when
// no mail can be sent, a link to hand over ({url, expiresAt}) (docs/api.md,
// "Password resets by staff"). The console gets the panel that says so,
// with the link this once. Statuses: 200, 401, 403 (self, rank,
// SUDO_REQUIRED), 404.
func (h V1Users) PasswordReset(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.StartPasswordReset(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	out := api.V1PasswordReset{Sent: res.Sent, URL: res.URL, ExpiresAt: api.Timestamp(res.ExpiresAt)}
	toast := "Reset link created: copy it now"
	if out.Sent {
		toast = "Password reset mail sent"
	}
	return respondShown(c, http.StatusOK, api.OK(out), views.PasswordResetPanel(out), Done{Toast: toast})
}
