package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/ogimage"
	"github.com/plazahq/plaza/internal/quotes"
)

// QuoteSource hands out a quote at once; it never waits on the network
// (quotes.Pool).
type QuoteSource interface {
	Next(ctx context.Context) quotes.Quote
}

// OGImage answers GET /api/og-image: a person's browser without
// direct=true is sent (302) to the viewer
// with the same query; everyone else gets the 1200×630 image, PNG
// (image/png) unless type=svg (image/svg+xml), never cached. A missing seed,
// or random=true, means a random seed; a missing quote comes from the pool
// with its author unless one is given. The answer is always an image, so
// that a shared card never shows a broken one: nothing in the query is
// refused (api.ParseOGImageQuery fits it), and a failed generation answers
// 200 with the fallback SVG rather than a 500.
type OGImage struct {
	Quotes QuoteSource
	// Avatar draws the face the image embeds (avatar.Render).
	Avatar ogimage.AvatarFunc
	Log    *slog.Logger
}

// Handle answers GET /api/og-image.
func (h OGImage) Handle(c echo.Context) error {
	req := c.Request()
	hdr := c.Response().Header()
	hdr.Set(echo.HeaderCacheControl, "no-cache, no-store, must-revalidate")
	hdr.Add(echo.HeaderVary, "User-Agent, Accept") // the same URL is an image or a redirect
	q := api.ParseOGImageQuery(c.QueryParams())
	if !q.Direct && ogimage.FromBrowser(req.UserAgent(), req.Header.Get(echo.HeaderAccept)) {
		return c.Redirect(http.StatusFound, viewerURL(req.URL.RawQuery))
	}
	if req.Method == http.MethodHead { // a crawler's probe: the headers, without drawing the image
		c.Response().Header().Set(echo.HeaderContentType, contentType(q.SVG))
		return c.NoContent(http.StatusOK)
	}
	scene, err := h.render(h.options(req.Context(), q), q.SVG)
	if err != nil {
		h.Log.Error("og-image generation failed; serving the fallback image", "error", err,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
		return c.Blob(http.StatusOK, "image/svg+xml", ogimage.FallbackSVG())
	}
	if scene.svg != nil {
		return c.Blob(http.StatusOK, contentType(true), scene.svg)
	}
	defer scene.png.Release()
	hdr.Set(echo.HeaderContentType, contentType(false))
	hdr.Set(echo.HeaderContentLength, strconv.Itoa(scene.png.Len()))
	c.Response().WriteHeader(http.StatusOK)
	_, err = scene.png.WriteTo(c.Response())
	return err
}

// drawn is an og-image: its SVG, or its PNG as encoded (written out
// from there, without a copy into one slice).
type drawn struct {
	svg []byte
	png *ogimage.PNGFile
}

// options fills in what the query left to chance: the seed and the quote.
func (h OGImage) options(ctx context.Context, q api.OGImageQuery) ogimage.Options {
	opts := ogimage.Options{Seed: q.Seed, Quote: q.Quote, Author: q.Author}
	if opts.Seed == "" || q.Random {
		opts.Seed = RandomSeed()
	}
	if opts.Quote == "" {
		pick := h.Quotes.Next(ctx)
		opts.Quote = pick.Text
		if opts.Author == "" {
			opts.Author = pick.Author
		}
	}
	return opts
}

// render builds the image. A panic in the engines is a failed generation
// like any other: the caller serves the fallback instead of a 500.
func (h OGImage) render(opts ogimage.Options, svg bool) (img drawn, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	s, err := ogimage.Build(opts, h.Avatar)
	if err != nil {
		return img, err
	}
	if svg {
		return drawn{svg: s.SVG()}, nil
	}
	img.png, err = s.EncodePNG()
	return img, err
}

func contentType(svg bool) string {
	if svg {
		return "image/svg+xml"
	}
	return "image/png"
}

func viewerURL(rawQuery string) string {
	if rawQuery == "" {
		return api.PathOGViewer
	}
	return api.PathOGViewer + "?" + rawQuery
}

// seedAlphabet and seedLen shape random seeds: short enough to read and
// type, 36^10 ≈ 3.7e15 of them. static/js/og-viewer.js makes the same kind.
const (
	seedAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	seedLen      = 10
)

// RandomSeed returns a new random seed. It need not be unpredictable, only
// unlikely to repeat.
func RandomSeed() string {
	b := make([]byte, seedLen)
	for i := range b {
		b[i] = seedAlphabet[rand.IntN(len(seedAlphabet))]
	}
	return string(b)
}
