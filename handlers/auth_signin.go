package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/device"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Credentials is what sign-in needs of the user store.
type Credentials interface {
	UserByEmail(ctx context.Context, email string) (*models.User, error)
	UserByID(ctx context.Context, id int64) (*models.User, error)
	UserRoles(ctx context.Context, userID int64) ([]string, error)
	RecordLogin(ctx context.Context, userID int64, method, ip, userAgent string) error
}

// SignIn serves the sign-in page and signs in with email and password
// at /api/auth/signin. API clients get 200 {user, expires} or 401
// UNAUTHORIZED; browsers a redirect, or the page again with the message.
// Too many failures for one email or IP: 429 with Retry-After (the route's
// Meter counts failures).
//
// An account enrolled in two-factor sign-in needs a code too: JSON callers
// send totp or recoveryCode beside the password (401 TOTP_REQUIRED without,
// TOTP_INVALID when wrong or used); browsers get a second page asking for
// it, while the session holds only the half-done sign-in. Wrong codes count
// as failed sign-ins and are audited, as is every recovery code used.
type SignIn struct {
	Users Credentials
	// Passwords checks the password under the failure throttle
	// (*actions.Actions): the same check as every other door's.
	Passwords PasswordChecker
	// Standing says why an account that is not active may not sign in
	// (*actions.Actions): an applicant hears where their application
	// stands.
	Standing Standing
	// DeviceKey signs the device cookie sign-in leaves in the browser
	// (device.Key): the failure throttle then counts that browser's
	// failures apart from strangers'.
	DeviceKey []byte
	Sessions  Sessions
	Factor    SecondFactor
	Providers func() []api.Provider
	PublicURL string
	Now       func() time.Time
	// SessionLimits are the limits of the session of someone holding
	// roles: staff sessions are shorter.
	SessionLimits func(roles []string) session.Limits
}

// Standing words the refusal of an account that may not sign in.
type Standing interface {
	SignInRefusal(ctx context.Context, u *models.User) (string, error)
}

// PasswordChecker is the one check of a password a request gives, and of
// a sign-in code, under sign-in's failure throttle (actions.Actions).
type PasswordChecker interface {
	CheckPassword(ctx context.Context, tries actions.Attempts, email, password string, hash *string) error
	SignInCode(ctx context.Context, tries actions.Attempts, u *models.User, totp, recovery string) (string, error)
}

// Page answers GET /api/auth/signin.
func (h SignIn) Page(c echo.Context) error {
	p := api.SignInPage{Providers: h.Providers(), CallbackURL: c.QueryParam("callbackUrl")}
	if c.QueryParam("notice") == api.SignInNoticeReset {
		p.Notice = api.PasswordResetDone
	}
	return render(c, http.StatusOK, views.SignInPage(p))
}

// Handle answers POST /api/auth/signin.
func (h SignIn) Handle(c echo.Context) error {
	req, code, err := decodeSignIn(c)
	if err != nil {
		return err
	}
	if code != "" {
		return h.codeStep(c, req.CallbackURL, code)
	}
	if !wantsJSON(c) {
		return h.formSignIn(c, req)
	}
	user, err := h.passwordSignIn(c, req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	roles, err := h.Users.UserRoles(ctx, user.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.Session{User: sessionUser(user, roles), Expires: api.Timestamp(h.Sessions.Deadline(ctx))})
}

// passwordSignIn signs an API caller in with the password and, for an
// account enrolled in two-factor sign-in, the code sent with it: Plaza's
// JSON sign-in and next-auth's credentials callback, under one throttle
// and one set of rules.
func (h SignIn) passwordSignIn(c echo.Context, req api.SignInRequest) (*models.User, error) {
	user, err := h.check(c, req)
	if err != nil {
		return nil, err
	}
	enrolled, err := h.Factor.Enabled(c.Request().Context(), user.ID)
	if err != nil {
		return nil, err
	}
	if enrolled {
		if req.TOTP == "" && req.RecoveryCode == "" {
			return nil, errTOTPRequired
		}
		if err := h.secondFactor(c, user, req.TOTP, req.RecoveryCode); err != nil {
			return nil, err
		}
	}
	return user, h.start(c, user, "credentials")
}

// formSignIn signs a browser's form in: the page again with the message
// when refused, the code page for an enrolled account, else a redirect.
func (h SignIn) formSignIn(c echo.Context, req api.SignInRequest) error {
	user, err := h.check(c, req)
	if err != nil {
		var ae *api.Error
		if errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
			page := api.SignInPage{Providers: h.Providers(), Email: req.Email, CallbackURL: req.CallbackURL, Error: ae.Message}
			return render(c, http.StatusUnauthorized, views.SignInPage(page))
		}
		return err
	}
	enrolled, err := h.Factor.Enabled(c.Request().Context(), user.ID)
	if err != nil {
		return err
	}
	if enrolled {
		return h.askCode(c, user, req.CallbackURL, "")
	}
	if err := h.start(c, user, "credentials"); err != nil {
		return err
	}
	return redirectTo(c, safeCallback(req.CallbackURL, h.PublicURL, api.PathConsole))
}

// askCode keeps the half-done sign-in (whose password, or provider, was
// right) in the session, granting nothing, and shows the code page.
func (h SignIn) askCode(c echo.Context, user *models.User, callback, msg string) error {
	ctx := c.Request().Context()
	if err := h.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	h.Sessions.Put(ctx, session.PendingKey, user.ID)
	h.Sessions.Put(ctx, session.PendingAtKey, h.Now().Unix())
	noStore(c)
	status := http.StatusOK
	if msg != "" {
		status = http.StatusUnauthorized
	}
	return render(c, status, views.TwoFactorStepPage(api.TwoFactorStep{Email: user.Email, CallbackURL: callback, Error: msg}))
}

// codeStep finishes a browser's half-done sign-in with its code.
func (h SignIn) codeStep(c echo.Context, callback, code string) error {
	ctx := c.Request().Context()
	uid := h.Sessions.GetInt64(ctx, session.PendingKey)
	at := h.Sessions.GetInt64(ctx, session.PendingAtKey)
	expired := uid == 0 || h.Now().Sub(time.Unix(at, 0)) > pendingWindow
	var user *models.User
	if !expired {
		u, err := h.Users.UserByID(ctx, uid)
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			return err
		}
		user, expired = u, err != nil || u.Status != models.UserActive
	}
	if expired {
		page := api.SignInPage{Providers: h.Providers(), CallbackURL: callback, Error: "Your sign-in expired; please start again"}
		return render(c, http.StatusUnauthorized, views.SignInPage(page))
	}
	totp, recovery := splitCode(code)
	if err := h.secondFactor(c, user, totp, recovery); err != nil {
		var ae *api.Error
		if errors.As(err, &ae) && ae.Code == api.CodeTOTPInvalid {
			return h.askCode(c, user, callback, ae.Message)
		}
		return err
	}
	h.Sessions.Remove(ctx, session.PendingKey)
	h.Sessions.Remove(ctx, session.PendingAtKey)
	if err := h.start(c, user, "credentials"); err != nil {
		return err
	}
	return redirectTo(c, safeCallback(callback, h.PublicURL, api.PathConsole))
}

// secondFactor checks a code under the failure throttle (by the account's
// email, as failed passwords are): a refused code counts and is audited.
func (h SignIn) secondFactor(c echo.Context, user *models.User, totp, recovery string) error {
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	method, err := h.Passwords.SignInCode(ctx, m, user, totp, recovery)
	if errors.Is(err, actions.ErrWrongCode) {
		failed := "totp"
		if totp == "" {
			failed = "recovery_code"
		}
		auditActor(ctx, user, map[string]any{"failed": failed})
		return errTOTPInvalid
	}
	if err != nil {
		return err
	}
	if method == "recovery_code" {
		auditActor(ctx, user, map[string]any{"used": method})
	}
	return nil
}

// decodeSignIn reads the credentials from a JSON body (fields beyond these
// are ignored, as NextAuth-style clients send more) or from a form; code is
// the form's second step, the code of a half-done sign-in.
func decodeSignIn(c echo.Context) (req api.SignInRequest, code string, err error) {
	if strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON) {
		if err := decodeJSONAllowUnknown(c, &req); err != nil {
			return req, "", err
		}
	} else {
		form, err := decodeForm(c)
		if err != nil {
			return req, "", err
		}
		req = api.SignInRequest{Email: form.Get("email"), Password: form.Get("password"), CallbackURL: form.Get("callbackUrl")}
		if code = strings.TrimSpace(form.Get("code")); code != "" && req.Password == "" {
			return req, code, nil
		}
	}
	var issues []api.Issue
	if strings.TrimSpace(req.Email) == "" {
		issues = append(issues, api.FieldIssue("email", "invalid_type", "Email is required"))
	}
	if req.Password == "" {
		issues = append(issues, api.FieldIssue("password", "invalid_type", "Password is required"))
	}
	if len(issues) > 0 {
		return req, "", api.Invalid(issues...)
	}
	return req, "", nil
}

var errBadCredentials = &api.Error{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Message: "Invalid email or password"}

// check verifies the credentials through the one password check, under
// the failure throttle: the try counts before argon2id runs (a spent
// window refuses without hashing), and only a failure stays counted.
func (h SignIn) check(c echo.Context, req api.SignInRequest) (*models.User, error) {
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return nil, err
	}
	user, err := h.Users.UserByEmail(ctx, req.Email)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, err
	}
	var hash *string // none: compared with a dummy, so that an unknown email takes as long
	if err == nil {
		hash = user.PasswordHash
	}
	err = h.Passwords.CheckPassword(ctx, m, req.Email, req.Password, hash)
	switch {
	case errors.Is(err, auth.ErrBadPassword):
		return nil, errBadCredentials
	case err != nil:
		return nil, err
	}
	refused, err := h.Standing.SignInRefusal(ctx, user)
	switch {
	case err != nil:
		return nil, err
	case refused != "":
		return nil, &api.Error{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Message: refused}
	}
	return user, nil
}

// start opens a session for the user under a new token (no fixation),
// with the limits of the user's role, and records the login.
func (h SignIn) start(c echo.Context, user *models.User, method string) error {
	ctx := c.Request().Context()
	roles, err := h.Users.UserRoles(ctx, user.ID)
	if err != nil {
		return err
	}
	if err := h.Sessions.RenewToken(ctx); err != nil {
		return err
	}
	now := time.Unix(h.Now().Unix(), 0) // as the session keeps it
	h.Sessions.Put(ctx, session.UserKey, user.ID)
	PutSessionClient(ctx, h.Sessions, c)
	h.Sessions.Put(ctx, session.ConfirmedKey, now.Unix()) // signing in counts as a confirmation
	h.Sessions.Put(ctx, session.StartedKey, now.Unix())
	LimitSession(ctx, h.Sessions, h.SessionLimits(roles), now)
	if err := h.Users.RecordLogin(ctx, user.ID, method, c.RealIP(), c.Request().UserAgent()); err != nil {
		return err
	}
	h.markDevice(c, user.ID, user.Email)
	return nil
}

// deviceCookieAge is how long a browser stays known for the email signed
// in with it.
const deviceCookieAge = 365 * 24 * time.Hour

// markDevice leaves the device cookie for the account userID with email in
// the browser, unless it holds one for them already (the device keeps its
// id).
func (h SignIn) markDevice(c echo.Context, userID int64, email string) {
	email = models.NormalizeEmail(email)
	if ck, err := c.Cookie(device.CookieName); err == nil {
		if _, ok := device.Trusted(h.DeviceKey, ck.Value, userID, email); ok {
			return
		}
	}
	c.SetCookie(&http.Cookie{Name: device.CookieName, Value: device.NewCookie(h.DeviceKey, userID, email), Path: "/",
		MaxAge: int(deviceCookieAge.Seconds()), HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: strings.HasPrefix(h.PublicURL, "https://")})
}

func sessionUser(u *models.User, roles []string) api.SessionUser {
	role := access.HighestRole(roles)
	return api.SessionUser{ID: strconv.FormatInt(u.ID, 10), Name: u.Name, Email: u.Email, Image: u.Image, Role: role}
}
