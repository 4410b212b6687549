package actions

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// VerifyValidFor is how long an address verification link works.
const VerifyValidFor = 24 * time.Hour

// ErrEmailUnverified refuses what needs the acting account's own address
// verified: posting and reporting under REQUIRE_VERIFIED_EMAIL, and
// linking a sign-in provider to the account.
var ErrEmailUnverified = errors.New("the account's email address is not verified")

// ErrEmailVerified refuses a new verification link for an address that
// is verified already.
var ErrEmailVerified = errors.New("the account's email address is verified already")

// errVerifyToken is the one refusal of a verification token that is
// unknown, used, replaced by a newer one, or expired.
var errVerifyToken = &InvalidError{Field: "token", Reason: "This link is not valid any more: it was used, replaced by a newer one or is over " +
	"24 hours old. Sign in and ask for a new one."}

// errEmailTaken refuses an address another account has.
var errEmailTaken = &InvalidError{Field: "email", Reason: "an account with this email exists already"}

// openVerification opens the verification of email for account userID,
// replacing any earlier one, and queues the mail with its link: the
// verify mail for the account's own address, the change mail for a new
// one. Call it inside a change.
func (a *Actions) openVerification(ctx context.Context, userID int64, email string, change bool) error {
	token := rand.Text() // 130 random bits, as a reset's
	if _, err := a.Store.Auth.OpenEmailVerification(ctx, userID, email, linkTokenHash(token), VerifyValidFor); err != nil {
		return err
	}
	compose := a.Mail.EmailVerify
	if change {
		compose = a.Mail.EmailChange
	}
	m, err := compose(email, token, VerifyValidFor)
	if err != nil {
		return err
	}
	return a.sendMail(ctx, userID, m)
}

// VerifyEmail spends the verification link's token, once, and verifies
// the address it was mailed to: the account's own, or the new address of
// a change, which becomes the account's unless another account took it
// meanwhile (an InvalidError on email). It answers the account as it is
// now. A token unknown, used, replaced or expired is an InvalidError on
// token, the same for each.
func (a *Actions) VerifyEmail(ctx context.Context, who *access.Principal, token string) (*models.User, error) {
	if err := a.Policy.Check(who, policy.VerifyEmail, policy.Platform); err != nil {
		return nil, err
	}
	if strings.TrimSpace(token) == "" {
		return nil, &InvalidError{Field: "token", Code: "too_small", Reason: "token is required"}
	}
	tokenHash := linkTokenHash(token)
	var u *models.User
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		v, err := a.Store.Auth.EmailVerificationByToken(ctx, tokenHash)
		if errors.Is(err, models.ErrNotFound) {
			return errVerifyToken
		}
		if err != nil {
			return err
		}
		before, err := a.Store.Users.UserByID(ctx, v.UserID)
		if err != nil {
			return err
		}
		if err := a.Store.Auth.UseEmailVerification(ctx, tokenHash); errors.Is(err, models.ErrNotFound) {
			return errVerifyToken // spent by a use racing this one
		} else if err != nil {
			return err
		}
		u, err = a.Store.Users.ConfirmEmail(ctx, v.UserID, v.Email)
		if errors.Is(err, models.ErrEmailTaken) {
			return errEmailTaken
		}
		if err != nil {
			return err
		}
		details := map[string]any{"email": v.Email}
		if before.Email != v.Email {
			details["from"] = before.Email
		}
		audit.Target(ctx, "user", itoa(v.UserID), details)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// ResendVerification mails the caller's own address a new verification
// link, replacing any open one, counted against limit per account:
// ErrEmailVerified when the address is verified already.
func (a *Actions) ResendVerification(ctx context.Context, who *access.Principal, limit Attempts) error {
	if a.Mail == nil {
		return errNoComposer
	}
	u, err := a.ownAccount(ctx, who, policy.ResendVerification)
	if err != nil {
		return err
	}
	if u.EmailVerified != nil {
		return ErrEmailVerified
	}
	if limit == nil {
		return errNoThrottle
	}
	if err := limit.Take(ctx, itoa(u.ID), 1); err != nil {
		return err
	}
	return a.Store.Change(ctx, func(ctx context.Context) error {
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"email": u.Email})
		return a.openVerification(ctx, u.ID, u.Email, false)
	})
}

// EmailChange is a signed-in person's request to change their address:
// the new one, and the password, checked under sign-in's throttle.
type EmailChange struct {
	Email, Password string
	Throttle        Throttle
}

// ChangeEmail mails a link to the new address, which becomes the
// account's only once the link is used (VerifyEmail), and tells the
// account's address now of the request, in one change. The new address
// is checked as a sign-up's is (and refused when another account has it,
// or its domain is blocked); the password is checked as a password
// change checks the current one.
func (a *Actions) ChangeEmail(ctx context.Context, who *access.Principal, in EmailChange) error {
	if err := a.Policy.Check(who, policy.ChangeEmail, policy.Owned(callerID(who))); err != nil {
		return err
	}
	if a.Mail == nil {
		return errNoComposer
	}
	email := strings.TrimSpace(in.Email)
	if err := refusal(checkEmail(email)); err != nil {
		return err
	}
	email = models.NormalizeEmail(email)
	u, err := a.Store.Users.UserByID(ctx, who.UserID)
	if err != nil {
		return err
	}
	if email == models.NormalizeEmail(u.Email) {
		return &InvalidError{Field: "email", Reason: "this is your account's address already"}
	}
	if err := a.confirmPassword(ctx, u, "password", in.Password, in.Throttle); err != nil {
		return err
	}
	if err := a.newAddressFree(ctx, u.ID, email); err != nil {
		return err
	}
	return a.Store.Change(ctx, func(ctx context.Context) error {
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"from": u.Email, "to": email})
		if err := a.openVerification(ctx, u.ID, email, true); err != nil {
			return err
		}
		m, err := a.Mail.EmailChangeNotice(u.Email, email)
		if err != nil {
			return err
		}
		return a.sendMail(ctx, u.ID, m)
	})
}

// newAddressFree refuses an address another account has, or one under a
// domain that may not open accounts.
func (a *Actions) newAddressFree(ctx context.Context, userID int64, email string) error {
	taken, err := a.Store.Users.EmailTaken(ctx, userID, email)
	if err != nil {
		return err
	}
	if taken {
		return errEmailTaken
	}
	blocked, err := a.Blocks.EmailBlocked(ctx, email)
	if err != nil {
		return err
	}
	if blocked {
		return &InvalidError{Field: "email", Reason: "addresses with this email domain are not accepted"}
	}
	return nil
}

// checkVerified refuses who's own post or report while its address is
// unverified and the instance requires it (REQUIRE_VERIFIED_EMAIL).
func (a *Actions) checkVerified(u *models.User) error {
	if a.RequireVerifiedEmail && u.EmailVerified == nil {
		return ErrEmailUnverified
	}
	return nil
}

// OwnAccount is who's own account as it is now, for the pages that show
// them their address and whether it is verified.
func (a *Actions) OwnAccount(ctx context.Context, who *access.Principal) (*models.User, error) {
	if err := a.ActAsSelf(who, policy.SeeOwnAccount); err != nil {
		return nil, err
	}
	return a.Store.Users.UserByID(ctx, who.UserID)
}
