package handlers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// APIDocs answers GET /api/docs: the API reference, written on the server
// from the OpenAPI document that /api/openapi.json serves, so that it shows
// every operation on first paint and needs no script to be read. The page
// changes only with the document or the static files it links, so its
// ETag (a digest of the page) turns a repeat visit into a 304.
type APIDocs struct {
	Reference func() (api.APIReference, error)
}

// Handle renders the reference page.
func (h APIDocs) Handle(c echo.Context) error {
	ref, err := h.Reference()
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := views.APIDocsPage(ref).Render(c.Request().Context(), &page); err != nil {
		return err
	}
	sum := sha256.Sum256(page.Bytes())
	// Weak: the same page goes out in whichever encoding the client takes.
	etag := `W/"` + hex.EncodeToString(sum[:8]) + `"`
	head := c.Response().Header()
	head.Set("ETag", etag)
	head.Set(echo.HeaderCacheControl, "no-cache")
	if strings.Contains(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.HTMLBlob(http.StatusOK, page.Bytes())
}
