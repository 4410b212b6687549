package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
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
// rule), ending the caller's other sessions and revoking their API tokens
// in the same transaction. It reports what ended. The caller renews its
// own session's id afterwards.
func (a *Actions) ChangePassword(ctx context.Context, who *access.Principal, in PasswordChange) (models.PasswordChanged, error) {
	var none models.PasswordChanged
	if err := a.Policy.Check(who, policy.ChangePassword, policy.Owned(callerID(who))); err != nil {
		return none, err
	}
	if err := in.check(who.Email); err != nil {
		return none, err
	}
	u, err := a.Store.Users.UserByID(ctx, who.UserID)
	if err != nil {
		return none, err
	}
	if err := a.confirmPassword(ctx, u, "currentPassword", in.Current, in.Throttle); err != nil {
		return none, err
	}
	hash, err := a.Passwords.Hash(ctx, in.New)
	if err != nil {
		return none, err
	}
	return a.Store.Auth.ChangePassword(ctx, u.ID, hash, in.KeepSession)
}

// check refuses a change with no current password (a malformed request,
// not a guess: it is never counted against sign-in's throttle) or a new
// password the rule refuses.
func (in PasswordChange) check(email string) error {
	var missing *InvalidError
	if in.Current == "" {
		missing = &InvalidError{Field: "currentPassword", Code: "too_small", Reason: "currentPassword is required"}
	}
	return refusal(missing, checkNewPassword("newPassword", in.New, email))
}
