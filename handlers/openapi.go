package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// OpenAPI answers GET /api/openapi.json: the OpenAPI 3.1 document of
// every route (docs/api.md, "The OpenAPI document"), generated from the
// route table on the first request and kept, gzipped for clients that take
// it. Version is a digest of the document: asked for with ?v=<Version>,
// the answer may be kept for good (a new document has a new digest);
// without it, the ETag lets a client revalidate for nothing.
type OpenAPI struct {
	Document, Gzipped func() ([]byte, error)
	Version           func() (string, error)
}

// Handle answers GET /api/openapi.json.
func (h OpenAPI) Handle(c echo.Context) error {
	body, err := h.Document()
	if err != nil {
		return err
	}
	version, err := h.Version()
	if err != nil {
		return err
	}
	head := c.Response().Header()
	etag := `"` + version + `"`
	if api.AcceptsGzip(c.Request()) {
		if body, err = h.Gzipped(); err != nil {
			return err
		}
		head.Set(echo.HeaderContentEncoding, "gzip")
		etag = `"` + version + `-gz"`
	}
	head.Set(echo.HeaderVary, echo.HeaderAcceptEncoding)
	head.Set("ETag", etag)
	head.Set(echo.HeaderCacheControl, "no-cache")
	if c.QueryParam("v") == version {
		head.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	}
	if strings.Contains(c.Request().Header.Get("If-None-Match"), etag) {
		head.Del(echo.HeaderContentEncoding)
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}
