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
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// pendingWindow is how long the code step of a sign-in waits for its code.
const pendingWindow = 5 * time.Minute

// TwoFactorStore is what two-factor sign-in needs of the user store.
type TwoFactorStore interface {
	TwoFactorOf(ctx context.Context, userID int64) (*models.TwoFactor, error)
	UserByEmail(ctx context.Context, email string) (*models.User, error)
}

// SecondFactor checks the codes of enrolled users.
type SecondFactor struct {
	Store TwoFactorStore
	Now   func() time.Time
}

var (
	errTOTPRequired = &api.Error{Status: http.StatusUnauthorized, Code: api.CodeTOTPRequired,
		Message: "Enter the code from your authenticator app (totp) or a recovery code (recoveryCode)"}
	errTOTPInvalid = &api.Error{Status: http.StatusUnauthorized, Code: api.CodeTOTPInvalid,
		Message: "That code is wrong or was already used"}
)

// Enabled reports whether the user must give a code to sign in.
func (f SecondFactor) Enabled(ctx context.Context, userID int64) (bool, error) {
	tf, err := f.Store.TwoFactorOf(ctx, userID)
	if errors.Is(err, models.ErrNotFound) {
		return false, nil
	}
	return err == nil && tf.EnabledAt != nil, err
}

// splitCode reads the one field of the sign-in page's code step: six digits
// are a TOTP code, anything else a recovery code.
func splitCode(s string) (totp, recovery string) {
	s = strings.TrimSpace(s)
	digits := strings.ReplaceAll(s, " ", "")
	if _, err := strconv.Atoi(digits); err == nil && len(digits) == 6 {
		return digits, ""
	}
	return "", s
}

// auditActor names the person an audited sign-in step is about.
func auditActor(ctx context.Context, u *models.User, details map[string]any) {
	d := audit.DraftFrom(ctx)
	if d == nil {
		return
	}
	id := u.ID
	d.AdminID, d.AdminUsername = &id, u.Username
	d.TargetType, d.TargetID = "user", strconv.FormatInt(u.ID, 10)
	keepAudit(ctx, details)
}

// TwoFactor serves enrolment, removal and re-confirmation for the signed-in
// caller (docs/api.md, "Two-factor sign-in"); enrolment and removal are
// actions.
type TwoFactor struct {
	Actions  *actions.Actions
	Factor   SecondFactor
	Sessions Sessions
	Issuer   string
	// Links lists the page's linked sign-in providers.
	Links ProviderLinks
}

func (h TwoFactor) caller(c echo.Context) (*access.Principal, error) {
	p := access.PrincipalFrom(c.Request().Context())
	if p == nil || p.Via != access.ViaSession {
		return nil, &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "Two-factor settings need a signed-in session, not a token"}
	}
	return p, nil
}

// Page answers GET /admin/account/2fa: the caller's enrolment, with the way
// to start one or to turn it off.
func (h TwoFactor) Page(c echo.Context) error {
	p, err := h.caller(c)
	if err != nil {
		return err
	}
	res, err := h.status(c.Request().Context(), p)
	if err != nil {
		return err
	}
	links, err := h.Links.Of(c.Request().Context(), p.UserID)
	if err != nil {
		return err
	}
	email, err := accountEmail(c.Request().Context(), h.Actions, p)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, res, View{Page: views.TwoFactorPage(res, links, email), Partial: views.TwoFactorPanel(res)})
}

func (h TwoFactor) status(ctx context.Context, p *access.Principal) (api.TwoFactorStatus, error) {
	res := api.TwoFactorStatus{Required: h.Actions.Policy.MustEnrol(p)}
	u, err := h.Factor.Store.UserByEmail(ctx, p.Email)
	if err != nil {
		return res, err
	}
	res.HasPassword = u.PasswordHash != nil
	tf, err := h.Factor.Store.TwoFactorOf(ctx, p.UserID)
	if errors.Is(err, models.ErrNotFound) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	if tf.EnabledAt != nil {
		res.Enabled, res.EnabledAt = true, api.OptionalTimestamp(tf.EnabledAt)
	}
	return res, nil
}

// Setup answers POST /api/auth/2fa/setup {password}: a new secret,
// pending until a code confirms it (replacing any pending one). 422 when
// the password is missing or wrong (counted as a failed sign-in); for an
// account without a password, 403 SUDO_REQUIRED unless its sign-in or
// last confirmation is fresh; 409 when already enabled.
func (h TwoFactor) Setup(c echo.Context) error {
	var req api.TwoFactorSetupRequest
	if err := decodeOptionalJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	en, err := h.Actions.SetUpTwoFactor(ctx, access.PrincipalFrom(ctx), actions.TwoFactorSetupInput{Password: req.Password, Issuer: h.Issuer, Tries: m})
	if err != nil {
		return err
	}
	noStore(c)
	res := api.TwoFactorSetup{Secret: en.Secret, OTPAuthURL: en.URL, QRCode: en.QRCode}
	return respondShown(c, http.StatusOK, res, views.TwoFactorSetupPanel(res), Done{Toast: "Scan the code with your app"})
}

// Enable answers POST /api/auth/2fa/enable {code}: the code from the app
// turns the pending enrolment on; the ten recovery codes are shown once.
// 422 for a wrong code (counted as a failed sign-in), 404 without setup.
func (h TwoFactor) Enable(c echo.Context) error {
	var req api.TwoFactorCode
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	codes, err := h.Actions.EnableTwoFactor(ctx, access.PrincipalFrom(ctx), req.Code, m)
	if err != nil {
		return err
	}
	noStore(c)
	res := api.TwoFactorEnabled{RecoveryCodes: codes}
	return respondShown(c, http.StatusOK, res, views.RecoveryCodesPanel(res), Done{Toast: "Two-factor sign-in is on"})
}

// Disable answers POST /api/auth/2fa/disable {password, code}: the
// enrolment and its recovery codes go. A missing or wrong password or code
// is 422 on its field; a wrong one counts as a failed sign-in.
func (h TwoFactor) Disable(c echo.Context) error {
	var req api.TwoFactorDisable
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	p := access.PrincipalFrom(ctx)
	if err := h.Actions.DisableTwoFactor(ctx, p, actions.TwoFactorRemoval{Password: req.Password, Code: req.Code, Tries: m}); err != nil {
		return err
	}
	res, err := h.status(ctx, p)
	if err != nil {
		return err
	}
	return respondShown(c, http.StatusOK, api.TwoFactorDisabled{}, views.TwoFactorPanel(res), Done{Toast: "Two-factor sign-in is off"})
}

// Confirm answers POST /api/auth/confirm {password} or {totp}: dangerous
// actions then need no new confirmation for policy.ConfirmWindow. Wrong answers are
// 422, count as failed sign-ins and are audited.
func (h TwoFactor) Confirm(c echo.Context) error {
	p, err := h.caller(c)
	if err != nil {
		return err
	}
	var req api.Confirmation
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	if err := h.Actions.Confirm(ctx, p, actions.Confirmation{Password: req.Password, Code: req.TOTP, Tries: m}); err != nil {
		return err
	}
	now := h.Factor.Now()
	h.Sessions.Put(ctx, session.ConfirmedKey, now.Unix())
	until := api.Timestamp(now.Add(policy.ConfirmWindow))
	return respondAction(c, http.StatusOK, api.Confirmed{Confirmed: true, Until: &until}, Done{Toast: "Confirmed"})
}

// Confirmation answers GET /api/auth/confirm: whether the session's last
// confirmation still covers dangerous actions, and until when.
func (h TwoFactor) Confirmation(c echo.Context) error {
	if _, err := h.caller(c); err != nil {
		return err
	}
	noStore(c)
	at := h.Sessions.GetInt64(c.Request().Context(), session.ConfirmedKey)
	until := time.Unix(at, 0).Add(policy.ConfirmWindow)
	if at == 0 || !h.Factor.Now().Before(until) {
		return c.JSON(http.StatusOK, api.Confirmed{})
	}
	u := api.Timestamp(until)
	return c.JSON(http.StatusOK, api.Confirmed{Confirmed: true, Until: &u})
}
