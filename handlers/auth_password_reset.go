package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

// PasswordReset answers the two steps of a forgotten password: asking for
// a link by mail, and setting a new password with it.
type PasswordReset struct {
	Actions *actions.Actions
}

// Forgot answers POST /api/auth/password/forgot {email}: 202 with the same
// body whether or not the address has an account; 422 for an address that
// is not one, 429 past the limits per email and per address.
func (h PasswordReset) Forgot(c echo.Context) error {
	var req api.PasswordForgot
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	if err := h.Actions.ForgotPassword(ctx, access.PrincipalFrom(ctx), req.Email, m); err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, api.PasswordForgotAccepted{Message: api.ForgotAccepted})
}

// Reset answers POST /api/auth/password/reset {token, password, code?}:
// 200 with what ended; 422 for a token no longer valid or a password the
// rule refuses; 401 TOTP_REQUIRED for an account with two-factor sign-in
// and no code.
func (h PasswordReset) Reset(c echo.Context) error {
	var req api.PasswordReset
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	out, err := h.Actions.ResetPassword(ctx, access.PrincipalFrom(ctx), actions.PasswordReset{Token: req.Token,
		Password: req.Password, Code: req.Code, Tries: m})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.PasswordChanged{Changed: true, RevokedSessions: out.EndedSessions, RevokedTokens: out.RevokedTokens})
}
