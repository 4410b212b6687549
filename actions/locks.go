package actions

import (
	"context"
	"errors"
	"strconv"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// Kinds of resource an edit lock holds.
const (
	LockUser        = "user"
	LockPost        = "post"
	LockFeatureFlag = "feature_flag"
)

// TakeLock takes or renews who's edit lock on the resource (docs/api.md,
// "Locks"). A lock holds back other admins' writes, so taking one is
// acting on the resource: a user's record is that person's (rank, and
// never one's own, which would shield it from a ban or demotion), a post
// its author's (rank, never one's own), a feature flag asks what changing
// the flag asks. A lock another admin holds is *models.LockedError.
func (a *Actions) TakeLock(ctx context.Context, who *access.Principal, typ, id string) (*models.Lock, error) {
	var l *models.Lock
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		rule, t, err := a.lockRule(ctx, typ, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, rule, t); err != nil {
			return err
		}
		l, err = a.Store.Desk.AcquireLock(ctx, typ, id, callerID(who))
		return err
	})
	return l, err
}

// lockRule is the policy entry and target of a lock on the resource. An
// id that names no user or post locks nothing anyone owns.
func (a *Actions) lockRule(ctx context.Context, typ, id string) (policy.Action, policy.Target, error) {
	if typ == LockFeatureFlag {
		return policy.TakeFlagLock, policy.Platform, nil
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return policy.TakeLock, policy.Platform, nil
	}
	owner := n
	if typ == LockPost {
		post, err := a.Store.Posts.PostRecordByID(ctx, n)
		if errors.Is(err, models.ErrNotFound) {
			return policy.TakeLock, policy.Platform, nil
		}
		if err != nil {
			return "", policy.Target{}, err
		}
		owner = post.AuthorID
	}
	t, err := a.personTarget(ctx, owner)
	return policy.TakeLock, t, err
}

// personTarget is the policy target of an action on what user id owns;
// an id no user has owns nothing.
func (a *Actions) personTarget(ctx context.Context, id int64) (policy.Target, error) {
	u, err := a.Store.Users.ListedUserByID(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return policy.Platform, nil
	}
	if err != nil {
		return policy.Target{}, err
	}
	return person(u), nil
}

// ReleasedLock is what ReleaseLock did.
type ReleasedLock struct {
	// Broke names the holder of the lock broken, 0 when the caller let go
	// of its own (or of none).
	Broke int64
}

// ReleaseLock lets go of who's lock on the resource, or breaks the lock
// someone else holds: breaking needs admin:delete and a role above the
// holder's (admin:super acts over anyone), and is audited as lock.break.
// A caller who may not break it is told the lock holds
// (*models.LockedError), as when asking for it. No lock is a no-op.
func (a *Actions) ReleaseLock(ctx context.Context, who *access.Principal, typ, id string) (*ReleasedLock, error) {
	var out ReleasedLock
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		held, err := a.Store.Desk.LockHolder(ctx, typ, id)
		if err != nil || held == nil {
			return err
		}
		t, err := a.personTarget(ctx, held.LockedBy)
		if err != nil {
			return err
		}
		t.Owner = held.LockedBy
		err = a.Policy.Check(who, policy.ReleaseLock, t)
		if errors.Is(err, policy.ErrNeedsHigherRole) {
			return a.Store.Desk.CheckLock(ctx, typ, id, callerID(who))
		}
		if err != nil {
			return err
		}
		if held.LockedBy == callerID(who) {
			return a.Store.Desk.ReleaseLock(ctx, typ, id, held.LockedBy)
		}
		out.Broke = held.LockedBy
		audit.Act(ctx, "lock.break")
		audit.Target(ctx, typ, id, map[string]any{"holder": itoa(held.LockedBy), "lockedAt": wiretime.Format(held.LockedAt)})
		return a.Store.Desk.BreakLock(ctx, typ, id)
	})
	return &out, err
}
