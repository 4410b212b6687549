package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/avatar"
)

// AvatarImage answers GET /api/avatar-image: a
// deterministic SVG avatar for seed at size (50..1000, default 200), never
// cached. 400 {error, status} for a missing seed or a bad size.
type AvatarImage struct{}

// Handle answers GET /api/avatar-image. It is Plaza's busiest route (a page
// of people shows dozens of avatars), so it reads its two parameters
// without parsing the whole query and sets headers from shared values.
func (a AvatarImage) Handle(c echo.Context) error {
	return a.serve(c, avatarCacheControl, true)
}

// Console answers GET /admin/avatar: the same image for the console's
// pages, which the browser keeps. The public route may not be cached, and
// a users page of 50 uncached avatars weighed 150 KB at every visit; the
// same seed and size draw the same bytes in every version (the golden
// tests), so the console's copy never goes stale.
func (a AvatarImage) Console(c echo.Context) error {
	return a.serve(c, consoleAvatarCacheControl, false)
}

// ConsoleSheet answers GET /admin/avatars?seeds=1,2,3: the avatars of a
// page of a list as one SVG of symbols (a0, a1, …) that the rows draw
// with <use>. Fifty separate images cost fifty requests of headers and
// 45 KB even compressed; as one document their repeated shapes compress
// to about 10 KB. The same seeds draw the same bytes in every version, so
// the browser keeps it like the single avatars.
func (AvatarImage) ConsoleSheet(c echo.Context) error {
	seeds := strings.Split(c.QueryParam("seeds"), ",")
	if len(seeds) > avatar.MaxSheet {
		return api.ErrAvatar(http.StatusBadRequest, "seeds may name at most "+strconv.Itoa(avatar.MaxSheet)+" avatars")
	}
	for _, s := range seeds {
		if _, err := avatar.ParseSeed(s); err != nil {
			return api.ErrAvatar(http.StatusBadRequest, "seeds must be one or more seeds separated by commas")
		}
	}
	h := c.Response().Header()
	h[echo.HeaderCacheControl] = consoleAvatarCacheControl[:1:1]
	return c.Blob(http.StatusOK, avatarContentType[0], avatar.AppendSheet(make([]byte, 0, len(seeds)*avatar.TypicalLen/2), seeds))
}

// serve draws the avatar. sized declares its length, which the public
// route does for speed; the console's copy leaves it out, so that the
// route's compression (which passes bodies of declared length as they
// are) shrinks it to about a third.
func (AvatarImage) serve(c echo.Context, cacheControl []string, sized bool) error {
	raw := c.Request().URL.RawQuery
	seed, err := avatar.ParseSeed(queryParam(raw, "seed"))
	if err != nil {
		return api.ErrAvatar(http.StatusBadRequest, "seed is required")
	}
	size, err := avatar.ParseSize(queryParam(raw, "size"))
	if err != nil {
		return api.ErrAvatar(http.StatusBadRequest, "size must be an integer from 50 to 1000")
	}
	h := c.Response().Header()
	h[echo.HeaderCacheControl], h[echo.HeaderContentType] = cacheControl[:1:1], avatarContentType[:1:1]
	buf := svgBuffers.Get().(*[]byte)
	defer svgBuffers.Put(buf)
	*buf = avatar.AppendSVG((*buf)[:0], seed, size)
	if sized {
		// A known length spares the client and net/http chunked encoding.
		h[echo.HeaderContentLength] = []string{strconv.Itoa(len(*buf))}
	}
	return c.Blob(http.StatusOK, avatarContentType[0], *buf)
}

// svgBuffers recycles the buffers avatars are drawn into: the response is
// written before the handler returns, so a buffer is free again at once,
// and the busiest route leaves no garbage of its size behind.
var svgBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// Header values shared by every avatar response; each use takes a slice of
// capacity one, so a later Add grows a copy, never these.
var (
	avatarCacheControl        = []string{"no-cache, no-store, must-revalidate"}
	consoleAvatarCacheControl = []string{"private, max-age=31536000, immutable"}
	avatarContentType         = []string{"image/svg+xml"}
)
