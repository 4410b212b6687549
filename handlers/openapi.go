package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// OpenAPI answers GET /api/openapi.json: the OpenAPI 3.1 document of
// every route (docs/api.md, "The OpenAPI document"), generated from the
// route table on the first request and kept.
type OpenAPI struct {
	Document func() ([]byte, error)
}

// Handle answers GET /api/openapi.json.
func (h OpenAPI) Handle(c echo.Context) error {
	doc, err := h.Document()
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.JSONBlob(http.StatusOK, doc)
}
