package actions

import (
	"context"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/policy"
)

// Throttle counts wrong passwords by the account's email, as sign-in's
// failure limit does, so that no route is a way round it.
type Throttle interface {
	Check(ctx context.Context, subject string) error
	Take(ctx context.Context, subject string, n int64) error
}

// PasswordChange is a signed-in person's change of their own password.
type PasswordChange struct {
	Current, New string
	// KeepSession is the caller's own session token, which stays; every
	// other session of theirs ends in the same transaction.
	KeepSession string
	Throttle    Throttle
}

// ChangePassword checks the current password under the throttle, then
// changes it to the new one (which the caller checked against the password
// rule). It reports how many
// other sessions ended.
func (a *Actions) ChangePassword(ctx context.Context, who *auth.Principal, in PasswordChange) (int, error) {
	if err := a.Policy.Check(who, policy.ChangePassword, policy.Owned(callerID(who))); err != nil {
		return 0, err
	}
	u, err := a.Store.UserByID(ctx, who.UserID)
	if err != nil {
		return 0, err
	}
	if u.PasswordHash == nil {
		return 0, ErrNoPassword
	}
	if err := in.Throttle.Check(ctx, u.Email); err != nil {
		return 0, err
	}
	if a.Passwords.Check(ctx, in.Current, u.PasswordHash) != nil {
		if err := in.Throttle.Take(ctx, u.Email, 1); err != nil {
			return 0, err
		}
		return 0, ErrWrongPassword
	}
	hash, err := a.Passwords.Hash(ctx, in.New)
	if err != nil {
		return 0, err
	}
	return a.Store.ChangePassword(ctx, u.ID, hash, in.KeepSession)
}
