// Package handlers holds one handler per operation: each decodes its input,
// calls models or engines, and answers JSON or the templ partial the console
// swaps in, from one result.
package handlers

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// View is a result's HTML: the partial htmx swaps in and the whole page a
// browser navigates to. Either may be nil when the route has no such
// rendering; the request then gets JSON.
type View struct {
	Partial templ.Component
	Page    templ.Component
}

// respond writes the one result in the format the request wants
// (api.FormatOf): the partial for htmx, the page for a browser, JSON for
// everyone else.
func respond(c echo.Context, status int, body any, v View) error {
	switch api.FormatOf(c.Request()) {
	case api.FormatPartial:
		if v.Partial != nil {
			return render(c, status, v.Partial)
		}
	case api.FormatPage:
		if v.Page != nil {
			return render(c, status, v.Page)
		}
	}
	return c.JSON(status, body)
}

// wantsJSON reports whether the request is an API client's rather than a
// browser's or htmx's.
func wantsJSON(c echo.Context) bool {
	return api.FormatOf(c.Request()) == api.FormatJSON
}

// redirectTo sends a browser on to target after a form: a 303 for a page,
// HX-Redirect for htmx.
func redirectTo(c echo.Context, target string) error {
	if api.FormatOf(c.Request()) == api.FormatPartial {
		c.Response().Header().Set("HX-Redirect", target)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, target)
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

// Done is how the console hears that an action worked: a toast saying
// so, and the events (HX-Trigger) naming what changed, which the parts of
// the page that show it listen for to fetch themselves again.
type Done struct {
	Toast  string
	Events []string
	// Undo is where the toast's Undo button posts, when the action can be
	// taken back: one URL, or one a post for a bulk decision.
	Undo []string
}

// respondAction writes an action's one result: JSON for API clients; for
// htmx, the same status with no body, the toast and the events, as the
// page refreshes what changed through its own GET routes (the forms swap
// nothing).
func respondAction(c echo.Context, status int, body any, d Done) error {
	if api.FormatOf(c.Request()) != api.FormatPartial {
		return c.JSON(status, body)
	}
	if err := setTrigger(c, d); err != nil {
		return err
	}
	return c.NoContent(status)
}

// respondShown is respondAction for an action whose result the console
// must show, not only refresh: htmx gets the partial shown (a token minted
// this once) with the same toast and events; API clients the JSON.
func respondShown(c echo.Context, status int, body any, shown templ.Component, d Done) error {
	if api.FormatOf(c.Request()) != api.FormatPartial {
		return c.JSON(status, body)
	}
	if err := setTrigger(c, d); err != nil {
		return err
	}
	noStore(c)
	return render(c, status, shown)
}

// setTrigger puts d's toast and events in the HX-Trigger header.
func setTrigger(c echo.Context, d Done) error {
	toast := map[string]any{"message": d.Toast}
	switch len(d.Undo) {
	case 0:
	case 1:
		toast["undo"] = d.Undo[0]
	default:
		toast["undo"] = d.Undo
	}
	trigger := map[string]any{"plaza:toast": toast}
	for _, e := range d.Events {
		trigger[e] = true
	}
	b, err := json.Marshal(trigger)
	if err != nil {
		return err
	}
	c.Response().Header().Set("HX-Trigger", string(b))
	return nil
}

// consoleQuery is a console list's state from the request's URL.
func consoleQuery(c echo.Context, sort string, desc bool) views.Query {
	return views.Query{Path: c.Request().URL.Path, Values: c.QueryParams(), DefaultSort: sort, DefaultDesc: desc}
}

// plural is "1 user" or "n users".
func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
