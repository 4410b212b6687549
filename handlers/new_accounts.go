package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// NewAccounts answers the hold of new accounts' posts (docs/api.md, "New
// accounts' posts"): which posts of new accounts wait for a moderator's
// approval. Reading it is the admin family's read; changing it is the
// action SetNewAccountPosts.
type NewAccounts struct {
	Store   ReasonStore // the stored settings
	Actions *actions.Actions
}

// Get answers GET /api/v1/admin/settings/new-account-posts, and the
// console's "New accounts" page from the same result.
func (h NewAccounts) Get(c echo.Context) error {
	ctx := c.Request().Context()
	r, err := actions.NewAccountPostsSetting(ctx, h.Store)
	if err != nil {
		return err
	}
	f := h.form(ctx, r)
	f.Saved = c.QueryParam("saved") == "1"
	return respond(c, http.StatusOK, api.OK(f.Setting), View{Partial: views.NewAccountPostsCard(f), Page: views.NewAccountsPage(f)})
}

// Set answers PUT /api/v1/admin/settings/new-account-posts and POST
// /admin/new-accounts, JSON or a form: 200 with the setting as stored; 422
// for a number out of its range or not a number, or a body that sets
// nothing. htmx gets the card again with a toast; a browser's plain form
// the page (a 303 to it once saved, or the form with the refusal under its
// field).
func (h NewAccounts) Set(c echo.Context) error {
	var req api.NewAccountPostsChange
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req, err = newAccountsForm(form)
	}
	ctx := c.Request().Context()
	var r actions.NewAccountPosts
	if err == nil {
		r, err = h.Actions.SetNewAccountPosts(ctx, access.PrincipalFrom(ctx),
			actions.NewAccountPostsChange{HoldFirst: req.HoldFirst, HoldDays: req.HoldDays, TellAuthor: req.TellAuthor})
	}
	if api.FormatOf(c.Request()) == api.FormatPage {
		return h.page(c, form, err)
	}
	if err != nil {
		return err
	}
	f := h.form(ctx, r)
	return respondShown(c, http.StatusOK, api.OK(f.Setting), views.NewAccountPostsCard(f), Done{Toast: "New accounts' posts saved"})
}

// page answers a browser's plain form: on to the page once saved, or the
// form again, as it was sent, with what was refused.
func (h NewAccounts) page(c echo.Context, form url.Values, err error) error {
	if err == nil {
		return redirectTo(c, api.PathConsoleNewAccounts+"?saved=1")
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	ctx := c.Request().Context()
	r, rerr := actions.NewAccountPostsSetting(ctx, h.Store)
	if rerr != nil {
		return rerr
	}
	f := h.form(ctx, r)
	f.Sent, f.Errors = form, errs
	return render(c, status, views.NewAccountsPage(f))
}

func (h NewAccounts) form(ctx context.Context, r actions.NewAccountPosts) views.NewAccountsForm {
	return views.NewAccountsForm{
		Setting:  api.NewAccountPosts{HoldFirst: r.HoldFirst, HoldDays: r.HoldDays, TellAuthor: r.TellAuthor},
		MayEdit:  h.Actions.Policy.May(access.PrincipalFrom(ctx), policy.UpdateNewAccountPosts, policy.Platform),
		MaxFirst: actions.MaxHoldFirst, MaxDays: actions.MaxHoldDays,
	}
}

// newAccountsForm reads the card's form: the two numbers, and the
// checkbox, which a browser leaves out when it is unticked (the numbers
// always come with it). A number that is not one is refused on its field.
func newAccountsForm(form url.Values) (api.NewAccountPostsChange, error) {
	var req api.NewAccountPostsChange
	for field, into := range map[string]**int{"holdFirst": &req.HoldFirst, "holdDays": &req.HoldDays} {
		if !form.Has(field) {
			continue
		}
		n, err := strconv.Atoi(form.Get(field))
		if err != nil {
			return req, &actions.InvalidError{Field: field, Reason: field + " must be a whole number"}
		}
		*into = &n
	}
	if form.Has("holdFirst") || form.Has("holdDays") || form.Has("tellAuthor") {
		tell := form.Get("tellAuthor") == "true" || form.Get("tellAuthor") == "on"
		req.TellAuthor = &tell
	}
	return req, nil
}
