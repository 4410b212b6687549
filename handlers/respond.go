// Package handlers holds one handler per operation: each decodes its input,
// calls models or engines, and answers JSON or the templ partial the console
// swaps in, from one result.
package handlers

import (
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// isHTMX reports whether an htmx request (not a boosted page load) asked for a partial.
func isHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-Boosted") != "true"
}

// respond writes the partial for htmx requests and JSON for everyone else.
func respond(c echo.Context, status int, body any, partial templ.Component) error {
	if partial != nil && isHTMX(c) {
		return render(c, status, partial)
	}
	return c.JSON(status, body)
}

// render writes a templ component as an HTML response.
func render(c echo.Context, status int, comp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return comp.Render(c.Request().Context(), c.Response())
}

// noStore marks a response as never to be cached.
func noStore(c echo.Context) {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
