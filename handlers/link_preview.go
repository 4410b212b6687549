package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/linkpreview"
)

// Previewer fetches a page's preview metadata.
type Previewer interface {
	Preview(ctx context.Context, rawURL string) (linkpreview.Preview, error)
}

// LinkPreview answers GET /api/link-preview:
// 200 {title, description, image, url}; 400 for a
// missing or malformed url, 403 for a refused target, 502 with the upstream
// status text, 504 on timeout, all as {error, details}. Nothing is cached.
type LinkPreview struct {
	Fetcher Previewer
}

// Handle answers GET /api/link-preview.
func (h LinkPreview) Handle(c echo.Context) error {
	ctx := linkpreview.WithClient(c.Request().Context(), c.RealIP())
	p, err := h.Fetcher.Preview(ctx, c.QueryParam("url"))
	if err != nil {
		return previewError(err)
	}
	noStore(c)
	return c.JSON(http.StatusOK, api.LinkPreview{Title: p.Title, Description: p.Description, Image: p.Image, URL: p.URL})
}

func previewError(err error) error {
	var le *linkpreview.Error
	if !errors.As(err, &le) {
		return err // the caller went away, or a fault of ours: 500 with a generic message
	}
	status, msg := http.StatusBadGateway, "Could not fetch the page"
	switch le.Kind {
	case linkpreview.KindMissingURL:
		return &api.Error{Status: http.StatusBadRequest, Code: api.CodeValidationError, Message: "URL is required", Cause: err}
	case linkpreview.KindBadURL:
		status, msg = http.StatusBadRequest, "Invalid URL: only absolute http(s) URLs or paths starting with / are accepted"
	case linkpreview.KindForbidden:
		status, msg = http.StatusForbidden, "This URL may not be fetched"
	case linkpreview.KindTimeout:
		status, msg = http.StatusGatewayTimeout, "The page did not answer in time"
	}
	return &api.Error{Status: status, Code: api.CodeForStatus(status), Message: msg, Details: le.Details, Cause: err}
}
