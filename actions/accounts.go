package actions

import (
	"context"
	"errors"
	"slices"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
)

// Refusals of the account actions.
var (
	ErrNoPassword     = errors.New("this account has no password to confirm with")
	ErrLastSuperAdmin = errors.New("the last active super admin cannot be deleted")
)

// DeleteAccountInput is a deletion of user ID: one's own takes the
// password; EndSession, when set, ends the caller's own session inside the
// same change.
type DeleteAccountInput struct {
	UserID     int64
	Password   string
	EndSession func(ctx context.Context) error
	// Tries is sign-in's failure throttle, which one's own password
	// counts against.
	Tries Attempts
}

// DeleteAccount deletes an account with everything that is only its
// owner's. One's own needs the password; someone else's needs users:manage
// and a fresh confirmation; a super admin's needs admin:super; nobody
// deletes the last active super admin.
func (a *Actions) DeleteAccount(ctx context.Context, who *access.Principal, in DeleteAccountInput) error {
	self := who != nil && who.UserID == in.UserID
	if !self && policy.HoldsPower(who, policy.DeleteAccount) {
		audit.Keep(ctx, nil) // staff deleting someone's account, allowed or not
	}
	return a.change(ctx, who, "user", in.UserID, func(ctx context.Context) error {
		target, err := a.Store.Users.UserByID(ctx, in.UserID)
		if err != nil {
			return err
		}
		roles, err := a.Store.Users.UserRoles(ctx, in.UserID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.DeleteAccount, policy.Person(in.UserID, roles)); err != nil {
			return err
		}
		if self {
			if err := a.confirmPassword(ctx, target, "password", in.Password, in.Tries); err != nil {
				return err
			}
		}
		if err := a.keepLastSuperAdmin(ctx, in.UserID, roles); err != nil {
			return err
		}
		if err := a.Store.Users.DeleteUserAccount(ctx, in.UserID); err != nil {
			return err
		}
		if self && in.EndSession != nil {
			return in.EndSession(ctx)
		}
		return nil
	})
}

func (a *Actions) keepLastSuperAdmin(ctx context.Context, id int64, roles []string) error {
	if !slices.Contains(roles, access.RoleSuperAdmin) {
		return nil
	}
	others, err := a.Store.Users.OtherActiveSuperAdmins(ctx, id)
	if err == nil && others == 0 {
		return ErrLastSuperAdmin
	}
	return err
}
