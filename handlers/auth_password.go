package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
)

// PasswordStore is what a password change needs of the store.
type PasswordStore interface {
	UserByID(ctx context.Context, id int64) (*models.User, error)
	ChangePassword(ctx context.Context, userID int64, hash, keep string) (int, error)
}

// ChangePassword answers POST /api/auth/password {currentPassword,
// newPassword}: the caller's password changes and every other session of
// theirs ends in the same transaction. A wrong current password is 403
// and counts against sign-in's failure throttle, so the route is no way
// round it.
type ChangePassword struct {
	Store    PasswordStore
	Sessions Sessions
}

// Handle answers POST /api/auth/password.
func (h ChangePassword) Handle(c echo.Context) error {
	var req api.PasswordChange
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := h.Store.UserByID(ctx, auth.PrincipalFrom(ctx).UserID)
	if err != nil {
		return err
	}
	if is := passwordIssue(req.NewPassword, u.Email); is != nil {
		is.Path = []string{"newPassword"}
		return api.Invalid(*is)
	}
	if err := h.checkCurrent(ctx, u, req.CurrentPassword); err != nil {
		return err
	}
	hash, err := auth.HashPassword(req.NewPassword)
	if err != nil {
		return err
	}
	n, err := h.Store.ChangePassword(ctx, u.ID, hash, h.Sessions.Token(ctx))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.PasswordChanged{Changed: true, RevokedSessions: n})
}

// checkCurrent verifies the current password under sign-in's failure
// throttle for the user's email.
func (h ChangePassword) checkCurrent(ctx context.Context, u *models.User, password string) error {
	if u.PasswordHash == nil {
		return actions.ErrNoPassword
	}
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	if err := m.Check(ctx, u.Email); err != nil {
		return err
	}
	if auth.CheckPassword(password, *u.PasswordHash) == nil {
		return nil
	}
	if err := m.Take(ctx, u.Email, 1); err != nil {
		return err
	}
	return actions.ErrWrongPassword
}
