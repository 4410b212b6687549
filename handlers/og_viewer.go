package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// OGViewer answers GET /og-image-viewer, the public page people reach from
// /api/og-image: the image with a form and save, copy and
// context-menu actions. Its fields start from the query (seed, quote,
// author), so a redirected link shows the image it names; a missing seed, or
// random=true, is drawn at random, and a missing quote comes from the pool,
// so that the page always names one exact image that saving and sharing
// reproduce. Values are shown as given: a bad one is reported by the
// preview, in words. Always 200.
type OGViewer struct {
	Quotes QuoteSource
	// PublicURL is PUBLIC_APP_URL, the start of the links the page shares.
	PublicURL string
}

// Handle renders the viewer.
func (h OGViewer) Handle(c echo.Context) error {
	q := c.QueryParams()
	v := api.OGViewer{Seed: q.Get("seed"), Quote: q.Get("quote"), Author: q.Get("author"), PublicURL: h.PublicURL}
	if v.Seed == "" || strings.EqualFold(q.Get("random"), "true") {
		v.Seed = RandomSeed()
	}
	if strings.TrimSpace(v.Quote) == "" {
		// A fetched quote is clipped to what the form and the API accept.
		pick := h.Quotes.Next(c.Request().Context())
		v.Quote = clipRunes(pick.Text, api.MaxOGQuote)
		if strings.TrimSpace(v.Author) == "" {
			v.Author = clipRunes(pick.Author, api.MaxOGAuthor)
		}
	}
	noStore(c)
	return render(c, http.StatusOK, views.OGViewerPage(v))
}

// clipRunes shortens s to at most n runes.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n]))
}
