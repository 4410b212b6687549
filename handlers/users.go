package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// UserStore is what the general API's user handlers need.
type UserStore interface {
	ListProfiles(ctx context.Context, f models.ProfileFilter) ([]models.User, int, error)
	UserByID(ctx context.Context, id int64) (*models.User, error)
}

// Users serves the general API's users (docs/api.md, "Users"):
// public profiles, registration, and changes by the user
// itself or a holder of users:manage. Statuses: 200, 201, 401, 403, 404,
// 422, 423 (another admin's edit lock), 429.
type Users struct {
	Store    UserStore
	Actions  *actions.Actions
	Sessions Sessions
	// Sending says a mail server is set (SMTP_URL); without one the
	// sign-up page says the verification mail is kept on the mail page.
	Sending bool
}

// List answers GET /api/users?limit&offset: public profiles of users who
// are not banned, newest first, and the caller's own; every user for
// holders of users:manage.
func (h Users) List(c echo.Context) error {
	page, issues := api.ParseGeneralPage(c.QueryParams())
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	f := models.ProfileFilter{All: h.seesPrivate(p), Limit: page.Limit, Offset: page.Offset}
	if h.Actions.Policy.May(p, policy.SeeOwnAccount, policy.AsSelf(p)) {
		f.ViewerID = p.UserID
	}
	rows, total, err := h.Store.ListProfiles(ctx, f)
	if err != nil {
		return err
	}
	out := make([]api.User, len(rows))
	for i := range rows {
		out[i] = h.record(&rows[i], p)
	}
	return c.JSON(http.StatusOK, api.UserList{Users: out, Total: total, Limit: page.Limit, Offset: page.Offset})
}

// Get answers GET /api/users/{id}. A private or banned user's profile is
// 404 to everyone but the user and holders of users:manage.
func (h Users) Get(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := h.Store.UserByID(ctx, id)
	if err != nil {
		return err
	}
	p := access.PrincipalFrom(ctx)
	if !u.Listed() && !h.seesOwn(p, id) {
		if err := h.Actions.Policy.Check(p, policy.SeePrivateProfiles, policy.Platform); err != nil {
			return hiddenProfile(err)
		}
	}
	return c.JSON(http.StatusOK, h.record(u, p))
}

// hiddenProfile is the answer for a profile the caller may not see: the
// policy's refusal when only a second factor stands between staff and it
// (staff power used to read is staff power), else not found.
func hiddenProfile(err error) error {
	if errors.Is(err, policy.ErrNeedsSecondFactor) {
		return err
	}
	return api.ErrNotFound
}

// seesPrivate reports whether p may see every profile, private and banned
// ones too, with their emails and statuses: the policy's call.
func (h Users) seesPrivate(p *access.Principal) bool {
	return h.Actions.Policy.May(p, policy.SeePrivateProfiles, policy.Platform)
}

// seesOwn reports whether p is user id reading its own private data (a
// bearer token with account:read).
func (h Users) seesOwn(p *access.Principal, id int64) bool {
	return h.Actions.Policy.May(p, policy.SeeOwnAccount, policy.Owned(id))
}

// record shows u to viewer: the email and the sign-in activity to the user
// itself and to those who see private profiles, the status to the latter.
func (h Users) record(u *models.User, viewer *access.Principal) api.User {
	out := publicRecord(u)
	staff := h.seesPrivate(viewer)
	if staff || h.seesOwn(viewer, u.ID) {
		out.Email = u.Email
		out.LastLogin, out.LoginCount = api.OptionalTimestamp(u.LastLoginAt), &u.LoginCount
	}
	if staff {
		out.Status = u.Status
	}
	return out
}

// publicRecord is what anyone who may see u's profile sees of it.
func publicRecord(u *models.User) api.User {
	return api.User{ID: itoa(u.ID), Username: u.Username, Name: u.Name, EmailVerified: api.OptionalTimestamp(u.EmailVerified),
		Image: u.Image, ProfilePublic: u.ProfilePublic, Bio: u.Bio, Location: u.Location,
		CreatedAt: api.Timestamp(u.CreatedAt), PostCount: u.PostCount}
}

// Register answers POST /api/users {name, email, password, answer?,
// invitation?} → 201 with the new user (active, role user), who can sign
// in at once and whose address gets a verification link (or is verified
// already, by an invitation for that address); under approval, the user
// is inactive with application "pending". A taken email is 422 with a
// detail on email; an invitation that is unknown, revoked, expired, used
// up or for another address 422 on invitation; the registration rules'
// refusals are 403s. A browser's form (the sign-up page) gets that page
// again: the account made, or the form with the refusals.
func (h Users) Register(c echo.Context) error {
	var req api.Registration
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req = api.Registration{Name: form.Get("name"), Email: form.Get("email"), Password: form.Get("password"),
			Invitation: form.Get("invitation"), Answer: form.Get("answer")}
	}
	ctx := c.Request().Context()
	reg := models.NewRegistration{Name: req.Name, Email: req.Email, IP: c.RealIP(), // the address the rate limiter counts
		Answer: req.Answer, Invitation: req.Invitation}
	u, err := h.Actions.Register(ctx, access.PrincipalFrom(ctx), reg, req.Password)
	if api.FormatOf(c.Request()) == api.FormatPage {
		return h.signUpPage(c, req, u, err)
	}
	if err != nil {
		return err
	}
	res := h.record(u, nil)
	res.Email = u.Email
	toast := u.Username + " can sign in now"
	if u.Status != models.UserActive {
		res.Status, res.Application = u.Status, models.ApplicationPending
		toast = u.Username + " has applied; staff will decide"
	}
	return respondAction(c, http.StatusCreated, res, Done{Toast: toast, Events: []string{"plaza:users"}})
}

// SignUpPage answers GET /signup?invite=…: the sign-up form, with the
// invitation's token from the link in a hidden field. The token is
// checked when the form is sent, not here.
func (h Users) SignUpPage(c echo.Context) error {
	noStore(c)
	invite := c.QueryParam("invite")
	p, err := h.withRules(c, api.SignUpPage{Invitation: invite, InvitationGiven: invite != ""})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SignUpPage(p))
}

// withRules adds to the sign-up page what the registration rules say to
// a visitor, and the question an applicant answers.
func (h Users) withRules(c echo.Context, p api.SignUpPage) (api.SignUpPage, error) {
	rules, err := h.Actions.Registration(c.Request().Context())
	if err != nil {
		return p, err
	}
	switch {
	case rules.Paused(h.Actions.Now()):
		p.Mode = "Sign-ups are paused until " + views.FormatTime(api.Timestamp(*rules.PausedUntil)) + "; try again then."
	case rules.Mode == actions.RegistrationClosed:
		p.Mode = "This community is not accepting new accounts."
	case rules.Mode == actions.RegistrationInvite && !p.InvitationGiven:
		p.Mode = "Joining needs an invitation: ask a member or the staff for an invitation link."
	case rules.Mode == actions.RegistrationApproval && !p.InvitationGiven:
		p.Mode = "The staff approve new accounts: once you apply, you can sign in when they have, and you get a mail either way."
		p.Question = rules.Question
	}
	return p, nil
}

// signUpPage answers the sign-up page's form: the account made, or the
// form again, as it was sent (but the password), with what was refused.
func (h Users) signUpPage(c echo.Context, req api.Registration, u *models.User, err error) error {
	noStore(c)
	if err == nil {
		return render(c, http.StatusCreated, views.SignUpPage(api.SignUpPage{Created: true, MailKept: !h.Sending,
			Applied: u.Status != models.UserActive}))
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	p, rerr := h.withRules(c, api.SignUpPage{Name: req.Name, Email: req.Email, Invitation: req.Invitation,
		InvitationGiven: req.Invitation != "", Answer: req.Answer, Errors: errs})
	if rerr != nil {
		return rerr
	}
	return render(c, status, views.SignUpPage(p))
}

// Update answers PUT /api/users/{id}: name, bio, location, image,
// profile_public, each optional, at least one, through the profile action:
// the user itself, or staff who may (audited, waiting for another admin's
// edit lock).
func (h Users) Update(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.ProfileUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ch := models.ProfileChange{Name: req.Name, Bio: req.Bio, Location: req.Location, Image: req.Image, ProfilePublic: req.ProfilePublic}
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	after, err := h.Actions.EditProfile(ctx, p, id, ch)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.record(after, p))
}

// Delete answers DELETE /api/users/{id} through the account deletion
// action: one's own takes {password}, checked under sign-in's failure
// throttle, and ends one's session; staff who may delete someone else's
// need a fresh confirmation (audited).
func (h Users) Delete(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.AccountDeletion
	if err := decodeOptionalJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	in := actions.DeleteAccountInput{UserID: id, Password: req.Password, Tries: m}
	if p != nil && p.Via == access.ViaSession {
		in.EndSession = h.Sessions.Destroy
	}
	if err := h.Actions.DeleteAccount(ctx, p, in); err != nil {
		return err
	}
	if api.FormatOf(c.Request()) == api.FormatPartial && p.UserID != id {
		return redirectTo(c, api.PathConsoleUsers) // the console's user page is gone with the user
	}
	return c.JSON(http.StatusOK, api.Deleted{Deleted: true, ID: itoa(id)})
}
