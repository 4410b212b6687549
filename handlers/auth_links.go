package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// ProviderLinker lists the provider accounts linked to a user.
type ProviderLinker interface {
	ProviderLinks(ctx context.Context, userID int64) ([]models.ProviderAccount, error)
}

// ProviderLinks builds the account page's "Linked sign-in providers".
type ProviderLinks struct {
	Store ProviderLinker
	// Providers are the enabled sign-in providers.
	Providers func() []api.Provider
}

// Of is user userID's links and the providers that may be linked.
func (l ProviderLinks) Of(ctx context.Context, userID int64) (api.ProviderLinks, error) {
	out := api.ProviderLinks{Links: []api.LinkedProvider{}, Providers: []api.Provider{}}
	rows, err := l.Store.ProviderLinks(ctx, userID)
	if err != nil {
		return out, err
	}
	for _, r := range rows {
		out.Links = append(out.Links, api.LinkedProvider{Provider: r.Provider, Name: auth.ProviderName(r.Provider), Email: r.Email,
			LinkedAt: api.Timestamp(r.CreatedAt), LastUsedAt: api.OptionalTimestamp(r.LastUsedAt)})
	}
	for _, p := range l.Providers() {
		if p.Type == "oauth" {
			out.Providers = append(out.Providers, p)
		}
	}
	return out, nil
}

// ListLinks answers GET /api/auth/links: the caller's linked provider accounts.
func (h OAuth) ListLinks(c echo.Context) error {
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	res, err := h.Links.Of(ctx, p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

// BeginLink answers POST /api/auth/links/{provider}: a signed-in session,
// freshly confirmed (403 SUDO_REQUIRED otherwise), starts linking the
// provider to its own account. JSON callers get {url} of the provider's
// authorization page; htmx an HX-Redirect there, a form 303. The callback
// then links the provider account the person signs in to, whatever its
// email, to this account only.
func (h OAuth) BeginLink(c echo.Context) error {
	ctx := c.Request().Context()
	who := access.PrincipalFrom(ctx)
	if err := h.Actions.MayLinkProvider(ctx, who); err != nil {
		return err
	}
	authURL, err := h.begin(c, c.Param("provider"), api.PathConsoleTwoFactor, who.UserID)
	if err != nil {
		return err
	}
	if api.FormatOf(c.Request()) == api.FormatJSON {
		return c.JSON(http.StatusOK, api.NextAuthURL{URL: authURL})
	}
	return redirectTo(c, authURL)
}

// finishLink ends a link's round trip: the session must still be the one
// of the person who began it; the provider account is linked to theirs,
// and the browser goes back to the account page. A provider account
// another Plaza account holds is 409 CONFLICT.
func (h OAuth) finishLink(c echo.Context, userID int64, id models.OAuthIdentity) error {
	ctx := c.Request().Context()
	name := auth.ProviderName(id.Provider)
	who := access.PrincipalFrom(ctx)
	if who == nil || who.Via != access.ViaSession || who.UserID != userID {
		return h.refuse(c, "Sign in again, then link "+name+" from your account page", nil)
	}
	if err := h.Actions.LinkProvider(ctx, who, id); err != nil {
		return err // models.ErrLinkedElsewhere: 409
	}
	return c.Redirect(http.StatusSeeOther, api.PathConsoleTwoFactor)
}

// Unlink answers DELETE /api/auth/links/{provider}: the caller's links to
// the provider go. 404 when none is linked; 409 when it is the only way
// into an account without a password. htmx gets the page's card again.
func (h OAuth) Unlink(c echo.Context) error {
	ctx := c.Request().Context()
	who := access.PrincipalFrom(ctx)
	id := c.Param("provider")
	n, err := h.Actions.UnlinkProvider(ctx, who, id)
	if err != nil {
		return err
	}
	if n == 0 {
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "No " + auth.ProviderName(id) + " account is linked to yours"}
	}
	links, err := h.Links.Of(ctx, who.UserID)
	if err != nil {
		return err
	}
	return respondShown(c, http.StatusOK, api.ProviderUnlinked{Unlinked: n}, views.ProviderLinksCard(links),
		Done{Toast: auth.ProviderName(id) + " is unlinked"})
}
