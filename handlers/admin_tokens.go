package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// TokenStore is what the token list needs.
type TokenStore interface {
	ListAPITokens(ctx context.Context) ([]models.APIToken, error)
}

// Tokens mints, lists and revokes admin API tokens (docs/console.md, "API tokens").
// Every route needs admin:super; minting, a signed-in session under a
// fresh confirmation. Statuses: 201, 200, 401, 403, 404, 422.
type Tokens struct {
	Store   TokenStore
	People  People
	Actions *actions.Actions
}

// Create answers POST /api/v1/admin/tokens: {permissions, ttl, name?} →
// 201 {id, token, expiresAt}. A bearer token is 403 (a token never mints
// another); a session needs a fresh confirmation (403 SUDO_REQUIRED).
func (h Tokens) Create(c echo.Context) error {
	var req api.TokenRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	perms, ttl, err := checkTokenRequest(req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tok, err := h.Actions.MintToken(ctx, access.PrincipalFrom(ctx), actions.TokenInput{Permissions: perms, TTL: ttl, Name: req.Name})
	if err != nil {
		return err
	}
	res := api.NewToken{ID: tok.Record.JTI, Token: tok.Token, ExpiresAt: api.Timestamp(tok.Record.ExpiresAt)}
	// The console must show the token, this once: htmx gets the panel
	// holding it rather than a bodiless answer.
	return respondShown(c, http.StatusCreated, api.OK(res), views.NewTokenPanel(res),
		Done{Toast: "Token created: copy it now", Events: []string{"plaza:tokens"}})
}

func checkTokenRequest(req api.TokenRequest) ([]string, time.Duration, error) {
	var issues []api.Issue
	perms, err := access.ParsePermissions(req.Permissions)
	switch {
	case err != nil:
		issues = append(issues, api.FieldIssue("permissions", "invalid_enum_value", err.Error()))
	case len(perms) == 0:
		issues = append(issues, api.FieldIssue("permissions", "too_small", "at least one permission is required"))
	}
	ttl, err := actions.ParseTokenTTL(req.TTL)
	if err != nil {
		issues = append(issues, api.FieldIssue("ttl", "invalid_string", "ttl "+actions.TokenTTLRule))
	}
	if len(issues) > 0 {
		return nil, 0, api.Invalid(issues...)
	}
	return perms, ttl, nil
}

// List answers GET /api/v1/admin/tokens: unexpired tokens, newest first;
// and the console's tokens page from the same result.
func (h Tokens) List(c echo.Context) error {
	rows, err := h.Store.ListAPITokens(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]api.Token, len(rows))
	for i, t := range rows {
		out[i] = api.Token{ID: t.JTI, Name: t.Name, UserID: itoa(t.UserID), Permissions: t.PermissionList(),
			CreatedAt: api.Timestamp(t.CreatedAt), ExpiresAt: api.Timestamp(t.ExpiresAt),
			RevokedAt: api.OptionalTimestamp(t.RevokedAt), LastUsedAt: api.OptionalTimestamp(t.LastUsedAt)}
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.OK(out))
	}
	ids := make([]string, len(out))
	for i, t := range out {
		ids[i] = t.UserID
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, ids)
	if err != nil {
		return err
	}
	l := views.TokenList{Tokens: out, People: people, Offered: access.AllPermissions()}
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.TokenTable(l), Page: views.TokensPage(l)})
}

// Revoke answers DELETE /api/v1/admin/tokens/{jti}: the token stops working
// at once. Unknown jti: 404.
func (h Tokens) Revoke(c echo.Context) error {
	ctx := c.Request().Context()
	jti := c.Param("id")
	if err := h.Actions.RevokeToken(ctx, access.PrincipalFrom(ctx), jti); err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.RevokedToken{Revoked: true, ID: jti}),
		Done{Toast: "Token revoked", Events: []string{"plaza:tokens"}})
}
