package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

// ReasonStore is what reading the reason presets needs; replacing them
// is an action.
type ReasonStore interface {
	Setting(ctx context.Context, key string) (string, bool, error)
}

// ModerationReasons answers GET and PUT /api/v1/admin/moderation/reasons:
// the reason presets for bans and moderation.
type ModerationReasons struct {
	Store   ReasonStore
	Actions *actions.Actions
}

// Get answers the presets, the defaults until an admin sets them.
func (h ModerationReasons) Get(c echo.Context) error {
	reasons, err := h.read(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(api.V1Reasons{Reasons: reasons}))
}

// Put replaces the presets {reasons}, with before and after in the audit
// entry.
func (h ModerationReasons) Put(c echo.Context) error {
	var req api.V1Reasons
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	reasons, err := h.Actions.SetModerationReasons(ctx, access.PrincipalFrom(ctx), req.Reasons)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(api.V1Reasons{Reasons: reasons}))
}

func (h ModerationReasons) read(ctx context.Context) ([]string, error) {
	return actions.ModerationReasons(ctx, h.Store)
}
