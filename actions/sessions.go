package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// UserSessionList is a user's live sessions as staff see them, and whether
// the caller may end them (for what the page shows).
type UserSessionList struct {
	Sessions  []models.UserSession
	CanRevoke bool
}

// UserSessions lists user id's live sessions for staff. A session's list
// says where its owner is signed in, so a super admin's is for super
// admins only, as ending them is.
func (a *Actions) UserSessions(ctx context.Context, who *access.Principal, id int64) (*UserSessionList, error) {
	target, err := a.Store.Users.ListedUserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := a.Policy.Check(who, policy.ViewUserSessions, person(target)); err != nil {
		return nil, err
	}
	rows, err := a.Store.Auth.UserSessions(ctx, id)
	if err != nil {
		return nil, err
	}
	return &UserSessionList{Sessions: rows, CanRevoke: a.Policy.May(who, policy.RevokeUserSession, person(target))}, nil
}

// RevokeUserSessions ends user id's session of public id sid, or every
// session of the user when sid is "", and says how many ended: staff
// signing someone out, never someone who outranks them.
func (a *Actions) RevokeUserSessions(ctx context.Context, who *access.Principal, id int64, sid string) (int, error) {
	var n int
	err := a.Store.Change(ctx, func(ctx context.Context) (err error) {
		target, err := a.Store.Users.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		action := policy.RevokeUserSession
		if sid == "" {
			action = policy.RevokeUserSessions
		}
		if err := a.Policy.Check(who, action, person(target)); err != nil {
			return err
		}
		if sid == "" {
			if n, err = a.Store.Auth.EndUserSessions(ctx, id, ""); err != nil {
				return err
			}
			audit.Target(ctx, "user", itoa(id), map[string]any{"revoked": n})
			return nil
		}
		if err := a.Store.Auth.EndUserSession(ctx, id, sid); err != nil {
			return err
		}
		n = 1
		audit.Target(ctx, "user", itoa(id), map[string]any{"session": sid})
		return nil
	})
	return n, err
}

// RevokeOwnSession ends the caller's own session of public id sid (the
// current one too: that is signing out); an id of no session of theirs is
// models.ErrNotFound.
func (a *Actions) RevokeOwnSession(ctx context.Context, who *access.Principal, sid string) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.RevokeOwnSession, policy.Owned(callerID(who))); err != nil {
			return err
		}
		return a.Store.Auth.EndUserSession(ctx, who.UserID, sid)
	})
}

// RevokeOtherOwnSessions ends every session of the caller's but the one of
// token keep (the one the request came with), and says how many ended.
func (a *Actions) RevokeOtherOwnSessions(ctx context.Context, who *access.Principal, keep string) (int, error) {
	var n int
	err := a.Store.Change(ctx, func(ctx context.Context) (err error) {
		if err := a.Policy.Check(who, policy.RevokeOwnSession, policy.Owned(callerID(who))); err != nil {
			return err
		}
		n, err = a.Store.Auth.EndUserSessions(ctx, who.UserID, keep)
		return err
	})
	return n, err
}
