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
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.ClaimPost, policy.Owned(post.AuthorID)); err != nil {
			return err
		}
		if out, err = a.Store.Desk.ClaimPost(ctx, id, callerID(who)); err != nil {
			return err
		}
		until := out.ExpiresAt
		news := models.ModerationNews{Kind: models.NewsClaim, PostID: id, ByID: out.UserID, By: out.Username, Until: &until}
		if err := a.Store.Desk.Announce(ctx, news); err != nil {
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
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.ReleasePost, policy.Owned(post.AuthorID)); err != nil {
			return err
		}
		if released, err = a.Store.Desk.ReleaseClaim(ctx, id, callerID(who)); err != nil {
			return err
		}
		audit.Target(ctx, "post", itoa(id), map[string]any{"released": released})
		if !released {
			return nil // another's claim, or none: nothing changed to tell
		}
		return a.Store.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsClaim, PostID: id, ByID: callerID(who), By: who.Username, Released: true})
	})
	return released, err
}
