package actions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
)

// ResetValidFor is how long a password reset link works.
const ResetValidFor = 60 * time.Minute

// ErrCodeRequired refuses a password reset of an account with two-factor
// sign-in that gives no code: a mailbox alone never gets past a second
// factor.
var ErrCodeRequired = errors.New("a code from the authenticator app, or a recovery code, is required")

// errResetToken is the one refusal of a reset token that is unknown,
// used, replaced by a newer one, or expired: which, nobody is told.
var errResetToken = &InvalidError{Field: "token", Reason: "This link is not valid any more: it was used, replaced by a newer one or is over " +
	"60 minutes old. Ask for a new one."}

// ForgotPassword mails a reset link to the account with email, if there
// is one, counted against limit per email (and the route's address). It
// answers the same, in about the same time, whether or not the address
// has an account, so that nobody learns which addresses do.
func (a *Actions) ForgotPassword(ctx context.Context, who *access.Principal, email string, limit Attempts) error {
	if err := a.Policy.Check(who, policy.ForgotPassword, policy.Platform); err != nil {
		return err
	}
	email = strings.TrimSpace(email)
	if err := refusal(checkAddress(email)); err != nil {
		return err
	}
	if limit == nil {
		return errNoThrottle
	}
	email = models.NormalizeEmail(email)
	if err := limit.Take(ctx, email, 1); err != nil {
		return err
	}
	token := rand.Text() // 26 base32 characters: 130 random bits
	// The known address's writes take a few milliseconds; argon2id, run
	// on both paths, takes far longer and hides them.
	if err := a.Passwords.Check(ctx, token, nil); err != nil && !errors.Is(err, auth.ErrBadPassword) {
		return err
	}
	u, err := a.Store.Users.UserByEmail(ctx, email)
	if errors.Is(err, models.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if a.Mail == nil {
		return errNoComposer
	}
	return a.Store.Change(ctx, func(ctx context.Context) error {
		if _, err := a.Store.Auth.OpenPasswordReset(ctx, u.ID, linkTokenHash(token), ResetValidFor); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(u.ID), nil)
		audit.Keep(ctx, nil) // only a known account's request is recorded
		m, err := a.Mail.PasswordReset(u.Email, token, ResetValidFor)
		if err != nil {
			return err
		}
		return a.sendMail(ctx, u.ID, m)
	})
}

// PasswordReset is a new password set with a reset link's token, and the
// code of an account with two-factor sign-in.
type PasswordReset struct {
	Token, Password, Code string
	// Tries is sign-in's failure throttle, which a code counts against.
	Tries Attempts
}

// ResetPassword sets the password of the account whose reset link carries
// in.Token, under the sign-up rule, once: the token is spent, every
// session of the account ends and every API token is revoked in the same
// transaction, and the account's address is told by mail. An account with
// two-factor sign-in needs a current or recovery code (ErrCodeRequired
// without one).
func (a *Actions) ResetPassword(ctx context.Context, who *access.Principal, in PasswordReset) (models.PasswordChanged, error) {
	var out models.PasswordChanged
	if err := a.Policy.Check(who, policy.ResetPassword, policy.Platform); err != nil {
		return out, err
	}
	if strings.TrimSpace(in.Token) == "" {
		return out, &InvalidError{Field: "token", Code: "too_small", Reason: "token is required"}
	}
	if a.Mail == nil {
		return out, errNoComposer
	}
	tokenHash := linkTokenHash(in.Token)
	u, err := a.resetAccount(ctx, tokenHash)
	if err != nil {
		return out, err
	}
	if err := refusal(checkNewPassword("password", in.Password, u.Email)); err != nil {
		return out, err
	}
	if err := a.resetCode(ctx, u, in); err != nil {
		return out, err
	}
	hash, err := a.Passwords.Hash(ctx, in.Password)
	if err != nil {
		return out, err
	}
	err = a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Store.Auth.UsePasswordReset(ctx, tokenHash); errors.Is(err, models.ErrNotFound) {
			return errResetToken // spent by a reset racing this one
		} else if err != nil {
			return err
		}
		if out, err = a.Store.Auth.ChangePassword(ctx, u.ID, hash, ""); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"endedSessions": out.EndedSessions, "revokedTokens": out.RevokedTokens})
		m, err := a.Mail.PasswordChanged(u.Email, a.Now())
		if err != nil {
			return err
		}
		return a.sendMail(ctx, u.ID, m)
	})
	return out, err
}

// resetAccount is the account an open reset's token hash names.
func (a *Actions) resetAccount(ctx context.Context, tokenHash string) (*models.User, error) {
	id, err := a.Store.Auth.PasswordResetUser(ctx, tokenHash)
	if errors.Is(err, models.ErrNotFound) {
		return nil, errResetToken
	}
	if err != nil {
		return nil, err
	}
	u, err := a.Store.Users.UserByID(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, errResetToken
	}
	return u, err
}

// resetCode asks an account with two-factor sign-in for its code, checked
// and spent by the one code check under sign-in's throttle.
func (a *Actions) resetCode(ctx context.Context, u *models.User, in PasswordReset) error {
	tf, err := a.Store.Auth.TwoFactorOf(ctx, u.ID)
	if errors.Is(err, models.ErrNotFound) || err == nil && tf.EnabledAt == nil {
		return nil
	}
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Code) == "" {
		return ErrCodeRequired
	}
	return a.confirmCode(ctx, u, "code", in.Code, in.Tries)
}

// linkTokenHash is how a mailed link's token (a password reset's, an
// address verification's) is stored: a random token of 130 bits needs no
// slow hash, only one that a copy of the table cannot undo.
func linkTokenHash(token string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return hex.EncodeToString(sum[:])
}
