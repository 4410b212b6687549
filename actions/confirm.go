package actions

import (
	"context"
	"errors"
)

// errNoThrottle is a door that checks a password without sign-in's
// failure throttle: a programming error, refused rather than run.
var errNoThrottle = errors.New("a password is checked only under the sign-in throttle")

// CheckPassword is Plaza's one check of a password a request gives,
// whatever the door: sign-in, confirmation, password change, two-factor
// setup and removal, deleting one's own account. The try counts against
// sign-in's failure throttle for email (per email and address, and per
// address) before argon2id runs, and is given back only when right, so
// that no route is a way round the throttle and tries sent together
// cannot all pass a window with one left. A nil hash (no such account, or
// one without a password) is compared with a dummy, taking as long.
// Answers nil, auth.ErrBadPassword, auth.ErrBusy or the throttle's refusal.
func (a *Actions) CheckPassword(ctx context.Context, tries Attempts, email, password string, hash *string) error {
	if tries == nil {
		return errNoThrottle
	}
	if err := tries.Take(ctx, email, 1); err != nil {
		return err
	}
	err := a.Passwords.Check(ctx, password, hash)
	if err == nil {
		tries.Refund(ctx, email)
	}
	return err
}
