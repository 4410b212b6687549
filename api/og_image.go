package api

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the og-image's text parameters, chosen by Plaza; these
// are the engine's own (ogimage.MaxQuoteRunes, MaxAuthorRunes), so a text
// the API accepts is drawn whole, never cut short with "…". The seed's bound
// only keeps URLs sane.
const (
	MaxOGQuote  = 500
	MaxOGAuthor = 80
	MaxOGSeed   = 200
)

// OGImageQuery is the decoded query of GET /api/og-image. Empty strings
// mean "not given": the handler then picks a seed or a quote itself.
type OGImageQuery struct {
	Seed   string
	Quote  string
	Author string
	Random bool // a random seed even when seed is given
	Direct bool // the image even for a browser
	SVG    bool // type=svg; PNG otherwise
}

// ParseOGImageQuery reads and checks the og-image query. Unknown parameters
// are ignored (crawlers add tracking ones); a bad value is a
// *ValidationError naming every faulty parameter.
func ParseOGImageQuery(v url.Values) (OGImageQuery, error) {
	q := OGImageQuery{Seed: v.Get("seed"), Quote: blankless(v.Get("quote")), Author: blankless(v.Get("author"))}
	var issues []Issue
	issues = appendTooLong(issues, "seed", q.Seed, MaxOGSeed)
	issues = appendTooLong(issues, "quote", q.Quote, MaxOGQuote)
	issues = appendTooLong(issues, "author", q.Author, MaxOGAuthor)
	var ok bool
	if q.Random, ok = parseFlag(v.Get("random")); !ok {
		issues = append(issues, enumIssue("random", v.Get("random"), "true | false"))
	}
	if q.Direct, ok = parseFlag(v.Get("direct")); !ok {
		issues = append(issues, enumIssue("direct", v.Get("direct"), "true | false"))
	}
	switch strings.ToLower(v.Get("type")) {
	case "", "png":
	case "svg":
		q.SVG = true
	default:
		issues = append(issues, enumIssue("type", v.Get("type"), "png | svg"))
	}
	if len(issues) > 0 {
		return q, &ValidationError{Message: "Invalid og-image parameters", Issues: issues}
	}
	return q, nil
}

// blankless treats text of white space only as not given.
func blankless(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

func appendTooLong(issues []Issue, field, s string, limit int) []Issue {
	if utf8.RuneCountInString(s) <= limit {
		return issues
	}
	return append(issues, Issue{Path: []string{field}, Code: "too_big",
		Message: field + " must be at most " + strconv.Itoa(limit) + " characters"})
}

func enumIssue(field, got, want string) Issue {
	return Issue{Path: []string{field}, Code: "invalid_enum_value", Expected: want, Received: got,
		Message: field + " must be one of " + want}
}

// parseFlag reads a true/false parameter; empty is false.
func parseFlag(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "", "false":
		return false, true
	case "true":
		return true, true
	}
	return false, false
}

// OGImageURL is the path and query of the image for seed, quote and author,
// with parameters in a fixed order (seed, quote, author, type, direct) so
// that the viewer's links are stable. svg asks for type=svg; direct adds
// direct=true, which a browser needs to get the image instead of the viewer.
func OGImageURL(seed, quote, author string, svg, direct bool) string {
	var b strings.Builder
	b.WriteString(PathOGImage)
	sep := byte('?')
	add := func(k, v string) {
		if v == "" {
			return
		}
		b.WriteByte(sep)
		sep = '&'
		b.WriteString(k + "=" + url.QueryEscape(v))
	}
	add("seed", seed)
	add("quote", quote)
	add("author", author)
	if svg {
		add("type", "svg")
	}
	if direct {
		add("direct", "true")
	}
	return b.String()
}

// OGViewer is what the og-image viewer shows: the form's values, the
// preview's URL (SVG, direct) and the link to share.
type OGViewer struct {
	Seed   string
	Quote  string
	Author string
	// PublicURL is PUBLIC_APP_URL; shared links start with it.
	PublicURL string
}

// PreviewURL is the SVG the page shows.
func (v OGViewer) PreviewURL() string { return OGImageURL(v.Seed, v.Quote, v.Author, true, true) }

// ShareURL is the absolute link to share: crawlers get the PNG from it,
// people the viewer.
func (v OGViewer) ShareURL() string {
	return strings.TrimRight(v.PublicURL, "/") + OGImageURL(v.Seed, v.Quote, v.Author, false, false)
}
