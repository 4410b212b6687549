package api

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Limits of the og-image's text parameters, chosen by Plaza; these are
// the engine's own (ogimage.MaxQuoteRunes, MaxAuthorRunes). Longer text is
// not refused: the engine cuts it at a word and ends it in "…", because an
// <img> or og:image built from someone's text must never show a broken
// image. A longer seed is cut to its first MaxOGSeed characters, which
// keeps the image the same for the same link.
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

// ParseOGImageQuery reads the og-image query. Nothing in it is refused:
// unknown parameters are ignored (crawlers add tracking ones), a flag that
// is not "true" or "false" is its default (false), a type other than svg
// is PNG, and long text is fitted by the engine.
func ParseOGImageQuery(v url.Values) OGImageQuery {
	q := OGImageQuery{Seed: clip(v.Get("seed"), MaxOGSeed), Quote: blankless(v.Get("quote")), Author: blankless(v.Get("author"))}
	q.Random = strings.EqualFold(v.Get("random"), "true")
	q.Direct = strings.EqualFold(v.Get("direct"), "true")
	q.SVG = strings.EqualFold(v.Get("type"), "svg")
	return q
}

// blankless treats text of white space only as not given.
func blankless(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// clip keeps the first n characters of s.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
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
