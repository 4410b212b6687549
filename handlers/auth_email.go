package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// EmailAddress answers the verification of addresses: a link's token
// spent, a link asked for again, a change of address asked for. The
// verify route answers JSON, or, for a browser's plain form (no
// JavaScript needed), the page of the link again: the address verified,
// or the refusal.
type EmailAddress struct {
	Actions *actions.Actions
}

// VerifyPage answers GET /verify-email?token=…, the page a verification
// mail's link opens: a button that sends the token. Opening the link
// verifies nothing, since mail scanners open links on their own.
func (h EmailAddress) VerifyPage(c echo.Context) error {
	noStore(c)
	return render(c, http.StatusOK, views.VerifyEmailPage(api.VerifyEmailPage{Token: c.QueryParam("token")}))
}

// Verify answers POST /api/auth/email/verify {token}: 200 with the
// account, its address verified (the new one, for a change); 422 on token
// for a link no longer valid, on email for a new address another account
// took meanwhile.
func (h EmailAddress) Verify(c echo.Context) error {
	var req api.EmailVerify
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req.Token = form.Get("token")
	}
	ctx := c.Request().Context()
	u, err := h.Actions.VerifyEmail(ctx, access.PrincipalFrom(ctx), req.Token)
	if !wantsJSON(c) {
		return h.verifyPage(c, req.Token, u, err)
	}
	if err != nil {
		return err
	}
	out := publicRecord(u)
	out.Email = u.Email // whoever holds the link reads the mailbox it went to
	return c.JSON(http.StatusOK, out)
}

// verifyPage answers a browser's form: the address verified, or the page
// again with what was refused.
func (h EmailAddress) verifyPage(c echo.Context, token string, u *models.User, err error) error {
	noStore(c)
	if err == nil {
		return render(c, http.StatusOK, views.VerifyEmailPage(api.VerifyEmailPage{Verified: true, Email: u.Email}))
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	return render(c, status, views.VerifyEmailPage(api.VerifyEmailPage{Token: token, Errors: errs}))
}

// Resend answers POST /api/auth/email/resend: 202 and a new link to the
// caller's address; 409 when it is verified already, 429 past the limit
// per account.
func (h EmailAddress) Resend(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	who := access.PrincipalFrom(ctx)
	if err := h.Actions.ResendVerification(ctx, who, m); err != nil {
		return err
	}
	return respondAction(c, http.StatusAccepted, api.EmailLinkSent{Message: api.EmailResent},
		Done{Toast: "A new link is on its way to " + who.Email})
}

// Change answers POST /api/auth/email/change {email, password}: 202 and a
// link to the new address, the old one told; the address changes once
// the link is used. 422 for a new address refused or taken, or a wrong
// password (counted as a failed sign-in); 403 for an account without a
// password.
func (h EmailAddress) Change(c echo.Context) error {
	var req api.EmailChange
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	in := actions.EmailChange{Email: req.Email, Password: req.Password, Throttle: m}
	if err := h.Actions.ChangeEmail(ctx, access.PrincipalFrom(ctx), in); err != nil {
		return err
	}
	return respondAction(c, http.StatusAccepted, api.EmailLinkSent{Message: api.EmailChangeStarted},
		Done{Toast: "A link is on its way to " + models.NormalizeEmail(req.Email)})
}

// accountEmail is the caller's address as their account pages show it.
func accountEmail(ctx context.Context, acts *actions.Actions, p *access.Principal) (api.AccountEmail, error) {
	u, err := acts.OwnAccount(ctx, p)
	if err != nil {
		return api.AccountEmail{}, err
	}
	return api.AccountEmail{Email: u.Email, Verified: u.EmailVerified != nil, HasPassword: u.PasswordHash != nil}, nil
}
