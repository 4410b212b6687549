package actions

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
)

// errNoThrottle is a door that checks a password or code without sign-in's
// failure throttle: a programming error, refused rather than run.
var errNoThrottle = errors.New("a password or code is checked only under the sign-in throttle")

// CheckPassword is Plaza's one check of a password a request gives,
// whatever the door: sign-in, confirmation, password change, two-factor
// setup and removal, deleting one's own account. It counts under the
// throttle (tried). A nil hash (no such account, or one without a
// password) is compared with a dummy, taking as long. Answers nil,
// auth.ErrBadPassword, auth.ErrBusy or the throttle's refusal.
func (a *Actions) CheckPassword(ctx context.Context, tries Attempts, email, password string, hash *string) error {
	return tried(ctx, tries, email, func() error { return a.Passwords.Check(ctx, password, hash) })
}

// tried is every password and code check's throttle, sign-in's failure
// limit for email (per email and address, and per address): the try
// counts before check runs, and is given back only when right, so that no
// door is a way round the throttle and tries sent together cannot all
// pass a window with one left. Without a throttle nothing is checked.
func tried(ctx context.Context, tries Attempts, email string, check func() error) error {
	if tries == nil {
		return errNoThrottle
	}
	if err := tries.Take(ctx, email, 1); err != nil {
		return err
	}
	err := check()
	if err == nil {
		tries.Refund(ctx, email)
	}
	return err
}

// WrongSecret is the one refusal of a wrong password or code a person
// confirms it is them with: invalid input on the request's field (422),
// counted as a failed sign-in.
func WrongSecret(field, reason string) *InvalidError {
	return &InvalidError{Field: field, Reason: reason}
}

// The reasons of WrongSecret.
const (
	wrongPassword = "That password is wrong"
	wrongCode     = "That code is wrong or was already used; check the time on your device and type the code it shows now"
)

// confirmPassword is the one re-confirmation of u's password, at every
// door that asks for it (confirmation, password change, two-factor setup
// and removal, deleting one's own account): required, counted under the
// throttle, a wrong one audited and refused as WrongSecret on field. An
// account without a password has none to confirm with (ErrNoPassword).
func (a *Actions) confirmPassword(ctx context.Context, u *models.User, field, password string, tries Attempts) error {
	if password == "" {
		return &InvalidError{Field: field, Reason: field + " is required"}
	}
	if u.PasswordHash == nil {
		return ErrNoPassword
	}
	err := a.CheckPassword(ctx, tries, u.Email, password, u.PasswordHash)
	if errors.Is(err, auth.ErrBadPassword) {
		audit.Keep(ctx, map[string]any{"failed": "password"})
		return WrongSecret(field, wrongPassword)
	}
	return err
}

// confirmCode is the one re-confirmation of u's second factor (a code the
// app shows now, not used before, or an unused recovery code), which it
// spends: counted under the throttle, a wrong one audited and refused as
// WrongSecret on field. An account whose two-factor sign-in is not on has
// no code to give, and is refused the same way.
func (a *Actions) confirmCode(ctx context.Context, u *models.User, field, code string, tries Attempts) error {
	if strings.TrimSpace(code) == "" {
		return &InvalidError{Field: field, Reason: "A code from your authenticator app, or a recovery code, is required"}
	}
	err := tried(ctx, tries, u.Email, func() error {
		tf, err := a.Store.Auth.TwoFactorOf(ctx, u.ID)
		if errors.Is(err, models.ErrNotFound) || err == nil && tf.EnabledAt == nil {
			return errWrongSecret // no code is right: counted as wrong
		}
		if err != nil {
			return err
		}
		used, left, err := a.spendCode(ctx, tf, code, "")
		if err == nil && used == "" {
			return errWrongSecret
		}
		if used == usedRecoveryCode {
			audit.Keep(ctx, map[string]any{"used": used, "recoveryCodesLeft": left})
		}
		return err
	})
	if errors.Is(err, errWrongSecret) {
		audit.Keep(ctx, map[string]any{"failed": "code"})
		return WrongSecret(field, wrongCode)
	}
	return err
}

// errWrongSecret is a wrong code inside tried, which keeps it counted.
var errWrongSecret = errors.New("wrong code")

// What spendCode used.
const (
	usedTOTP         = "totp"
	usedRecoveryCode = "recovery_code"
)

// spendCode is the one check of a second factor's code, which it spends:
// a TOTP code of a later time step than the last one used, or an unused
// recovery code (then how many are left). code is either, told apart by
// its form (six digits are a TOTP code); recovery, when given, is a
// recovery code only. It answers what was used, "" for a wrong code.
func (a *Actions) spendCode(ctx context.Context, tf *models.TwoFactor, code, recovery string) (used string, left int, err error) {
	digits := strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if _, err := strconv.Atoi(digits); recovery == "" && (err != nil || len(digits) != 6) {
		recovery = code
	}
	if recovery != "" {
		ok, left, err := a.Store.Auth.UseRecoveryCode(ctx, tf.UserID, auth.HashRecoveryCode(recovery))
		if !ok || err != nil {
			return "", 0, err
		}
		return usedRecoveryCode, left, nil
	}
	secret, err := a.box().Open(tf.Secret)
	if err != nil {
		return "", 0, err
	}
	step, ok := auth.CheckTOTP(secret, digits, a.Now(), tf.LastStep)
	if !ok {
		return "", 0, nil
	}
	if ok, err = a.Store.Auth.UseTOTPStep(ctx, tf.UserID, step); !ok || err != nil {
		return "", 0, err
	}
	return usedTOTP, 0, nil
}

// ErrWrongCode is a sign-in code that is wrong, already used, or given
// for an account without two-factor sign-in.
var ErrWrongCode = errors.New("the code is wrong or was already used")

// SignInCode is sign-in's second step for u: a TOTP code (totp) or a
// recovery code, checked and spent by the one code check under the
// throttle. It names what was used (a recovery code is audited with how
// many are left), or answers ErrWrongCode.
func (a *Actions) SignInCode(ctx context.Context, tries Attempts, u *models.User, totp, recovery string) (string, error) {
	var used string
	// The code is spent at once, outside the request's change: sign-in
	// writes its session beside it, and a spent code stays spent whatever
	// becomes of the rest of the sign-in.
	err := tried(ctx, tries, u.Email, func() error {
		tf, err := a.Store.Auth.TwoFactorOf(ctx, u.ID)
		if errors.Is(err, models.ErrNotFound) {
			return ErrWrongCode
		}
		if err != nil {
			return err
		}
		var left int
		if used, left, err = a.spendCode(ctx, tf, totp, recovery); err != nil {
			return err
		}
		if used == "" {
			return ErrWrongCode
		}
		if used == usedRecoveryCode {
			audit.Keep(ctx, map[string]any{"recoveryCodesLeft": left})
		}
		return nil
	})
	return used, err
}

// Confirmation is a signed-in person confirming it is them before
// dangerous actions: the password, or a code for an account with
// two-factor sign-in on (checked instead of the password).
type Confirmation struct {
	Password, Code string
	Tries          Attempts
}

// Confirm checks who's password or code through the one confirmation
// check; the caller then marks its session confirmed (policy.ConfirmWindow).
// A wrong answer is audited, counted as a failed sign-in and refused on
// its field (password or totp).
func (a *Actions) Confirm(ctx context.Context, who *access.Principal, in Confirmation) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.ownAccount(ctx, who, policy.ConfirmIdentity)
		if err != nil {
			return err
		}
		if in.Code != "" {
			return a.confirmCode(ctx, u, "totp", in.Code, in.Tries)
		}
		return a.confirmPassword(ctx, u, "password", in.Password, in.Tries)
	})
}
