package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// OpenAPI answers GET /api/openapi.json: the OpenAPI 3.1 document of
// every route (docs/api.md, "The OpenAPI document"), generated from the
// route table on the first request and kept, gzipped for clients that take
// it (the API reference's first load is mostly this document).
type OpenAPI struct {
	Document, Gzipped func() ([]byte, error)
}

// Handle answers GET /api/openapi.json.
func (h OpenAPI) Handle(c echo.Context) error {
	body, err := h.Document()
	if err != nil {
		return err
	}
	head := c.Response().Header()
	head.Set(echo.HeaderCacheControl, "no-cache")
	head.Set(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if api.AcceptsGzip(c.Request()) {
		if body, err = h.Gzipped(); err != nil {
			return err
		}
		head.Set(echo.HeaderContentEncoding, "gzip")
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}
