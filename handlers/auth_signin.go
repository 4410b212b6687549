package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Credentials is what sign-in needs of the user store.
type Credentials interface {
	UserByEmail(ctx context.Context, email string) (*models.User, error)
	UserRoles(ctx context.Context, userID int64) ([]string, error)
	RecordLogin(ctx context.Context, userID int64, method, ip, userAgent string) error
}

// SignInThrottle is the window of failed sign-ins (DECISIONS.md section 9).
const SignInThrottle = 15 * time.Minute

// SignIn serves the sign-in page and signs in with email and password
// (DECISIONS.md section 3). JSON callers get 200 {user, expires} or 401
// UNAUTHORIZED; form callers a redirect or the page again with the message.
// Too many failures for one email or IP: 429 with Retry-After.
type SignIn struct {
	Users     Credentials
	Sessions  Sessions
	Limiter   *ratelimit.Limiter
	Providers func() []api.Provider
	PublicURL string
	PerEmail  int
	PerIP     int
	Now       func() time.Time
}

// Page answers GET /api/auth/signin.
func (h SignIn) Page(c echo.Context) error {
	p := api.SignInPage{Providers: h.Providers(), CallbackURL: c.QueryParam("callbackUrl")}
	return render(c, http.StatusOK, views.SignInPage(p))
}

// Handle answers POST /api/auth/signin.
func (h SignIn) Handle(c echo.Context) error {
	isJSON := strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON)
	req, err := decodeSignIn(c, isJSON)
	if err != nil {
		return err
	}
	user, err := h.check(c, req)
	if err != nil {
		var ae *api.Error
		if !isJSON && errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
			page := api.SignInPage{Providers: h.Providers(), Email: req.Email, CallbackURL: req.CallbackURL, Error: ae.Message}
			return render(c, http.StatusUnauthorized, views.SignInPage(page))
		}
		return err
	}
	ctx := c.Request().Context()
	if err := h.start(c, user.ID, "credentials"); err != nil {
		return err
	}
	if !isJSON {
		return c.Redirect(http.StatusSeeOther, safeCallback(req.CallbackURL, h.PublicURL, api.PathConsole))
	}
	roles, err := h.Users.UserRoles(ctx, user.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.Session{User: sessionUser(user, roles), Expires: api.Timestamp(h.Sessions.Deadline(ctx))})
}

func decodeSignIn(c echo.Context, isJSON bool) (api.SignInRequest, error) {
	var req api.SignInRequest
	if isJSON {
		if err := json.NewDecoder(c.Request().Body).Decode(&req); err != nil {
			return req, api.ErrMalformedJSON
		}
	} else {
		req = api.SignInRequest{Email: c.FormValue("email"), Password: c.FormValue("password"), CallbackURL: c.FormValue("callbackUrl")}
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

// check verifies the credentials under the failure throttle.
func (h SignIn) check(c echo.Context, req api.SignInRequest) (*models.User, error) {
	ctx := c.Request().Context()
	emailKey, ipKey := "email:"+models.NormalizeEmail(req.Email), "ip:"+c.RealIP()
	window := ratelimit.Rate{Limit: int64(h.PerEmail), Period: SignInThrottle}
	ipWindow := ratelimit.Rate{Limit: int64(h.PerIP), Period: SignInThrottle}
	for _, w := range []struct {
		key  string
		rate ratelimit.Rate
	}{{emailKey, window}, {ipKey, ipWindow}} {
		res, err := h.Limiter.Peek(ctx, "signin_failures", w.rate, w.key)
		if err == nil && res.Remaining <= 0 {
			return nil, h.throttled(c, res)
		}
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
	h.Limiter.Take(ctx, "signin_failures", window, emailKey, 1) //nolint:errcheck // the next Peek sees it
	h.Limiter.Take(ctx, "signin_failures", ipWindow, ipKey, 1)  //nolint:errcheck
	return nil, errBadCredentials
}

func (h SignIn) throttled(c echo.Context, res ratelimit.Result) error {
	wait := int(res.Reset.Sub(h.Now()).Seconds() + 0.999)
	c.Response().Header().Set("Retry-After", strconv.Itoa(max(wait, 1)))
	return &api.Error{Status: http.StatusTooManyRequests, Code: api.CodeRateLimited,
		Message: "Too many failed sign-ins; try again later", RetryAfter: max(wait, 1)}
}

// start opens a session for the user under a new token (no fixation) and
// records the login.
func (h SignIn) start(c echo.Context, userID int64, method string) error {
	ctx := c.Request().Context()
	if err := h.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	h.Sessions.Put(ctx, SessionUserKey, userID)
	return h.Users.RecordLogin(ctx, userID, method, c.RealIP(), c.Request().UserAgent())
}

func sessionUser(u *models.User, roles []string) api.SessionUser {
	role := auth.HighestRole(roles)
	return api.SessionUser{ID: strconv.FormatInt(u.ID, 10), Name: u.Name, Email: u.Email, Image: u.Image, Role: role}
}
