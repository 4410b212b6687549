package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

// Locks takes, renews, releases and breaks admins' edit leases
// (docs/console.md, "Edit locks") through the lock actions. Statuses:
// 201, 200, 401, 403, 422, 423 RESOURCE_LOCKED.
type Locks struct {
	Actions *actions.Actions
}

var lockTypes = map[string]bool{"user": true, "post": true, "feature_flag": true}

// Acquire answers POST /api/v1/admin/locks {type, id} → 201 {type, id,
// lockedBy, lockedAt, expiresAt}; the holder renews with the same call.
func (h Locks) Acquire(c echo.Context) error {
	var req api.LockRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := checkLockTarget(req.Type, req.ID); err != nil {
		return err
	}
	ctx := c.Request().Context()
	setAuditTarget(ctx, req.Type, req.ID, nil)
	p := access.PrincipalFrom(ctx)
	l, err := h.Actions.TakeLock(ctx, p, req.Type, req.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, api.OK(api.Lock{Type: l.ResourceType, ID: l.ResourceID, LockedBy: p.Username,
		LockedAt: api.Timestamp(l.LockedAt), ExpiresAt: api.Timestamp(l.ExpiresAt)}))
}

// Release answers DELETE /api/v1/admin/locks/{type}/{id}: the holder lets
// go of its lock; anyone else breaks it, if their role is above the
// holder's (423 otherwise).
func (h Locks) Release(c echo.Context) error {
	typ, id := c.Param("type"), c.Param("id")
	if err := checkLockTarget(typ, id); err != nil {
		return err
	}
	ctx := c.Request().Context()
	setAuditTarget(ctx, typ, id, nil)
	if _, err := h.Actions.ReleaseLock(ctx, access.PrincipalFrom(ctx), typ, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(api.ReleasedLock{Released: true, Type: typ, ID: id}))
}

func checkLockTarget(typ, id string) error {
	var issues []api.Issue
	if !lockTypes[typ] {
		issues = append(issues, api.FieldIssue("type", "invalid_enum_value", "type must be user, post or feature_flag"))
	}
	if id == "" || len(id) > 128 {
		issues = append(issues, api.FieldIssue("id", "invalid_string", "id is required"))
	}
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	return nil
}
