package actions

import (
	"context"
	"errors"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
)

// ErrTwoFactorOn refuses to enrol an account whose two-factor sign-in is
// on. A wrong password or code is WrongSecret, as at every door.
var ErrTwoFactorOn = errors.New("two-factor sign-in is already on")

// Attempts is sign-in's failure throttle, which wrong passwords and codes
// count against so that these actions are no way round it: Check refuses
// once the subject's (an email's) window is spent, Take counts failures.
// A nil Attempts counts nothing (the operator's commands).
type Attempts interface {
	Check(ctx context.Context, subject string) error
	Take(ctx context.Context, subject string, n int64) error
	// Refund gives back a try counted before its secret was checked,
	// which turned out right.
	Refund(ctx context.Context, subject string)
}

// TwoFactorSetupInput starts an enrolment: the account's password, the
// issuer the authenticator app shows, and the throttle.
type TwoFactorSetupInput struct {
	Password string
	Issuer   string
	Tries    Attempts
}

// SetUpTwoFactor gives the caller a new secret, pending until
// EnableTwoFactor confirms it with a code (it replaces a pending one). It
// needs the account's password, or, for an account without one (it signs
// in through a provider), a fresh confirmation: a stolen session alone
// must not enrol its thief's authenticator and lock the owner out.
func (a *Actions) SetUpTwoFactor(ctx context.Context, who *access.Principal, in TwoFactorSetupInput) (*auth.Enrolment, error) {
	var out auth.Enrolment
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.ownAccount(ctx, who, policy.SetUpTwoFactor)
		if err != nil {
			return err
		}
		if u.PasswordHash == nil && !a.Policy.Confirmed(who) {
			return policy.ErrNeedsConfirmation
		}
		if u.PasswordHash != nil {
			if err := a.confirmPassword(ctx, u, "password", in.Password, in.Tries); err != nil {
				return err
			}
		}
		if on, err := a.Store.Auth.TwoFactorEnabled(ctx, u.ID); err != nil {
			return err
		} else if on {
			return ErrTwoFactorOn
		}
		if out, err = auth.NewEnrolment(in.Issuer, u.Email); err != nil {
			return err
		}
		sealed, err := a.box().Seal(out.Secret)
		if err != nil {
			return err
		}
		err = a.Store.Auth.StartTwoFactor(ctx, u.ID, sealed)
		if errors.Is(err, models.ErrConflict) {
			return ErrTwoFactorOn
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// EnableTwoFactor turns the caller's pending enrolment on with the code the
// app shows now, and returns the ten recovery codes, shown once. It
// confirms nothing: a dangerous action after it still asks for its own
// confirmation. models.ErrNotFound: no setup under way.
func (a *Actions) EnableTwoFactor(ctx context.Context, who *access.Principal, code string, tries Attempts) ([]string, error) {
	var codes []string
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.ownAccount(ctx, who, policy.EnableTwoFactor)
		if err != nil {
			return err
		}
		tf, err := a.Store.Auth.TwoFactorOf(ctx, u.ID)
		if err != nil {
			return err
		}
		if tf.EnabledAt != nil {
			return ErrTwoFactorOn
		}
		secret, err := a.box().Open(tf.Secret)
		if err != nil {
			return err
		}
		var step int64
		err = tried(ctx, tries, u.Email, func() error {
			var ok bool
			if step, ok = auth.CheckTOTP(secret, code, a.Now(), 0); !ok {
				return errWrongSecret
			}
			return nil
		})
		if errors.Is(err, errWrongSecret) {
			audit.Keep(ctx, map[string]any{"failed": "code"})
			return WrongSecret("code", wrongCode)
		}
		if err != nil {
			return err
		}
		var hashes []string
		if codes, hashes, err = auth.NewRecoveryCodes(); err != nil {
			return err
		}
		return a.Store.Auth.EnableTwoFactor(ctx, u.ID, step, hashes)
	})
	if err != nil {
		return nil, err
	}
	return codes, nil
}

// TwoFactorRemoval turns the caller's two-factor sign-in off: the
// account's password, and a code the app shows now or an unused recovery
// code, both counted against sign-in's failure throttle when wrong.
type TwoFactorRemoval struct {
	Password, Code string
	Tries          Attempts
}

// DisableTwoFactor removes the caller's enrolment and recovery codes. It
// needs the password and, while two-factor sign-in is on, a current code,
// so that a leaked password alone cannot strip the second factor; an
// account without a password keeps its enrolment until an operator resets
// it (plaza user reset-2fa).
func (a *Actions) DisableTwoFactor(ctx context.Context, who *access.Principal, in TwoFactorRemoval) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.ownAccount(ctx, who, policy.DisableTwoFactor)
		if err != nil {
			return err
		}
		if err := a.confirmPassword(ctx, u, "password", in.Password, in.Tries); err != nil {
			return err
		}
		if on, err := a.Store.Auth.TwoFactorEnabled(ctx, u.ID); err != nil || !on {
			return err // a pending or absent enrolment has nothing to prove
		}
		if err := a.confirmCode(ctx, u, "code", in.Code, in.Tries); err != nil {
			return err
		}
		_, err = a.Store.Auth.DisableTwoFactor(ctx, u.ID)
		return err
	})
}

// ownAccount asks the policy whether who may take action on its own
// account, names the account in the audit entry, and reads it.
func (a *Actions) ownAccount(ctx context.Context, who *access.Principal, action policy.Action) (*models.User, error) {
	if err := a.Policy.Check(who, action, policy.Owned(callerID(who))); err != nil {
		return nil, err
	}
	audit.Target(ctx, "user", itoa(who.UserID), nil)
	return a.Store.Users.UserByID(ctx, who.UserID)
}

func (a *Actions) box() auth.SecretBox { return auth.NewSecretBox(string(a.Secret)) }

// ResetTwoFactor turns off user u's two-factor sign-in for someone who
// lost their device, its audit entry recording by whom; it reports
// whether any was on (none: nothing changes, nothing is recorded).
func (a *Actions) ResetTwoFactor(ctx context.Context, who *access.Principal, u *models.User, by string) (bool, error) {
	if on, err := a.Store.Auth.TwoFactorEnabled(ctx, u.ID); err != nil || !on {
		return false, err
	}
	var removed bool
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		roles, err := a.Store.Users.UserRoles(ctx, u.ID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.ResetTwoFactor, policy.Person(u.ID, roles)); err != nil {
			return err
		}
		if removed, err = a.Store.Auth.DisableTwoFactor(ctx, u.ID); err != nil || !removed {
			return err
		}
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"by": by, "email": u.Email})
		return nil
	})
	return removed, err
}
