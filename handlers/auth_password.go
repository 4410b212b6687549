package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

// ChangePassword answers POST /api/auth/password {currentPassword,
// newPassword}: the caller's password changes and every other session of
// theirs ends and every API token of theirs is revoked in the same
// transaction, and this session gets a new id. A wrong current password is 403
// and counts against sign-in's failure throttle, so the route is no way
// round it.
type ChangePassword struct {
	Actions  *actions.Actions
	Sessions Sessions
}

// Handle answers POST /api/auth/password.
func (h ChangePassword) Handle(c echo.Context) error {
	var req api.PasswordChange
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	out, err := h.Actions.ChangePassword(ctx, p, actions.PasswordChange{Current: req.CurrentPassword, New: req.NewPassword,
		KeepSession: h.Sessions.Token(ctx), Throttle: m})
	if err != nil {
		return err
	}
	// A copy of the cookie taken before the change must not outlive it.
	// The session itself lives no longer than it would have.
	deadline := h.Sessions.Deadline(ctx)
	if err := h.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	h.Sessions.SetDeadline(ctx, deadline)
	return c.JSON(http.StatusOK, api.PasswordChanged{Changed: true, RevokedSessions: out.EndedSessions,
		RevokedTokens: out.RevokedTokens})
}
