package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// Session answers GET /api/auth/session: {user, expires} when signed in
// with a session cookie, {} otherwise.
type Session struct {
	Sessions Sessions
}

// Handle answers GET /api/auth/session.
func (h Session) Handle(c echo.Context) error {
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	noStore(c)
	if p == nil || p.Via != access.ViaSession {
		return c.JSON(http.StatusOK, api.NoSession{})
	}
	return c.JSON(http.StatusOK, api.Session{User: principalUser(p), Expires: api.Timestamp(h.Sessions.Deadline(ctx))})
}

func principalUser(p *access.Principal) api.SessionUser {
	u := api.SessionUser{ID: itoa(p.UserID), Email: p.Email, Role: p.Role()}
	if p.Name != "" {
		u.Name = &p.Name
	}
	if p.Image != "" {
		u.Image = &p.Image
	}
	return u
}

// Providers answers GET /api/auth/providers: password sign-in, as
// next-auth's credentials provider, and the enabled external providers,
// by id.
type Providers struct {
	List      func() []api.Provider
	PublicURL string
}

// Handle answers GET /api/auth/providers.
func (h Providers) Handle(c echo.Context) error {
	out := api.Providers{api.CredentialsProviderID: api.CredentialsProvider(h.PublicURL)}
	for _, p := range h.List() {
		out[p.ID] = p
	}
	return c.JSON(http.StatusOK, out)
}

// SignOut serves the confirmation page and ends the session.
type SignOut struct {
	Sessions  Sessions
	CSRF      CSRFCookie
	PublicURL string
}

// Page answers GET /api/auth/signout.
func (h SignOut) Page(c echo.Context) error {
	var email string
	if p := access.PrincipalFrom(c.Request().Context()); p != nil {
		email = p.Email
	}
	return render(c, http.StatusOK, views.SignOutPage(api.SignOutPage{Email: email}))
}

// clearOnSignOut is the Clear-Site-Data of a sign-out: the browser's cache
// and the site's storage; its cookies stay (the device cookie keeps the
// owner's browser known to the sign-in throttle).
const clearOnSignOut = `"cache", "storage"`

// Handle answers POST /api/auth/signout: API clients get {}, browsers a
// redirect to the sign-in page. next-auth's client (a form with json=true
// or a csrfToken) must send the token its cookie carries, and gets {url}
// of its callbackUrl (this site only, else the sign-in page).
func (h SignOut) Handle(c echo.Context) error {
	form, nextAuth, err := nextAuthForm(c)
	if err != nil {
		return err
	}
	if nextAuth {
		if err := h.CSRF.check(c, form); err != nil {
			return err
		}
	}
	if err := h.Sessions.Destroy(c.Request().Context()); err != nil {
		return err
	}
	// Whatever the browser kept of the pages the session saw (console
	// pages hold other people's emails) goes with it: its cache and this
	// site's storage, where htmx keeps its history snapshots.
	c.Response().Header().Set("Clear-Site-Data", clearOnSignOut)
	if nextAuth {
		return nextAuthAnswer(c, form, absolute(h.PublicURL, safeCallback(form.Get("callbackUrl"), h.PublicURL, api.PathSignIn)))
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.SignedOut{})
	}
	return redirectTo(c, api.PathSignIn)
}
