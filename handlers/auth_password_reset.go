package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// PasswordReset answers the two steps of a forgotten password: asking for
// a link by mail, and setting a new password with it. Each route answers
// JSON, or, for a browser's plain form (no JavaScript needed), its page
// again: the one answer, or the form with the refusal on its field.
type PasswordReset struct {
	Actions *actions.Actions
	// Sending says a mail server is set (SMTP_URL); without one the page
	// says the mail is kept on the console's mail page.
	Sending bool
}

// ForgotPage answers GET /forgot-password.
func (h PasswordReset) ForgotPage(c echo.Context) error {
	return render(c, http.StatusOK, views.ForgotPasswordPage(api.ForgotPasswordPage{}))
}

// ResetPage answers GET /reset-password?token=…, the page a reset mail's
// link opens. The token is checked when the form is sent, not here.
func (h PasswordReset) ResetPage(c echo.Context) error {
	noStore(c)
	return render(c, http.StatusOK, views.ResetPasswordPage(api.ResetPasswordPage{Token: c.QueryParam("token")}))
}

// Forgot answers POST /api/auth/password/forgot {email}: 202 with the same
// body whether or not the address has an account; 422 for an address that
// is not one, 429 past the limits per email and per address.
func (h PasswordReset) Forgot(c echo.Context) error {
	var req api.PasswordForgot
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req.Email = form.Get("email")
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	err = h.Actions.ForgotPassword(ctx, access.PrincipalFrom(ctx), req.Email, m)
	if !wantsJSON(c) {
		return h.forgotPage(c, req.Email, err)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, api.PasswordForgotAccepted{Message: api.ForgotAccepted})
}

// forgotPage answers a browser's form: the one answer, or the form again
// with what was refused.
func (h PasswordReset) forgotPage(c echo.Context, email string, err error) error {
	if err == nil {
		return render(c, http.StatusAccepted, views.ForgotPasswordPage(api.ForgotPasswordPage{Sent: true, MailKept: !h.Sending}))
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	return render(c, status, views.ForgotPasswordPage(api.ForgotPasswordPage{Email: email, Errors: errs}))
}

// Reset answers POST /api/auth/password/reset {token, password, code?}:
// 200 with what ended; 422 for a token no longer valid or a password the
// rule refuses; 401 TOTP_REQUIRED for an account with two-factor sign-in
// and no code. A browser's form also sends the password again (confirm),
// and on success goes on to the sign-in page with a notice.
func (h PasswordReset) Reset(c echo.Context) error {
	var req api.PasswordReset
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req = api.PasswordReset{Token: form.Get("token"), Password: form.Get("password"), Code: form.Get("code")}
		if req.Password != form.Get("confirm") {
			page := api.ResetPasswordPage{Token: req.Token, NeedCode: form.Has("code"),
				Errors: map[string]string{"confirm": "The two passwords differ; type the same one twice"}}
			return render(c, http.StatusUnprocessableEntity, views.ResetPasswordPage(page))
		}
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	out, err := h.Actions.ResetPassword(ctx, access.PrincipalFrom(ctx), actions.PasswordReset{Token: req.Token,
		Password: req.Password, Code: req.Code, Tries: m})
	if !wantsJSON(c) {
		return h.resetPage(c, req, form.Has("code"), err)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.PasswordChanged{Changed: true, RevokedSessions: out.EndedSessions, RevokedTokens: out.RevokedTokens})
}

// resetPage answers a browser's form: on to sign-in with the notice, the
// form again with the code field when the account needs its code, or with
// what was refused on its field.
func (h PasswordReset) resetPage(c echo.Context, req api.PasswordReset, hadCode bool, err error) error {
	if err == nil {
		return redirectTo(c, api.PathSignIn+"?notice="+api.SignInNoticeReset)
	}
	page := api.ResetPasswordPage{Token: req.Token, NeedCode: hadCode}
	if errors.Is(err, actions.ErrCodeRequired) {
		page.NeedCode = true
		page.Errors = map[string]string{"code": "This account uses two-factor sign-in: type the code from your authenticator app, or a recovery code"}
		return render(c, http.StatusUnauthorized, views.ResetPasswordPage(page))
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	if msg := errs["code"]; msg != "" {
		page.NeedCode = true
	}
	page.Errors, page.Error = errs, errs[""]
	return render(c, status, views.ResetPasswordPage(page))
}

// decodeBody reads a JSON body into dst, or a form, which it returns for
// the caller to read its fields from.
func decodeBody(c echo.Context, dst any) (url.Values, error) {
	if strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON) {
		return nil, decodeJSON(c, dst)
	}
	return decodeForm(c)
}

// formRefusal is a refusal a form shows beside its fields: the actions'
// refusals of a value, by field, and a refusal of the whole request (too
// many tries, wrong code) under "". False for any other error, which the
// error handler answers.
func formRefusal(c echo.Context, err error) (int, map[string]string, bool) {
	var (
		ie      *actions.InvalidError
		several actions.Invalid
		ae      *api.Error
	)
	switch {
	case errors.As(err, &ie):
		return http.StatusUnprocessableEntity, map[string]string{ie.Field: ie.Reason}, true
	case errors.As(err, &several):
		errs := make(map[string]string, len(several))
		for _, e := range several {
			if errs[e.Field] == "" {
				errs[e.Field] = e.Reason
			}
		}
		return http.StatusUnprocessableEntity, errs, true
	case errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests:
		if ae.RetryAfter > 0 {
			c.Response().Header().Set("Retry-After", itoa(int64(ae.RetryAfter)))
		}
		return ae.Status, map[string]string{"": ae.Message}, true
	}
	return 0, nil, false
}
