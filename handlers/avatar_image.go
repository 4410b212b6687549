package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/avatar"
)

// AvatarImage answers GET /api/avatar-image (interface.md 4.5): a
// deterministic SVG avatar for seed at size (50..1000, default 200), never
// cached. 400 {error, status} for a missing seed or a bad size.
type AvatarImage struct{}

// Handle answers GET /api/avatar-image.
func (AvatarImage) Handle(c echo.Context) error {
	seed, err := avatar.ParseSeed(c.QueryParam("seed"))
	if err != nil {
		return api.ErrAvatar(http.StatusBadRequest, "seed is required")
	}
	size, err := avatar.ParseSize(c.QueryParam("size"))
	if err != nil {
		return api.ErrAvatar(http.StatusBadRequest, "size must be an integer from 50 to 1000")
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache, no-store, must-revalidate")
	return c.Blob(http.StatusOK, "image/svg+xml", avatar.Render(seed, size))
}
