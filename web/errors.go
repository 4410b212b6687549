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

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// family is a group of routes that share an error envelope (interface.md part 7).
type family int

const (
	familyConsole family = iota // HTML pages
	familyV1                    // /api/v1/admin: {success:false, error:{code, message}}
	familyAdmin                 // /api/admin: {error: "...", details}
	familyPublic                // public utilities: {error, details}
	familyGeneral               // the rest of /api: {error:{code, message, details}}
)

// publicPrefixes are the public utility endpoints of interface.md 4.3–4.8.
var publicPrefixes = []string{
	"/api/link-preview", "/api/analytics/collect", "/api/avatar-image",
	"/api/og-image", "/api/version", "/api/health",
}

func familyOf(path string) family {
	switch {
	case strings.HasPrefix(path, "/api/v1/admin"):
		return familyV1
	case strings.HasPrefix(path, "/api/admin"):
		return familyAdmin
	case !strings.HasPrefix(path, "/api/"):
		return familyConsole
	}
	for _, p := range publicPrefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return familyPublic
		}
	}
	return familyGeneral
}

// errorHandler is the one place an error becomes a response: it classifies
// the error, logs it once (5xx at Error with the cause, 4xx at Info) and
// writes the caller's family envelope.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		e := classify(err)
		l := requestLogger(c, log)
		switch {
		case errors.Is(err, context.Canceled):
			// The client went away; nothing worth logging.
		case e.Status >= 500:
			l.Error("request failed", "error", err, "status", e.Status)
		default:
			l.Info("request refused", "error", err, "status", e.Status)
		}
		if werr := write(c, e); werr != nil {
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
		rl *ratelimit.LimitedError
	)
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
	case errors.As(err, &rl):
		return &api.Error{Status: http.StatusTooManyRequests, Code: api.CodeRateLimited, Message: "Too many requests; try again later", Cause: err}
	case errors.Is(err, models.ErrNotFound):
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "Resource not found", Cause: err}
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

func write(c echo.Context, e *api.Error) error {
	if e.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if c.Request().Method == http.MethodHead {
		return c.NoContent(e.Status)
	}
	if body, ok := e.Details.(api.ExactBody); ok { // the collector's and the avatar endpoint's own shapes (interface.md 7.3)
		return c.JSON(e.Status, body)
	}
	fam := familyOf(c.Request().URL.Path)
	ve, _ := e.Details.(*api.ValidationError)
	switch fam {
	case familyV1, familyGeneral:
		body := api.GeneralErrorBody{Code: e.Code, Message: e.Message, Details: e.Details}
		if ve != nil {
			body.Details = ve.FieldReasons()
		}
		if fam == familyGeneral {
			return c.JSON(e.Status, api.GeneralError{Error: body})
		}
		if e.RequiredPermission != "" {
			body.Code = api.CodeInsufficientAdminPermissions
		}
		body.RequiredPermission, body.LockedBy, body.LockedAt = e.RequiredPermission, e.LockedBy, e.LockedAt
		return c.JSON(e.Status, api.V1Error{Error: body})
	case familyAdmin, familyPublic:
		status, details := e.Status, e.Details
		if e.Code == api.CodeValidationError {
			status = http.StatusBadRequest // DECISIONS.md section 9
		}
		if ve != nil {
			details = ve.ZodIssues()
		}
		return c.JSON(status, api.PublicError{Error: e.Message, Details: details})
	}
	if e.Status == http.StatusUnauthorized {
		return signInRedirect(c)
	}
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(e.Status)
	return views.ErrorPage(e.Status, http.StatusText(e.Status), e.Message).Render(c.Request().Context(), c.Response())
}

// signInRedirect sends a console visitor without a session to the sign-in
// page, coming back here afterwards (htmx requests get HX-Redirect).
func signInRedirect(c echo.Context) error {
	target := api.PathSignIn + "?callbackUrl=" + url.QueryEscape(c.Request().URL.RequestURI())
	if c.Request().Header.Get("HX-Request") == "true" {
		c.Response().Header().Set("HX-Redirect", target)
		return c.NoContent(http.StatusUnauthorized)
	}
	return c.Redirect(http.StatusFound, target)
}
