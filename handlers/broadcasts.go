package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// BroadcastStore is what the broadcast handlers read; sending one is an
// action.
type BroadcastStore interface {
	Broadcasts(ctx context.Context, limit, offset int) ([]models.BroadcastRow, int, error)
}

// Broadcasts answers the admin's broadcast routes.
type Broadcasts struct {
	Store   BroadcastStore
	People  People
	Actions *actions.Actions
}

// Send answers POST /api/v1/admin/notifications/broadcast: 201 with the
// broadcast, sent (in every recipient's inbox already, its recipients
// counted) or scheduled. A user target no user has is 422.
func (h Broadcasts) Send(c echo.Context) error {
	var req api.V1BroadcastRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, err := h.Actions.SendBroadcast(ctx, access.PrincipalFrom(ctx), actions.BroadcastInput{Title: req.Title, Message: req.Message,
		Type: req.Type, Targets: req.Targets, Schedule: req.Schedule})
	if err != nil {
		return err
	}
	out := v1Broadcast(&models.BroadcastRow{Broadcast: *b})
	toast := "Broadcast sent to " + plural(out.Recipients, "user")
	if out.Status == models.BroadcastScheduled {
		toast = "Broadcast scheduled"
	}
	return respondAction(c, http.StatusCreated, api.OK(out), Done{Toast: toast, Events: []string{"plaza:broadcasts", "plaza:inbox"}})
}

// List answers GET /api/v1/admin/notifications/broadcasts: newest first,
// with recipients and reads.
func (h Broadcasts) List(c echo.Context) error {
	page, issues := api.ParsePage(c.QueryParams())
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	rows, total, err := h.Store.Broadcasts(c.Request().Context(), page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := make([]api.V1Broadcast, len(rows))
	for i := range rows {
		out[i] = v1Broadcast(&rows[i])
	}
	res := api.Page(out, total, page)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	ids := make([]string, 0, len(out))
	for _, b := range out {
		if b.CreatedBy != nil {
			ids = append(ids, *b.CreatedBy)
		}
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, ids)
	if err != nil {
		return err
	}
	list := views.BroadcastList{Broadcasts: out, Pagination: res.Meta.Pagination, Query: consoleQuery(c, "", true), People: people,
		TitleLimit: actions.MaxBroadcastTitle, MessageLimit: actions.MaxBroadcastMessage}
	return respond(c, http.StatusOK, res, View{Partial: views.BroadcastTable(list), Page: views.BroadcastsPage(list)})
}

func v1Broadcast(r *models.BroadcastRow) api.V1Broadcast {
	b := &r.Broadcast
	schedule := "immediate"
	if b.ScheduledAt != nil {
		schedule = api.Timestamp(*b.ScheduledAt)
	}
	out := api.V1Broadcast{ID: itoa(b.ID), Title: b.Title, Message: b.Message, Type: b.Type, Targets: b.Targets,
		Schedule: schedule, Status: b.Status, Recipients: b.Recipients, Read: r.ReadCount,
		CreatedAt: api.Timestamp(b.CreatedAt), CreatedBy: optionalID(b.CreatedBy)}
	if b.Status == models.BroadcastSent { // in every inbox from the moment it is sent
		sent := api.Timestamp(b.SentAt)
		out.Delivered, out.SentAt, out.DeliveredAt = b.Recipients, &sent, &sent
	}
	return out
}
