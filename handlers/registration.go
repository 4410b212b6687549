package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// Registration answers the registration rules (docs/api.md,
// "Registration"): how new accounts open, read by anyone and by the
// console, changed by a super admin through SetRegistration.
type Registration struct {
	Actions *actions.Actions
}

// Public answers GET /api/auth/registration: the rules a sign-up form
// needs (the mode, a pause, the question).
func (h Registration) Public(c echo.Context) error {
	rules, err := h.Actions.Registration(c.Request().Context())
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(http.StatusOK, h.wire(rules))
}

// Get answers GET /api/v1/admin/registration and the console's
// "Registration" page from the same result.
func (h Registration) Get(c echo.Context) error {
	rules, err := h.Actions.Registration(c.Request().Context())
	if err != nil {
		return err
	}
	noStore(c)
	f := views.RegistrationForm{QuestionMax: actions.MaxApplicationQuestion, Rules: h.wire(rules), Saved: c.QueryParam("saved") == "1"}
	return respond(c, http.StatusOK, api.OK(f.Rules), View{Partial: views.RegistrationPanel(f), Page: views.RegistrationPage(f)})
}

// Set answers PUT /api/v1/admin/registration and POST
// /admin/registration, JSON or a form: 200 with the rules as stored; 422
// for a mode that is none of the four, a pause out of 0..168 hours, a
// question too long, or a body that sets nothing. htmx gets the panel
// again with a toast; a browser's plain form the page.
func (h Registration) Set(c echo.Context) error {
	var req api.RegistrationChange
	form, err := decodeBody(c, &req)
	if err != nil {
		return err
	}
	if form != nil {
		if req, err = registrationForm(form); err != nil {
			return err
		}
	}
	ctx := c.Request().Context()
	rules, err := h.Actions.SetRegistration(ctx, access.PrincipalFrom(ctx),
		actions.RegistrationChange{Mode: req.Mode, PauseHours: req.PauseHours, Question: req.Question})
	if api.FormatOf(c.Request()) == api.FormatPage {
		return h.page(c, err)
	}
	if err != nil {
		return err
	}
	f := views.RegistrationForm{QuestionMax: actions.MaxApplicationQuestion, Rules: h.wire(rules)}
	return respondShown(c, http.StatusOK, api.OK(f.Rules), views.RegistrationPanel(f), Done{Toast: registrationToast(f.Rules)})
}

// page answers a browser's plain form: on to the page once saved, or the
// page again with what was refused.
func (h Registration) page(c echo.Context, err error) error {
	if err == nil {
		return redirectTo(c, api.PathConsoleRegistration+"?saved=1")
	}
	status, errs, ok := formRefusal(c, err)
	if !ok {
		return err
	}
	rules, rerr := h.Actions.Registration(c.Request().Context())
	if rerr != nil {
		return rerr
	}
	return render(c, status, views.RegistrationPage(views.RegistrationForm{QuestionMax: actions.MaxApplicationQuestion, Rules: h.wire(rules), Errors: errs}))
}

func (h Registration) wire(r actions.RegistrationRules) api.RegistrationRules {
	out := api.RegistrationRules{Mode: r.Mode, Question: r.Question}
	if r.Paused(h.Actions.Now()) {
		out.Paused, out.PausedUntil = true, api.OptionalTimestamp(r.PausedUntil)
	}
	return out
}

// registrationForm reads the page's forms: the rules form sends mode and
// question, the pause form pauseHours alone.
func registrationForm(form url.Values) (api.RegistrationChange, error) {
	var req api.RegistrationChange
	if form.Has("mode") {
		mode := form.Get("mode")
		req.Mode = &mode
	}
	if form.Has("question") {
		question := form.Get("question")
		req.Question = &question
	}
	if form.Has("pauseHours") {
		hours, err := strconv.Atoi(form.Get("pauseHours"))
		if err != nil {
			return req, api.Invalid(api.FieldIssue("pauseHours", "invalid_type", "pauseHours must be a whole number of hours"))
		}
		req.PauseHours = &hours
	}
	return req, nil
}

// registrationToast says what the rules are now.
func registrationToast(r api.RegistrationRules) string {
	if r.Paused {
		return "Sign-ups paused until " + views.FormatTime(*r.PausedUntil)
	}
	return "Sign-ups: " + views.RegistrationModeLabel(r.Mode)
}
