package web

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// errorHandler is the one place an error becomes a response: it classifies
// the error, logs it once (5xx at Error with the cause, 4xx at Info) and
// writes the caller's family envelope.
func errorHandler(log *slog.Logger, families familyMap, publicURL string, m *metrics.Metrics) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		e := classify(err)
		l := log.With("request_id", c.Response().Header().Get(echo.HeaderXRequestID))
		away := e.Status == http.StatusServiceUnavailable && models.Unavailable(err) != nil
		switch {
		case errors.Is(err, context.Canceled):
			// The client went away; nothing worth logging.
		case away:
			// One line per request, below Error: the outage itself is what
			// to alert on (plaza_database_unavailable_total, /api/health).
			m.DatabaseUnavailable.Inc()
			l.Warn("database unavailable", "error", err, "status", e.Status)
		case e.Status >= 500:
			l.Error("request failed", "error", err, "status", e.Status)
		default:
			l.Info("request refused", "error", err, "status", e.Status)
		}
		fam, ok := families.of(c)
		if !ok {
			fam = api.FamilyConsole // static files
		}
		var werr error
		if fam == api.FamilyNextAuth {
			werr = writeNextAuth(c, e, publicURL)
		} else {
			werr = write(c, e, fam)
		}
		if werr != nil {
			l.Error("write error response", "error", werr)
		}
	}
}

// classify maps any error to a public api.Error. Unknown errors are ours: a
// 500 with a generic message.
func classify(err error) *api.Error {
	var (
		ae *api.Error
		ve *api.ValidationError
		pe *api.PermissionError
		le *models.LockedError
	)
	if e := classifyUnavailable(err); e != nil {
		return e
	}
	if e := classifyRefusal(err); e != nil {
		return e
	}
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &ve):
		return &api.Error{Status: http.StatusUnprocessableEntity, Code: api.CodeValidationError, Message: cmp.Or(ve.Message, "Invalid input"), Details: ve, Cause: err}
	case errors.As(err, &pe):
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "Insufficient permissions", RequiredPermission: pe.Required, Cause: err}
	case errors.As(err, &le):
		return &api.Error{Status: http.StatusLocked, Code: api.CodeResourceLocked, Message: "Another admin is editing this resource",
			LockedBy: le.By, LockedAt: api.Timestamp(le.At), Cause: err}
	case errors.Is(err, models.ErrNotFound):
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "Resource not found", Cause: err}
	case errors.Is(err, models.ErrConflict) || models.IsUniqueViolation(err):
		// A uniqueness rule a concurrent request settled first. The routes
		// retry or upsert their own races, and name a taken name with their
		// own message; what is left is still the client's to retry, never a
		// 500 (docs/api.md, "Concurrent requests").
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: conflictMessage, Cause: err}
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = "Request body is too large"
		}
		return &api.Error{Status: he.Code, Code: api.CodeForStatus(he.Code), Message: msg, Cause: err}
	}
	return &api.Error{Status: http.StatusInternalServerError, Code: api.CodeServerError,
		Message: "Internal server error", Cause: err}
}

// classifyUnavailable answers a request the database could not serve
// (models.Unavailable: refused, restarting, a connection cut mid-query):
// 503 with Retry-After in the caller's family, never a 500, since the
// client did nothing wrong and may send it again, even where a route
// words its own 500 for a failed read. A route's other answers (the
// collector's own 503) keep their words. Nil for any other error.
func classifyUnavailable(err error) *api.Error {
	if models.Unavailable(err) == nil {
		return nil
	}
	var ae *api.Error
	if errors.As(err, &ae) && ae.Status != http.StatusInternalServerError {
		return nil
	}
	return api.DatabaseUnavailable(err)
}

// classifyRefusal maps the policy's and the actions' refusals, the same
// for every door; nil for any other error.
func classifyRefusal(err error) *api.Error {
	forbidden := func(msg, need string) *api.Error {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: msg, RequiredPermission: need, Cause: err}
	}
	var (
		fe      *policy.ForbiddenError
		ie      *actions.InvalidError
		several actions.Invalid
		me      *actions.MissingError
		se      *actions.SilencedError
		re      *actions.RegistrationRefusedError
		pr      *actions.PurgeRefusedError
		de      *models.DecidedError
	)
	switch {
	case errors.As(err, &pr):
		return purgeRefused(pr)
	case errors.As(err, &fe) && access.IsAccountScope(fe.Need):
		return forbidden("This token does not carry "+fe.Need+", which acting as its user here needs", fe.Need)
	case errors.As(err, &fe):
		return forbidden("Insufficient permissions", fe.Need)
	case errors.Is(err, policy.ErrSignInRequired):
		return api.ErrUnauthorized
	case errors.Is(err, policy.ErrNotOwner):
		return forbidden("Only the owner can do this", "")
	case errors.Is(err, policy.ErrSelf):
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeSelfActionForbidden, Message: "You cannot do this to your own account", Cause: err}
	case errors.Is(err, policy.ErrOutranked):
		return forbidden("You act only on people of a role below yours; a super admin acts on anyone", access.PermAdminSuper)
	case errors.Is(err, policy.ErrOwn):
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeSelfActionForbidden, Message: "Nobody acts as staff on their own account or post", Cause: err}
	case errors.Is(err, policy.ErrStaffTarget):
		return forbidden("This acts on members only, never on a staff account", "")
	case errors.Is(err, policy.ErrNeedsHigherRole):
		return forbidden("This needs a role above that of the person who decided or holds it", "")
	case errors.Is(err, policy.ErrSessionOnly):
		return forbidden("A bearer token cannot do this: sign in and confirm it's you", "")
	case errors.Is(err, policy.ErrNeedsSecondFactor):
		return errTwoFactorRequired
	case errors.Is(err, policy.ErrNeedsConfirmation):
		return errSudoRequired
	case errors.Is(err, actions.ErrCodeRequired):
		return &api.Error{Status: http.StatusUnauthorized, Code: api.CodeTOTPRequired, Cause: err,
			Message: "This account uses two-factor sign-in: send the code from your authenticator app, or a recovery code, in code"}
	case errors.Is(err, actions.ErrNoPassword):
		return forbidden("This account has no password to confirm with (it signs in through a provider)", "")
	case errors.Is(err, auth.ErrBusy):
		return &api.Error{Status: http.StatusServiceUnavailable, Code: api.CodeServerError, Message: passwordsBusy, RetryAfter: 1, Cause: err}
	case errors.Is(err, models.ErrLinkedElsewhere):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "This provider account is linked to another Plaza account", Cause: err}
	case errors.Is(err, models.ErrLastWayIn):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "This provider is the only way into your account; link another first", Cause: err}
	case errors.Is(err, actions.ErrLastSuperAdmin):
		return forbidden("The last active super admin cannot be deleted", "")
	case errors.Is(err, actions.ErrTwoFactorOn):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "Two-factor sign-in is already on; turn it off first", Cause: err}
	case errors.Is(err, actions.ErrModeratorsRepublish):
		return forbidden("A hidden or flagged post can be published again only by a moderator", "")
	case errors.Is(err, actions.ErrEmailUnverified):
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeEmailUnverified, Cause: err, Message: emailUnverified}
	case errors.Is(err, actions.ErrEmailVerified):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "Your email address is verified already", Cause: err}
	case errors.As(err, &se):
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeUserSilenced, Cause: err,
			Message: "Your account is silenced until " + api.Timestamp(se.Until) + ": you can read, but not post, report or edit"}
	case errors.As(err, &de):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Cause: err,
			Message: "The application of user " + strconv.FormatInt(de.UserID, 10) + " is " + de.Status + " already"}
	case errors.As(err, &re):
		return &api.Error{Status: http.StatusForbidden, Code: re.Code, Message: re.Message, Cause: err}
	case errors.As(err, &ie):
		return classify(api.Invalid(issueOf(ie)))
	case errors.As(err, &several):
		issues := make([]api.Issue, len(several))
		for i, ie := range several {
			issues[i] = issueOf(ie)
		}
		return classify(api.Invalid(issues...))
	case errors.As(err, &me):
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound,
			Message: "No " + me.Kind + " has id " + strings.Join(me.IDs, ", "), Cause: err}
	}
	return nil
}

// purgeRefused names every account a purge may not include.
func purgeRefused(e *actions.PurgeRefusedError) *api.Error {
	refused := make([]api.V1PurgeRefusal, len(e.Refused))
	names := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		refused[i] = api.V1PurgeRefusal{ID: strconv.FormatInt(r.UserID, 10), Username: r.Username, Reason: r.Reason}
		names[i] = r.Username + " (" + map[string]string{"staff": "staff", "rank": "a role yours does not outrank", "self": "yourself"}[r.Reason] + ")"
	}
	return &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Cause: e,
		Message: "A purge never includes staff, anyone your role does not outrank, or yourself; nothing changed. Untick " + strings.Join(names, ", "),
		Details: map[string]any{"refused": refused}}
}

// emailUnverified answers what waits for the caller's address to be
// verified.
const emailUnverified = "Verify your email address first: open the link mailed to it, or ask for a new one " +
	"from your account page (POST /api/auth/email/resend)"

// conflictMessage answers a write that a concurrent one made impossible.
const conflictMessage = "Another request changed this at the same moment; read it again and retry"

// passwordsBusy answers a password that could not be checked or hashed
// now: every argon2id slot is taken and its queue is full.
const passwordsBusy = "The server is busy checking passwords; try again in a moment"

// write renders e for the route's family in the format the request wants
// (api.FormatOf): console pages and htmx requests get HTML, everyone else
// the family's JSON envelope.
func write(c echo.Context, e *api.Error, fam api.Family) error {
	if e.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if c.Request().Method == http.MethodHead {
		return c.NoContent(e.Status)
	}
	format := api.FormatOf(c.Request())
	if e.Code == api.CodeSudoRequired {
		c.Response().Header().Set(SudoHeader, "required") // console.js asks for the password and retries
	}
	if e.Code == api.CodeTwoFactorRequired && (fam == api.FamilyConsole || format == api.FormatPartial) {
		return enrolRedirect(c)
	}
	if fam != api.FamilyConsole && format != api.FormatPartial {
		status, body := fam.ErrorBody(e)
		return c.JSON(status, body)
	}
	if e.Status == http.StatusUnauthorized {
		return signInRedirect(c)
	}
	info := errorInfo(c, e)
	view := views.ErrorPage(info)
	if _, staff := views.ViewerFrom(c.Request().Context()); staff {
		view = views.FramedError(info)
	}
	if format == api.FormatPartial {
		view = views.ErrorAlert(api.NewErrorView(e))
	}
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(e.Status)
	return view.Render(c.Request().Context(), c.Response())
}

// writeNextAuth answers an error as next-auth's server does: {url} of the
// error page naming it for its client (a form with json=true) and other
// non-browser callers, a redirect there for a browser's plain form.
func writeNextAuth(c echo.Context, e *api.Error, publicURL string) error {
	if e.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	status, body := api.FamilyNextAuth.ErrorBody(e)
	answer := body.(api.NextAuthURL)
	answer.URL = strings.TrimRight(publicURL, "/") + answer.URL
	req := c.Request()
	if api.FormatOf(req) == api.FormatPage && req.PostFormValue("json") != "true" {
		return c.Redirect(http.StatusFound, answer.URL)
	}
	return c.JSON(status, answer)
}

// errorInfo is an error page in words: what went wrong, each field's
// problem for invalid input, and the way back, which for a page's bad
// query is the same page without it.
func errorInfo(c echo.Context, e *api.Error) views.ErrorInfo {
	req := c.Request()
	v := api.NewErrorView(e)
	info := views.ErrorInfo{Status: e.Status, Title: http.StatusText(e.Status), Message: v.Message, Issues: v.Issues,
		Back: api.PathConsole, BackLabel: "Back to the dashboard"}
	withoutQuery := func(label string) {
		if req.Method == http.MethodGet && req.URL.Path != api.PathConsole && strings.HasPrefix(req.URL.Path, api.PathConsole+"/") {
			info.Back, info.BackLabel = req.URL.Path, label
		}
	}
	switch {
	case e.Status == http.StatusUnprocessableEntity || e.Status == http.StatusBadRequest:
		info.Title = "This page cannot show what the link asks for"
		info.Message = "Some of its filters could not be used:"
		if len(v.Issues) == 0 {
			info.Message = v.Message + "."
		}
		withoutQuery("Open the page without these filters")
	case e.Status == http.StatusForbidden:
		info.Title = "You cannot open this"
		info.Message = v.Message + "."
		if e.RequiredPermission != "" {
			info.Message = "It needs the " + e.RequiredPermission + " permission, which your role does not give."
		}
	case e.Status == http.StatusNotFound:
		info.Title = "Page not found"
		info.Message = "There is nothing at " + req.URL.Path + ": the link may be wrong, or what it showed was deleted."
	case e.Status == http.StatusTooManyRequests:
		info.Title = "Too many requests"
		info.Message = v.Message + "."
		info.Back, info.BackLabel = req.URL.RequestURI(), "Try again"
	case e.Status == http.StatusServiceUnavailable:
		info.Title = "Plaza is unavailable for a moment"
		info.Message = "It cannot reach what it needs to answer (" + strings.TrimSuffix(v.Message, ".") + "). Try again in a few seconds."
		info.Back, info.BackLabel = req.URL.RequestURI(), "Try again"
	case e.Status >= 500:
		info.Title = "Something went wrong on our side"
		info.Message = "The error is logged with request id " + c.Response().Header().Get(echo.HeaderXRequestID) + "; nothing you did caused it."
		info.Back, info.BackLabel = req.URL.RequestURI(), "Try again"
	}
	if info.Back != api.PathConsole && !strings.HasPrefix(info.Back, api.PathConsole) {
		info.Back, info.BackLabel = api.PathConsole, "Back to the dashboard"
	}
	return info
}

// SudoHeader marks a refusal for want of a recent confirmation, whatever
// the body's shape, so the console knows to ask for one.
const SudoHeader = "X-Plaza-Sudo"

// enrolRedirect sends a staff member who must enrol in two-factor sign-in
// to the enrolment page (htmx requests get HX-Redirect).
func enrolRedirect(c echo.Context) error {
	if api.FormatOf(c.Request()) == api.FormatPartial {
		c.Response().Header().Set("HX-Redirect", api.PathConsoleTwoFactor)
		return c.NoContent(http.StatusForbidden)
	}
	return c.Redirect(http.StatusFound, api.PathConsoleTwoFactor)
}

// signInRedirect sends a console visitor without a session to the sign-in
// page, coming back here afterwards (htmx requests get HX-Redirect).
func signInRedirect(c echo.Context) error {
	target := api.PathSignIn + "?callbackUrl=" + url.QueryEscape(c.Request().URL.RequestURI())
	if api.FormatOf(c.Request()) == api.FormatPartial {
		c.Response().Header().Set("HX-Redirect", target)
		return c.NoContent(http.StatusUnauthorized)
	}
	return c.Redirect(http.StatusFound, target)
}

// issueOf is an action's refusal of one value as a validation issue.
func issueOf(ie *actions.InvalidError) api.Issue {
	is := api.FieldIssue(ie.Field, cmp.Or(ie.Code, "custom"), ie.Reason)
	if ie.Path != nil {
		is.Path = ie.Path
	}
	return is
}
