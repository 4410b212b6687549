package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/csrf"
	"github.com/plazahq/plaza/views"
)

// CSRFCookie is next-auth's double-submit token (docs/security.md,
// "next-auth's CSRF token"): GET /api/auth/csrf hands the token out and
// leaves it, signed, in an HttpOnly cookie; a post from next-auth's client
// carries it back as the form field csrfToken, and both must agree.
type CSRFCookie struct {
	Key    []byte // csrf.Key
	Secure bool   // behind https: Secure, and the __Host- name
}

func (k CSRFCookie) name() string {
	if k.Secure {
		return csrf.SecureCookieName
	}
	return csrf.CookieName
}

// token is the token of the request's cookie, or a new one with its
// cookie set on the response.
func (k CSRFCookie) token(c echo.Context) string {
	if ck, err := c.Cookie(k.name()); err == nil {
		if token, ok := csrf.FromCookie(k.Key, ck.Value); ok {
			return token
		}
	}
	token, value := csrf.New(k.Key)
	c.SetCookie(&http.Cookie{Name: k.name(), Value: value, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: k.Secure})
	return token
}

var errCSRF = &api.Error{Status: http.StatusForbidden, Code: api.CodeCSRFInvalid,
	Message: "The form's csrfToken is missing or is not the one this browser was given (GET " + api.PathCSRF + ")"}

// check refuses a form whose csrfToken is not its cookie's.
func (k CSRFCookie) check(c echo.Context, form url.Values) error {
	ck, err := c.Cookie(k.name())
	if err != nil || !csrf.Verify(k.Key, ck.Value, form.Get("csrfToken")) {
		return errCSRF
	}
	return nil
}

// nextAuthForm reads a form post and tells whether next-auth's client
// sent it: it asks for {url} (json=true) or carries a csrfToken.
func nextAuthForm(c echo.Context) (url.Values, bool, error) {
	if !isFormBody(c) {
		return nil, false, nil
	}
	form, err := decodeForm(c)
	if err != nil {
		return nil, false, err
	}
	return form, form.Get("json") == "true" || form.Has("csrfToken"), nil
}

func isFormBody(c echo.Context) bool {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	return strings.HasPrefix(ct, echo.MIMEApplicationForm) || strings.HasPrefix(ct, echo.MIMEMultipartForm)
}

// nextAuthAnswer is next-auth's answer to a post: {url} when its client
// asks (json=true), else a redirect there, as next-auth's server does.
func nextAuthAnswer(c echo.Context, form url.Values, target string) error {
	noStore(c)
	if form.Get("json") == "true" {
		return c.JSON(http.StatusOK, api.NextAuthURL{URL: target})
	}
	return c.Redirect(http.StatusFound, target)
}

// absolute is a path of this site as the absolute URL next-auth's client
// needs (it parses the url it gets).
func absolute(publicURL, path string) string {
	return strings.TrimRight(publicURL, "/") + path
}

// NextAuth speaks next-auth's client protocol over Plaza's own sign-in
// (docs/api.md, "next-auth"): the token, the credentials callback, a
// provider's start and the error page. The session it opens is Plaza's,
// by the same code as POST /api/auth/signin.
type NextAuth struct {
	CSRF  CSRFCookie
	OAuth OAuth
}

// Token answers GET /api/auth/csrf: {csrfToken}, the cookie's token, a
// new one (and cookie) when the browser has none.
func (h NextAuth) Token(c echo.Context) error {
	noStore(c)
	return c.JSON(http.StatusOK, api.CSRFToken{CSRFToken: h.CSRF.token(c)})
}

// Credentials answers POST /api/auth/callback/credentials, where
// signIn("credentials", …) posts: a password sign-in (and code, for an
// enrolled account) exactly as POST /api/auth/signin's JSON one, then
// {url} of the callbackUrl. Refusals are the next-auth family's {url} of
// the error page: CredentialsSignin (401) for wrong, missing or refused
// credentials, TOTP_REQUIRED or TOTP_INVALID (401), MissingCSRF (403),
// RATE_LIMITED (429).
func (h NextAuth) Credentials(c echo.Context) error {
	form, err := decodeForm(c)
	if err != nil {
		return err
	}
	if err := h.CSRF.check(c, form); err != nil {
		return err
	}
	req := api.SignInRequest{Email: form.Get("email"), Password: form.Get("password"),
		TOTP: strings.TrimSpace(form.Get("totp")), RecoveryCode: strings.TrimSpace(form.Get("recoveryCode"))}
	if strings.TrimSpace(req.Email) == "" || req.Password == "" {
		return errBadCredentials
	}
	if _, err := h.OAuth.SignIn.passwordSignIn(c, req); err != nil {
		return err
	}
	return nextAuthAnswer(c, form, h.callback(form, api.PathConsole))
}

// Provider answers POST /api/auth/signin/{provider}, where
// signIn(provider) posts: {url} of the provider's authorization page,
// the state kept in the session as GET /api/auth/signin/{provider} keeps
// it; for credentials, of the sign-in page.
func (h NextAuth) Provider(c echo.Context) error {
	form, err := decodeForm(c)
	if err != nil {
		return err
	}
	if err := h.CSRF.check(c, form); err != nil {
		return err
	}
	id := c.Param("provider")
	if id == api.CredentialsProviderID {
		page := api.PathSignIn
		if cb := safeCallback(form.Get("callbackUrl"), h.OAuth.SignIn.PublicURL, ""); cb != "" {
			page += "?" + url.Values{"callbackUrl": {cb}}.Encode()
		}
		return nextAuthAnswer(c, form, absolute(h.OAuth.SignIn.PublicURL, page))
	}
	authURL, err := h.OAuth.begin(c, id, form.Get("callbackUrl"), 0)
	if err != nil {
		return err
	}
	return nextAuthAnswer(c, form, authURL)
}

// callback is the form's callbackUrl when it is this site's, else
// fallback, as an absolute URL.
func (h NextAuth) callback(form url.Values, fallback string) string {
	publicURL := h.OAuth.SignIn.PublicURL
	return absolute(publicURL, safeCallback(form.Get("callbackUrl"), publicURL, fallback))
}

// ErrorPage answers GET /api/auth/error: the error its url names, in
// words, with the way back to sign-in.
func (h NextAuth) ErrorPage(c echo.Context) error {
	noStore(c)
	return render(c, http.StatusOK, views.AuthErrorPage(api.NewAuthErrorPage(c.QueryParam("error"))))
}
