package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// WebhookStore is what the webhook handlers read; their writes are
// actions.
type WebhookStore interface {
	Webhooks(ctx context.Context) ([]models.Webhook, error)
	WebhookByID(ctx context.Context, id int64) (*models.Webhook, error)
	WebhookDeliveries(ctx context.Context, id int64, limit, offset int) ([]models.WebhookDelivery, int, error)
}

// Webhooks answers the admin webhook routes: endpoints that get signed
// messages about events. Reads need admin:read; each write is an action
// (actions/webhooks.go), audited with its change.
// Statuses: 200, 201, 202, 401, 403, 404, 409, 422.
type Webhooks struct {
	Store   WebhookStore
	People  People
	Actions *actions.Actions
}

// Create answers POST /api/v1/admin/webhooks: 201 with the endpoint and
// its signing secret, shown this once.
func (h Webhooks) Create(c echo.Context) error {
	var req api.WebhookRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	w, err := h.Actions.CreateWebhook(ctx, access.PrincipalFrom(ctx),
		actions.WebhookInput{URL: &req.URL, Events: req.Events, Description: &req.Description, Active: req.Active})
	if err != nil {
		return err
	}
	res := withSecret(w)
	return respondShown(c, http.StatusCreated, api.OK(res), views.WebhookSecretPanel(res),
		Done{Toast: "Webhook created: copy its secret now", Events: []string{"plaza:webhooks"}})
}

// List answers GET /api/v1/admin/webhooks: every endpoint, oldest first;
// and the console's webhooks page from the same result.
func (h Webhooks) List(c echo.Context) error {
	rows, err := h.Store.Webhooks(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]api.Webhook, len(rows))
	for i := range rows {
		out[i] = apiWebhook(&rows[i])
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.OK(out))
	}
	ids := make([]string, 0, len(out))
	for _, w := range out {
		if w.CreatedBy != nil {
			ids = append(ids, *w.CreatedBy)
		}
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, ids)
	if err != nil {
		return err
	}
	l := views.WebhookList{Webhooks: out, Events: webhook.Events, People: people}
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.WebhookTable(l), Page: views.WebhooksPage(l)})
}

// Get answers GET /api/v1/admin/webhooks/{id}.
func (h Webhooks) Get(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	w, err := h.Store.WebhookByID(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(apiWebhook(w)))
}

// Update answers PATCH /api/v1/admin/webhooks/{id}: url, events,
// description, active; at least one.
func (h Webhooks) Update(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.WebhookPatch
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	w, err := h.Actions.UpdateWebhook(ctx, access.PrincipalFrom(ctx), id,
		actions.WebhookInput{URL: req.URL, Events: req.Events, Description: req.Description, Active: req.Active})
	if err != nil {
		return err
	}
	toast := "Webhook saved"
	if req.Active != nil && req.URL == nil && req.Events == nil && req.Description == nil {
		toast = map[bool]string{true: "Webhook turned on", false: "Webhook turned off"}[*req.Active]
	}
	return respondAction(c, http.StatusOK, api.OK(apiWebhook(w)), Done{Toast: toast, Events: []string{"plaza:webhooks"}})
}

// Delete answers DELETE /api/v1/admin/webhooks/{id}: the endpoint and its
// delivery log go; messages still queued for it are dropped.
func (h Webhooks) Delete(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := h.Actions.DeleteWebhook(ctx, access.PrincipalFrom(ctx), id); err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.DeletedWebhook{Deleted: true, ID: itoa(id)}),
		Done{Toast: "Webhook deleted", Events: []string{"plaza:webhooks"}})
}

// RotateSecret answers POST /api/v1/admin/webhooks/{id}/rotate-secret:
// the endpoint with its new secret, shown this once. The old one stops
// signing at once, queued messages included.
func (h Webhooks) RotateSecret(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	w, err := h.Actions.RotateWebhookSecret(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	res := withSecret(w)
	return respondShown(c, http.StatusOK, api.OK(res), views.WebhookSecretPanel(res),
		Done{Toast: "New secret: copy it now", Events: []string{"plaza:webhooks"}})
}

// Test answers POST /api/v1/admin/webhooks/{id}/test: a ping message is
// queued, 202 with its delivery, which the log then follows.
func (h Webhooks) Test(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	d, err := h.Actions.TestWebhook(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusAccepted, api.OK(apiDelivery(d)),
		Done{Toast: "Test message queued", Events: []string{"plaza:webhook-deliveries"}})
}

// Retry answers POST /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/retry:
// the delivery is queued again with a fresh round of attempts; 202.
func (h Webhooks) Retry(c echo.Context) error {
	id, did, err := deliveryPath(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	d, err := h.Actions.RetryWebhookDelivery(ctx, access.PrincipalFrom(ctx), id, did)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusAccepted, api.OK(apiDelivery(d)),
		Done{Toast: "Delivery queued again", Events: []string{"plaza:webhook-deliveries"}})
}

// Cancel answers POST /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/cancel:
// a pending delivery is cancelled and never attempted again; 200 with it,
// 409 when it is no longer pending.
func (h Webhooks) Cancel(c echo.Context) error {
	id, did, err := deliveryPath(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	d, err := h.Actions.CancelWebhookDelivery(ctx, access.PrincipalFrom(ctx), id, did)
	if errors.Is(err, models.ErrNotPending) {
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict,
			Message: "Only a pending delivery can be cancelled; this one is already settled", Cause: err}
	}
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(apiDelivery(d)),
		Done{Toast: "Delivery cancelled", Events: []string{"plaza:webhook-deliveries"}})
}

// deliveryPath is a delivery route's endpoint and delivery ids.
func deliveryPath(c echo.Context) (int64, int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, 0, err
	}
	did, err := strconv.ParseInt(c.Param("deliveryId"), 10, 64)
	if err != nil || did < 1 {
		return 0, 0, api.ErrNotFound
	}
	return id, did, nil
}

// Deliveries answers GET /api/v1/admin/webhooks/{id}/deliveries: the
// endpoint's delivery log, newest first, paginated; htmx gets the
// console's log partial.
func (h Webhooks) Deliveries(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	page, issues := api.ParsePage(c.QueryParams())
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	ctx := c.Request().Context()
	if _, err := h.Store.WebhookByID(ctx, id); err != nil {
		return err
	}
	rows, total, err := h.Store.WebhookDeliveries(ctx, id, page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := make([]api.WebhookDelivery, len(rows))
	for i := range rows {
		out[i] = apiDelivery(&rows[i])
	}
	res := api.Page(out, total, page)
	log := views.DeliveryLog{WebhookID: id, Deliveries: out, Pagination: res.Meta.Pagination}
	return respond(c, http.StatusOK, res, View{Partial: views.WebhookDeliveryLog(log)})
}

func apiWebhook(w *models.Webhook) api.Webhook {
	return api.Webhook{ID: itoa(w.ID), URL: w.URL, Events: w.Events, Active: w.Active, Description: w.Description,
		CreatedBy: optionalID(w.CreatedBy), CreatedAt: api.Timestamp(w.CreatedAt), UpdatedAt: api.Timestamp(w.UpdatedAt)}
}

func withSecret(w *models.Webhook) api.WebhookWithSecret {
	return api.WebhookWithSecret{Webhook: apiWebhook(w), Secret: webhook.FormatSecret(w.Secret)}
}

func apiDelivery(d *models.WebhookDelivery) api.WebhookDelivery {
	return api.WebhookDelivery{ID: itoa(d.ID), WebhookID: itoa(d.WebhookID), MessageID: d.MessageID, Event: d.Event,
		Status: d.Status, Attempts: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		Payload: d.Payload, CreatedAt: api.Timestamp(d.CreatedAt), LastAttemptAt: api.OptionalTimestamp(d.LastAttemptAt),
		DeliveredAt: api.OptionalTimestamp(d.DeliveredAt), NextAttemptAt: api.OptionalTimestamp(d.NextAttemptAt)}
}
