package api

import (
	"mime"
	"net/http"
	"strings"

	"github.com/munnerz/goautoneg"
)

// Format is the rendering a request wants: the console and the API run the
// same handlers, and a handler's one result is written in the format the
// request asks for.
type Format int

// The formats.
const (
	FormatJSON    Format = iota // API clients, and anyone who does not ask for HTML
	FormatPartial               // htmx: the fragment to swap in
	FormatPage                  // a browser navigating or submitting a form: a whole page
)

// FormatOf decides how to answer r, and is the only place that decides:
//   - an htmx request (HX-Request, not a boosted navigation) gets a partial;
//   - a request whose Accept prefers text/html to application/json gets a page;
//   - a request whose Accept names neither (none, or */* only) gets a page
//     when it submits a form, as a browser's plain form does, else JSON;
//   - everyone else gets JSON.
func FormatOf(r *http.Request) Format {
	h := r.Header
	if h.Get("HX-Request") == "true" && h.Get("HX-Boosted") != "true" {
		return FormatPartial
	}
	html, json, named := acceptWeights(h.Get("Accept"))
	switch {
	case named && html > 0 && html >= json:
		return FormatPage
	case !named && isForm(h.Get("Content-Type")):
		return FormatPage
	}
	return FormatJSON
}

// acceptWeights gives the quality an Accept header names for HTML and for
// JSON, and whether it names either at all.
func acceptWeights(accept string) (html, json float64, named bool) {
	if accept == "" {
		return 0, 0, false
	}
	for _, a := range goautoneg.ParseAccept(accept) {
		switch {
		case a.Type == "text" && a.SubType == "html", a.Type == "application" && a.SubType == "xhtml+xml":
			html, named = max(html, a.Q), true
		case a.Type == "application" && a.SubType == "json":
			json, named = max(json, a.Q), true
		}
	}
	return html, json, named
}

func isForm(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data")
}

// AcceptsGzip tells whether r takes a gzipped body (Accept-Encoding names
// gzip without q=0): the static files and the OpenAPI document keep a
// gzipped copy for those that do.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}
