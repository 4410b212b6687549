package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Alerts answers one's staff alerts (docs/api.md, "Staff alerts"): the
// mail a moderator or admin gets of new reports and, for admins, of
// failed jobs and backups. Reading them asks what reading one's own
// account asks; changing them is the action SetAlertPreferences.
type Alerts struct {
	Actions *actions.Actions
	// Sending says a mail server is set (SMTP_URL); without one the page
	// says alerts are kept on the mail page.
	Sending bool
}

// Get answers GET /api/v1/admin/account/alerts: {reports, operations};
// and the console's "Mail alerts" page from the same result. A bearer
// token needs account:read.
func (h Alerts) Get(c echo.Context) error {
	ctx := c.Request().Context()
	noStore(c)
	p, err := h.Actions.AlertPreferences(ctx, access.PrincipalFrom(ctx))
	if err != nil {
		return err
	}
	f := h.form(c, p)
	f.Saved = c.QueryParam("saved") == "1"
	return respond(c, http.StatusOK, api.OK(f.Alerts), View{Partial: views.AlertsPanel(f), Page: views.AlertsPage(f)})
}

// Set answers PUT /api/v1/admin/account/alerts and POST
// /admin/account/alerts, JSON or a form: 200 with the alerts as stored;
// 422 for a setting that is none of the four, or a body that sets
// nothing; 403 for operations alerts asked by someone who is no admin, or
// a bearer token. htmx gets the form again with a toast; a browser's
// plain form the page (a 303 to it once saved, or the form with the
// refusal under its field).
func (h Alerts) Set(c echo.Context) error {
	var req api.AlertPreferencesChange
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		req = alertsForm(form)
	}
	ctx := c.Request().Context()
	p, err := h.Actions.SetAlertPreferences(ctx, access.PrincipalFrom(ctx), actions.AlertChoice{Reports: req.Reports, Operations: req.Operations})
	if api.FormatOf(c.Request()) == api.FormatPage {
		return h.page(c, req, err)
	}
	if err != nil {
		return err
	}
	f := h.form(c, p)
	return respondShown(c, http.StatusOK, api.OK(f.Alerts), views.AlertsPanel(f), Done{Toast: "Mail alerts saved"})
}

// page answers a browser's plain form: on to the page once saved, or the
// form again, as it was sent, with what was refused.
func (h Alerts) page(c echo.Context, req api.AlertPreferencesChange, err error) error {
	if err == nil {
		return redirectTo(c, api.PathConsoleAccountAlerts+"?saved=1")
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	ctx := c.Request().Context()
	p, rerr := h.Actions.AlertPreferences(ctx, access.PrincipalFrom(ctx))
	if rerr != nil {
		return rerr
	}
	f := h.form(c, p)
	if req.Reports != nil {
		f.Alerts.Reports = *req.Reports
	}
	f.Errors = errs
	return render(c, status, views.AlertsPage(f))
}

func (h Alerts) form(c echo.Context, p models.AlertPreference) views.AlertsForm {
	who := access.PrincipalFrom(c.Request().Context())
	return views.AlertsForm{Alerts: api.AlertPreferences{Reports: p.Reports, Operations: p.Operations},
		OfferOperations: h.Actions.OffersOperationsAlerts(who), Sending: h.Sending}
}

// alertsForm reads the page's form: the setting of new reports, and the
// operations checkbox, which a browser leaves out when it is unticked
// (the select always comes with it). A body of neither sets nothing.
func alertsForm(form url.Values) api.AlertPreferencesChange {
	var req api.AlertPreferencesChange
	if form.Has("reports") {
		reports := form.Get("reports")
		req.Reports = &reports
	}
	if form.Has("reports") || form.Has("operations") {
		operations := form.Get("operations") == "true" || form.Get("operations") == "on"
		req.Operations = &operations
	}
	return req
}
