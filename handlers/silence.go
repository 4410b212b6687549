package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// silenceInput is the silence action's input from a request's body: a
// duration the syntax cannot read passes as zero, which the action refuses
// with the one message every door shares.
func silenceInput(id int64, req api.SilenceRequest) actions.SilenceInput {
	d, err := api.ParseDuration(req.Duration)
	if err != nil {
		d = 0
	}
	return actions.SilenceInput{UserID: id, Duration: d, DurationText: req.Duration, Reason: req.Reason}
}

// silenceOf is the silence in force on u at now: when it ends and why, or
// nils.
func silenceOf(u *models.User, now time.Time) (until, reason *string) {
	if !u.Silenced(now) {
		return nil, nil
	}
	r := u.SilenceReason
	return api.OptionalTimestamp(u.SilencedUntil), &r
}

// Silence answers POST /api/v1/admin/users/{id}/silence {duration,
// reason}: the user is read-only until then (docs/api.md, "Silences").
// Statuses: 200, 401, 403 (self, or a super admin unless the caller holds
// admin:super), 404, 422, 423.
func (h V1Users) Silence(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.SilenceRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Silence(ctx, access.PrincipalFrom(ctx), silenceInput(id, req))
	if err != nil {
		return err
	}
	out := h.silenceResult(res)
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: out.User.Username + " is silenced", Events: []string{"plaza:user", "plaza:users"}})
}

// Unsilence answers POST /api/v1/admin/users/{id}/unsilence: the silence
// in force ends now; of a user no silence holds it changes nothing.
// Statuses: 200, 401, 403, 404, 423.
func (h V1Users) Unsilence(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Unsilence(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	out := h.silenceResult(res)
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: out.User.Username + " is no longer silenced",
		Events: []string{"plaza:user", "plaza:users"}})
}

func (h V1Users) silenceResult(res *actions.SilenceResult) api.V1SilenceResult {
	out := api.V1SilenceResult{User: v1User(res.User)}
	out.SilencedUntil, out.SilenceReason = silenceOf(&res.User.User, h.now())
	return out
}

// Silence answers POST /api/admin/users/{id}/silence {duration, reason}
// through the silence action the versioned family uses.
func (h AdminUsers) Silence(c echo.Context) error {
	id, err := userIDParam(c)
	if err != nil {
		return err
	}
	var req api.SilenceRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Silence(ctx, access.PrincipalFrom(ctx), silenceInput(id, req))
	if err != nil {
		return err
	}
	return h.silenced(c, res)
}

// Unsilence answers POST /api/admin/users/{id}/unsilence: the silence in
// force ends. A user who is not silenced is 409, as an unban of a user
// who is not banned is.
func (h AdminUsers) Unsilence(c echo.Context) error {
	id, err := userIDParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Unsilence(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	if res.NotSilenced {
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "User is not silenced"}
	}
	return h.silenced(c, res)
}

// silenced answers {success, user, silencedUntil} with the user as it
// now is.
func (h AdminUsers) silenced(c echo.Context, res *actions.SilenceResult) error {
	row, err := h.Store.AdminUserByID(c.Request().Context(), res.User.ID)
	if err != nil {
		return err
	}
	until, _ := silenceOf(&res.User.User, h.Now())
	return c.JSON(http.StatusOK, api.AdminSilenceResult{Success: true, User: adminUser(row), SilencedUntil: until})
}
