package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// ClaimPost claims post id of the moderation queue for who ("Ana is
// reviewing"), or renews who's claim, for models.ClaimLease. Another
// moderator's claim that still holds is *models.LockedError.
func (a *Actions) ClaimPost(ctx context.Context, who *access.Principal, id int64) (*models.Claim, error) {
	var out *models.Claim
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.Store.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.ClaimPost, policy.Owned(post.AuthorID)); err != nil {
			return err
		}
		if out, err = a.Store.ClaimPost(ctx, id, callerID(who)); err != nil {
			return err
		}
		audit.Target(ctx, "post", itoa(id), map[string]any{"expiresAt": wiretime.Format(out.ExpiresAt)})
		return nil
	})
	return out, err
}

// ReleasePost lets who's claim on post id go and reports whether who held
// one; another moderator's claim stays.
func (a *Actions) ReleasePost(ctx context.Context, who *access.Principal, id int64) (bool, error) {
	var released bool
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.Store.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.ReleasePost, policy.Owned(post.AuthorID)); err != nil {
			return err
		}
		released, err = a.Store.ReleaseClaim(ctx, id, callerID(who))
		audit.Target(ctx, "post", itoa(id), map[string]any{"released": released})
		return err
	})
	return released, err
}
