package actions

import (
	"context"
	"errors"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// EmailBlocker answers whether an address's domain is blocked from
// opening accounts.
type EmailBlocker interface {
	EmailBlocked(ctx context.Context, email string) (bool, error)
}

// Register opens an account from checked input (the password still in
// the clear, to be hashed here), unless its email domain is blocked or
// its email taken.
func (a *Actions) Register(ctx context.Context, who *access.Principal, reg models.NewRegistration, password string) (*models.User, error) {
	if err := a.Policy.Check(who, policy.Register, policy.Platform); err != nil {
		return nil, err
	}
	blocked, err := a.Blocks.EmailBlocked(ctx, reg.Email)
	if err != nil {
		return nil, err
	}
	if blocked {
		return nil, &InvalidError{Field: "email", Reason: "registrations with this email domain are not accepted"}
	}
	if reg.PasswordHash, err = a.Passwords.Hash(ctx, password); err != nil {
		return nil, err
	}
	var u *models.User
	register := func(ctx context.Context) (err error) {
		u, err = a.Store.RegisterUser(ctx, reg)
		return err
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
