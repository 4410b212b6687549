package handlers

import (
	"bytes"
	"context"
	"io"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/audit"
)

// Helpers of the general API's users and posts.

// pathID reads the :id of a general API path. Ids are positive integers,
// so anything else names nothing: 404.
func pathID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, api.ErrNotFound
	}
	return id, nil
}

// idAndBody reads a write's path id and its JSON body, checked: the first
// steps every single-resource admin write takes.
func idAndBody(c echo.Context, body interface{ Check() error }) (int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, err
	}
	if err := decodeJSON(c, body); err != nil {
		return 0, err
	}
	return id, body.Check()
}

// keepAudit asks for the request's Optional audit entry to be written (an
// admin or moderator acting on someone else's resource) and adds details.
func keepAudit(ctx context.Context, details map[string]any) { audit.Keep(ctx, details) }

// decodeOptionalJSON is decodeJSON for a body that may be absent: an empty
// body leaves dst as it is.
func decodeOptionalJSON(c echo.Context, dst any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // the body limit's 413 passes through
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	c.Request().Body = io.NopCloser(bytes.NewReader(body))
	return decodeJSON(c, dst)
}
