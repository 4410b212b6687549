package actions

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// MaxWebhookDescription is how long a webhook's description may be, in
// characters.
const MaxWebhookDescription = 500

// TargetChecker checks a webhook's target URL against the address policy.
type TargetChecker interface {
	CheckTarget(raw string) error
}

// WebhookInput is a new webhook endpoint, or a change to one: for a
// change, nil fields are left as they are.
type WebhookInput struct {
	URL         *string
	Events      []string // nil: unchanged
	Description *string
	Active      *bool
}

// CreateWebhook registers an endpoint made by who, active unless in says
// otherwise, with its audit entry in the same commit. The endpoint
// returned carries its signing secret, for the caller to show this once.
func (a *Actions) CreateWebhook(ctx context.Context, who *access.Principal, in WebhookInput) (*models.Webhook, error) {
	var w *models.Webhook
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.CreateWebhook, policy.Platform); err != nil {
			return err
		}
		if in.URL == nil {
			in.URL = new(string)
		}
		events, err := a.checkWebhook(in, true)
		if err != nil {
			return err
		}
		w = &models.Webhook{URL: *in.URL, Events: events, Active: in.Active == nil || *in.Active}
		if in.Description != nil {
			w.Description = *in.Description
		}
		if id := callerID(who); id != 0 {
			w.CreatedBy = &id
		}
		if w.Secret, err = webhook.NewSecret(); err != nil {
			return err
		}
		if err := a.Store.Hooks.CreateWebhook(ctx, w); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(w.ID), webhookFields(w))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// UpdateWebhook changes endpoint id's URL, events, description or
// switch (at least one), and returns it as it now is. An endpoint is its
// maker's: rank protects a super admin's from redirection by anyone
// without admin:super. An unknown id is models.ErrNotFound.
func (a *Actions) UpdateWebhook(ctx context.Context, who *access.Principal, id int64, in WebhookInput) (*models.Webhook, error) {
	var w *models.Webhook
	err := a.onWebhook(ctx, who, policy.UpdateWebhook, id, func(ctx context.Context) (err error) {
		if in.URL == nil && in.Events == nil && in.Description == nil && in.Active == nil {
			return &InvalidError{Reason: "at least one field is required"}
		}
		events, err := a.checkWebhook(in, false)
		if err != nil {
			return err
		}
		ch := models.WebhookChange{URL: in.URL, Events: events, Active: in.Active, Description: in.Description}
		if w, err = a.Store.Hooks.UpdateWebhook(ctx, id, ch); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(id), webhookFields(w))
		return nil
	})
	return w, err
}

// RotateWebhookSecret gives endpoint id a new signing secret and returns
// the endpoint with it, to be shown this once; the old one stops signing
// at once, queued messages included.
func (a *Actions) RotateWebhookSecret(ctx context.Context, who *access.Principal, id int64) (*models.Webhook, error) {
	var w *models.Webhook
	err := a.onWebhook(ctx, who, policy.RotateWebhookSecret, id, func(ctx context.Context) (err error) {
		secret, err := webhook.NewSecret()
		if err != nil {
			return err
		}
		if w, err = a.Store.Hooks.RotateWebhookSecret(ctx, id, secret); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(id), nil)
		return nil
	})
	return w, err
}

// TestWebhook queues a ping message to endpoint id and returns its
// delivery.
func (a *Actions) TestWebhook(ctx context.Context, who *access.Principal, id int64) (*models.WebhookDelivery, error) {
	var d *models.WebhookDelivery
	err := a.onWebhook(ctx, who, policy.TestWebhook, id, func(ctx context.Context) (err error) {
		body, err := webhook.Message(webhook.EventPing, a.Store.Timestamp(), map[string]any{"webhookId": itoa(id)})
		if err != nil {
			return err
		}
		if d, err = a.Store.Hooks.QueueWebhookDelivery(ctx, id, webhook.EventPing, body); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(id), map[string]any{"delivery": itoa(d.ID)})
		return nil
	})
	return d, err
}

// RetryWebhookDelivery queues delivery did of endpoint id again with a
// fresh round of attempts.
func (a *Actions) RetryWebhookDelivery(ctx context.Context, who *access.Principal, id, did int64) (*models.WebhookDelivery, error) {
	return a.onDelivery(ctx, who, policy.RetryWebhookDelivery, id, did, a.Store.Hooks.RetryWebhookDelivery)
}

// CancelWebhookDelivery cancels pending delivery did of endpoint id: it
// is never attempted again. One no longer pending is
// models.ErrNotPending.
func (a *Actions) CancelWebhookDelivery(ctx context.Context, who *access.Principal, id, did int64) (*models.WebhookDelivery, error) {
	return a.onDelivery(ctx, who, policy.CancelWebhookDelivery, id, did, a.Store.Hooks.CancelWebhookDelivery)
}

// DeleteWebhook deletes endpoint id and its delivery log; messages still
// queued for it are dropped.
func (a *Actions) DeleteWebhook(ctx context.Context, who *access.Principal, id int64) error {
	return a.onWebhook(ctx, who, policy.DeleteWebhook, id, func(ctx context.Context) error {
		if err := a.Store.Hooks.DeleteWebhook(ctx, id); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(id), nil)
		return nil
	})
}

// onDelivery runs change on a delivery of endpoint id under rule, naming
// the delivery and its new status in the audit entry.
func (a *Actions) onDelivery(ctx context.Context, who *access.Principal, rule policy.Action, id, did int64,
	change func(ctx context.Context, id, did int64) (*models.WebhookDelivery, error)) (*models.WebhookDelivery, error) {
	var d *models.WebhookDelivery
	err := a.onWebhook(ctx, who, rule, id, func(ctx context.Context) (err error) {
		if d, err = change(ctx, id, did); err != nil {
			return err
		}
		audit.Target(ctx, "webhook", itoa(id), map[string]any{"delivery": itoa(did), "status": d.Status})
		return nil
	})
	return d, err
}

// onWebhook runs fn on endpoint id in one change, once the policy allows
// rule on it: the endpoint's maker is the person acted on.
func (a *Actions) onWebhook(ctx context.Context, who *access.Principal, rule policy.Action, id int64, fn func(ctx context.Context) error) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		w, err := a.Store.Hooks.WebhookByID(ctx, id)
		if err != nil {
			return err
		}
		t := policy.Platform
		if w.CreatedBy != nil {
			if t, err = a.personTarget(ctx, *w.CreatedBy); err != nil {
				return err
			}
		}
		if err := a.Policy.Check(who, rule, t); err != nil {
			return err
		}
		return fn(ctx)
	})
}

// checkWebhook checks in's fields, trimming its URL, and returns its
// events once each (nil when in changes none).
func (a *Actions) checkWebhook(in WebhookInput, create bool) ([]string, error) {
	if in.URL != nil {
		*in.URL = strings.TrimSpace(*in.URL)
		if *in.URL == "" {
			return nil, &InvalidError{Field: "url", Reason: "url is required"}
		}
		if err := a.Targets.CheckTarget(*in.URL); err != nil {
			return nil, &InvalidError{Field: "url", Reason: strings.TrimPrefix(err.Error(), "target not allowed: ")}
		}
	}
	var events []string
	if in.Events != nil || create {
		if len(in.Events) == 0 {
			return nil, &InvalidError{Field: "events", Reason: "at least one event is required"}
		}
		for _, e := range in.Events {
			if !webhook.KnownEvent(e) {
				return nil, &InvalidError{Field: "events", Reason: "unknown event " + strconv.Quote(e) +
					"; expected one of " + strings.Join(webhook.Events, ", ")}
			}
			if !slices.Contains(events, e) {
				events = append(events, e)
			}
		}
	}
	if in.Description != nil && len([]rune(*in.Description)) > MaxWebhookDescription {
		return nil, &InvalidError{Field: "description", Reason: "description is at most " + strconv.Itoa(MaxWebhookDescription) + " characters"}
	}
	return events, nil
}

// webhookFields are what the audit entry keeps of an endpoint.
func webhookFields(w *models.Webhook) map[string]any {
	return map[string]any{"url": w.URL, "events": w.Events, "active": w.Active}
}
