package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// Version answers GET /api/version: the running version,
// uncached and readable from any origin; 500 {error, details} when no version
// could be read. It is exempt from rate limiting.
type Version struct {
	Version string
	Err     error // why Version is empty
}

// Handle answers GET /api/version.
func (h Version) Handle(c echo.Context) error {
	noStore(c)
	c.Response().Header().Set(echo.HeaderAccessControlAllowOrigin, "*")
	if h.Err != nil {
		return api.ErrVersionUnknown(h.Err)
	}
	return c.JSON(http.StatusOK, api.Version{Version: h.Version})
}
