package actions

import (
	"context"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/policy"
)

// ChangeWebhook runs change (a new URL, events, description or switch, a
// new secret, a test message, a retried or cancelled delivery) on webhook id in one
// change with its audit entry, once the policy allows it. An endpoint is
// its maker's: rank protects a super admin's from redirection or a new
// secret by anyone without admin:super. An unknown id is
// models.ErrNotFound.
func (a *Actions) ChangeWebhook(ctx context.Context, who *auth.Principal, id int64, change func(ctx context.Context) error) error {
	return a.onWebhook(ctx, who, policy.ChangeWebhook, id, change)
}

// DeleteWebhook runs remove on webhook id under the rule for deleting
// one, as ChangeWebhook does.
func (a *Actions) DeleteWebhook(ctx context.Context, who *auth.Principal, id int64, remove func(ctx context.Context) error) error {
	return a.onWebhook(ctx, who, policy.DeleteWebhook, id, remove)
}

func (a *Actions) onWebhook(ctx context.Context, who *auth.Principal, rule policy.Action, id int64, fn func(ctx context.Context) error) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		w, err := a.Store.WebhookByID(ctx, id)
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
