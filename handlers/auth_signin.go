package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Credentials is what sign-in needs of the user store.
type Credentials interface {
	UserByEmail(ctx context.Context, email string) (*models.User, error)
	UserRoles(ctx context.Context, userID int64) ([]string, error)
	RecordLogin(ctx context.Context, userID int64, method, ip, userAgent string) error
}

// SignIn serves the sign-in page and signs in with email and password
// (DECISIONS.md section 3). API clients get 200 {user, expires} or 401
// UNAUTHORIZED; browsers a redirect, or the page again with the message.
// Too many failures for one email or IP: 429 with Retry-After (the route's
// Meter counts failures).
type SignIn struct {
	Users     Credentials
	Sessions  Sessions
	Providers func() []api.Provider
	PublicURL string
	Now       func() time.Time
}

// Page answers GET /api/auth/signin.
func (h SignIn) Page(c echo.Context) error {
	p := api.SignInPage{Providers: h.Providers(), CallbackURL: c.QueryParam("callbackUrl")}
	return render(c, http.StatusOK, views.SignInPage(p))
}

// Handle answers POST /api/auth/signin.
func (h SignIn) Handle(c echo.Context) error {
	req, err := decodeSignIn(c)
	if err != nil {
		return err
	}
	user, err := h.check(c, req)
	if err != nil {
		var ae *api.Error
		if !wantsJSON(c) && errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
			page := api.SignInPage{Providers: h.Providers(), Email: req.Email, CallbackURL: req.CallbackURL, Error: ae.Message}
			return render(c, http.StatusUnauthorized, views.SignInPage(page))
		}
		return err
	}
	ctx := c.Request().Context()
	if err := h.start(c, user.ID, "credentials"); err != nil {
		return err
	}
	if !wantsJSON(c) {
		return redirectTo(c, safeCallback(req.CallbackURL, h.PublicURL, api.PathConsole))
	}
	roles, err := h.Users.UserRoles(ctx, user.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.Session{User: sessionUser(user, roles), Expires: api.Timestamp(h.Sessions.Deadline(ctx))})
}

// decodeSignIn reads the credentials from a JSON body (fields beyond these
// are ignored, as NextAuth-style clients send more) or from a form.
func decodeSignIn(c echo.Context) (api.SignInRequest, error) {
	var req api.SignInRequest
	if strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON) {
		if err := decodeJSONAllowUnknown(c, &req); err != nil {
			return req, err
		}
	} else {
		form, err := decodeForm(c)
		if err != nil {
			return req, err
		}
		req = api.SignInRequest{Email: form.Get("email"), Password: form.Get("password"), CallbackURL: form.Get("callbackUrl")}
	}
	var issues []api.Issue
	if strings.TrimSpace(req.Email) == "" {
		issues = append(issues, api.FieldIssue("email", "invalid_type", "Email is required"))
	}
	if req.Password == "" {
		issues = append(issues, api.FieldIssue("password", "invalid_type", "Password is required"))
	}
	if len(issues) > 0 {
		return req, api.Invalid(issues...)
	}
	return req, nil
}

var errBadCredentials = &api.Error{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Message: "Invalid email or password"}

// check verifies the credentials under the failure throttle: a spent
// window refuses before the password is checked, and every failure counts.
func (h SignIn) check(c echo.Context, req api.SignInRequest) (*models.User, error) {
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.Check(ctx, req.Email); err != nil {
		return nil, err
	}
	user, err := h.Users.UserByEmail(ctx, req.Email)
	if err == nil && user.PasswordHash != nil && auth.CheckPassword(req.Password, *user.PasswordHash) == nil {
		if user.Status != models.UserActive {
			return nil, &api.Error{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Message: "This account is " + user.Status + " and cannot sign in"}
		}
		return user, nil
	}
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, err
	}
	if err := m.Take(ctx, req.Email, 1); err != nil {
		return nil, err
	}
	return nil, errBadCredentials
}

// start opens a session for the user under a new token (no fixation) and
// records the login.
func (h SignIn) start(c echo.Context, userID int64, method string) error {
	ctx := c.Request().Context()
	if err := h.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	h.Sessions.Put(ctx, SessionUserKey, userID)
	PutSessionClient(ctx, h.Sessions, c)
	return h.Users.RecordLogin(ctx, userID, method, c.RealIP(), c.Request().UserAgent())
}

func sessionUser(u *models.User, roles []string) api.SessionUser {
	role := auth.HighestRole(roles)
	return api.SessionUser{ID: strconv.FormatInt(u.ID, 10), Name: u.Name, Email: u.Email, Image: u.Image, Role: role}
}
