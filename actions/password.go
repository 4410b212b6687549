package actions

import (
	"context"
	"errors"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/policy"
)

// Throttle counts wrong passwords by the account's email, as sign-in's
// failure limit does, so that no route is a way round it.
type Throttle = Attempts

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
	err = attempt(ctx, in.Throttle, u.Email, func() error { return a.Passwords.Check(ctx, in.Current, u.PasswordHash) })
	if errors.Is(err, auth.ErrBadPassword) {
		return 0, ErrWrongPassword
	}
	if err != nil {
		return 0, err
	}
	hash, err := a.Passwords.Hash(ctx, in.New)
	if err != nil {
		return 0, err
	}
	return a.Store.ChangePassword(ctx, u.ID, hash, in.KeepSession)
}
