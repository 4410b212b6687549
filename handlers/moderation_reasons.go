package handlers

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// ReasonStore is what the reason presets need.
type ReasonStore interface {
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	Setting(ctx context.Context, key string) (string, bool, error)
	PutSetting(ctx context.Context, key, value string) error
}

// reasonsKey is the setting that keeps the presets, as JSON.
const reasonsKey = "moderation.reasons"

// ModerationReasons answers GET and PUT /api/v1/admin/moderation/reasons:
// the reason presets for bans and moderation.
type ModerationReasons struct {
	Store ReasonStore
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
	if err := req.Check(); err != nil {
		return err
	}
	value, err := json.Marshal(req.Reasons)
	if err != nil {
		return err
	}
	err = h.Store.Change(c.Request().Context(), func(ctx context.Context) error {
		before, err := h.read(ctx)
		if err != nil {
			return err
		}
		setAuditTarget(ctx, "settings", reasonsKey, map[string]any{"before": before, "after": req.Reasons})
		return h.Store.PutSetting(ctx, reasonsKey, string(value))
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(req))
}

func (h ModerationReasons) read(ctx context.Context) ([]string, error) {
	value, ok, err := h.Store.Setting(ctx, reasonsKey)
	if err != nil || !ok {
		return api.DefaultReasons, err
	}
	var reasons []string
	return reasons, json.Unmarshal([]byte(value), &reasons)
}
