package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// MarkRead marks a notification or broadcast in who's inbox read and
// returns it; one not in the inbox is models.ErrNotFound.
func (a *Actions) MarkRead(ctx context.Context, who *access.Principal, key models.InboxKey) (*models.InboxItem, error) {
	var n *models.InboxItem
	err := a.inbox(ctx, who, func(ctx context.Context, user int64) (err error) {
		n, err = a.Store.Notices.MarkRead(ctx, user, key)
		return err
	})
	return n, err
}

// Dismiss takes a notification or broadcast out of who's inbox for good;
// one not in the inbox is models.ErrNotFound.
func (a *Actions) Dismiss(ctx context.Context, who *access.Principal, key models.InboxKey) error {
	return a.inbox(ctx, who, func(ctx context.Context, user int64) error {
		return a.Store.Notices.Dismiss(ctx, user, key)
	})
}

// inbox runs fn as a change to who's own inbox, once the policy allows it
// (a bearer token needs account:write).
func (a *Actions) inbox(ctx context.Context, who *access.Principal, fn func(ctx context.Context, user int64) error) error {
	if err := a.ActAsSelf(who, policy.ManageInbox); err != nil {
		return err
	}
	return a.Store.Change(ctx, func(ctx context.Context) error { return fn(ctx, who.UserID) })
}
