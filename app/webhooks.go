package app

import (
	"context"
	"errors"
	"time"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/netguard"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// newWebhookSender builds the sender of webhook messages, under the address
// policy link previews use too, unless WEBHOOK_ALLOW_PRIVATE lifts it.
func newWebhookSender(cfg config.Config, n *WebhookNet) *webhook.Sender {
	gc := netguard.Config{AllowPrivate: cfg.WebhookAllowPrivate, DialTimeout: webhook.DefaultTimeout}
	if n != nil {
		gc.Resolver, gc.Dial = n.Resolver, n.Dial
	}
	return webhook.NewSender(netguard.New(gc), webhook.DefaultTimeout, "Plaza-Webhooks/1.0 (+"+cfg.PublicAppURL+")")
}

// webhookDeliverer makes one attempt at a webhook message and writes it
// in the delivery log.
type webhookDeliverer struct {
	store  *models.Store
	sender *webhook.Sender
}

func (d webhookDeliverer) DeliverWebhook(ctx context.Context, id int64, final bool, retryIn time.Duration) error {
	m, err := d.store.Hooks.WebhookMessage(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil // the endpoint was deleted: nobody to tell
	}
	if err != nil || m.Delivery.Status != models.DeliveryPending {
		return err // delivered, given up on, or cancelled by an admin: never sent again
	}
	if held, err := d.store.Hooks.HoldWebhookDelivery(ctx, id); held || err != nil {
		return err // a paused endpoint's message waits for its resume
	}
	res := d.sender.Send(ctx, m.URL, m.Secret, m.Delivery.MessageID, d.store.Timestamp(), []byte(m.Delivery.Payload))
	var text string
	refused := errors.Is(res.Err, webhook.ErrBadTarget)
	if res.Err != nil {
		text = res.Err.Error()
	}
	err = d.store.Change(ctx, func(ctx context.Context) error {
		return d.store.Hooks.RecordWebhookAttempt(ctx, id, res.StatusCode, text, final || refused, retryIn)
	})
	switch {
	case err != nil:
		return err
	case refused:
		return jobs.GiveUp(res.Err) // the policy will refuse it again: an admin retries once it is fixed
	}
	return res.Err
}
