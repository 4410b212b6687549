package actions

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// EmailBlocker answers what the blocks in force say of an address's
// domain and of a sign-up (blocks.Severities).
type EmailBlocker interface {
	// EmailBlocked reports whether the email's domain may not open an
	// account.
	EmailBlocked(ctx context.Context, email string) (bool, error)
	// SignUpSeverities are the strongest severities of the blocks on the
	// network of ip and on the domain of email; "" where none applies.
	SignUpSeverities(ctx context.Context, ip, email string) (network, domain string, err error)
}

// Register opens an account from checked input (the password still in
// the clear, to be hashed here) as the registration rules admit it
// (admit): at once, or inactive with an application for staff to decide;
// a taken email is refused. The new account's address gets a
// verification link, queued in the change that opens the account. A
// registration that carries an invitation (reg.Invitation, its link's
// token) needs a valid one (checkInvitation), and spends one of its uses
// in the same change, recording the account. An invitation for one
// address does not verify it: whoever holds the link could name it, so the
// address gets its link as any sign-up's does.
func (a *Actions) Register(ctx context.Context, who *access.Principal, reg models.NewRegistration, password string) (*models.User, error) {
	if err := a.Policy.Check(who, policy.Register, policy.Platform); err != nil {
		return nil, err
	}
	if a.Mail == nil {
		return nil, errNoComposer
	}
	rules, err := a.Registration(ctx)
	if err != nil {
		return nil, err
	}
	reg.Invitation = strings.TrimSpace(reg.Invitation) // one test of "invited", here and where it is spent
	adm, err := a.admit(ctx, rules, reg.Email, reg.IP, reg.Invitation != "")
	if err != nil {
		return nil, err
	}
	if err := checkRegistration(&reg, password, rules, adm); err != nil {
		return nil, err
	}
	var inv *models.Invitation
	if reg.Invitation != "" {
		if inv, err = a.checkInvitation(ctx, reg.Invitation, reg.Email); err != nil {
			return nil, err
		}
	}
	if reg.PasswordHash, err = a.Passwords.Hash(ctx, password); err != nil {
		return nil, err
	}
	reg.Pending = adm.Application != ""
	var u *models.User
	register := func(ctx context.Context) (err error) {
		if u, err = a.Store.Users.RegisterUser(ctx, reg); err != nil {
			return err
		}
		if reg.Pending {
			if err := a.Store.Users.OpenApplication(ctx, u.ID, reg.Answer, adm.Application); err != nil {
				return err
			}
			// The desk's Applications tab hears of it (docs/console.md).
			if err := a.Store.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsApplication, ApplicationID: u.ID}); err != nil {
				return err
			}
		}
		if inv != nil {
			if err := a.useInvitation(ctx, inv, u.ID); err != nil {
				return err
			}
		}
		return a.openVerification(ctx, u.ID, u.Email, false)
	}
	err = a.Store.Change(ctx, register)
	if errors.Is(err, models.ErrConflict) {
		err = a.Store.Change(ctx, register) // a registration raced this one: now the email reads as taken, or another username is free
	}
	if errors.Is(err, models.ErrEmailTaken) {
		return nil, &InvalidError{Field: "email", Reason: "an account with this email exists already"}
	}
	return u, err
}

// NewAccount is an account made for someone (plaza user create): any
// role, its address taken as verified (no link is mailed), a password
// under the sign-up rule.
type NewAccount struct {
	Email, Password, Role string
	Name, Username        string // optional: the username comes from the email when empty
}

// Check trims and checks the account as a sign-up is checked, plus its
// role; the command line asks it before it opens the database.
func (in *NewAccount) Check() error {
	in.Email, in.Name, in.Username = strings.TrimSpace(in.Email), strings.TrimSpace(in.Name), strings.TrimSpace(in.Username)
	var role *InvalidError
	if !slices.Contains(access.Roles, in.Role) {
		role = &InvalidError{Field: "role", Reason: "role must be one of " + strings.Join(access.Roles, ", ")}
	}
	err := refusal(checkText("name", in.Name, 0, MaxName, true), checkAddress(in.Email), checkNewPassword("password", in.Password, in.Email), role)
	in.Email = models.NormalizeEmail(in.Email)
	return err
}

// CreateAccount makes the account in describes, audited as user.create. A
// taken email or username is an InvalidError on email.
func (a *Actions) CreateAccount(ctx context.Context, who *access.Principal, in NewAccount) (*models.User, error) {
	if err := a.Policy.Check(who, policy.CreateAccount, policy.Platform); err != nil {
		return nil, err
	}
	if err := in.Check(); err != nil {
		return nil, err
	}
	hash, err := a.Passwords.Hash(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	var u *models.User
	err = a.Store.Change(ctx, func(ctx context.Context) (err error) {
		u, err = a.Store.Users.CreateUser(ctx, models.NewUser{Email: in.Email, Username: in.Username, Name: in.Name,
			PasswordHash: hash, Roles: access.ImpliedRoles(in.Role), IsVerified: true})
		if err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"email": u.Email, "username": u.Username, "role": in.Role})
		return nil
	})
	if errors.Is(err, models.ErrConflict) {
		return nil, &InvalidError{Field: "email", Reason: "a user with this email (or that username) already exists"}
	}
	return u, err
}
