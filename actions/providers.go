package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// MayLinkProvider asks whether who may link a provider to its own
// account now (a signed-in session, freshly confirmed, whose address is
// verified), before the round trip to the provider starts.
func (a *Actions) MayLinkProvider(ctx context.Context, who *access.Principal) error {
	if err := a.Policy.Check(who, policy.LinkProvider, policy.Owned(callerID(who))); err != nil {
		return err
	}
	u, err := a.Store.Users.UserByID(ctx, who.UserID)
	if err != nil {
		return err
	}
	return linkable(u)
}

// LinkProvider links the identity a provider has just vouched for to the
// caller's own account, the end of a round trip MayLinkProvider allowed.
// An identity another account holds is models.ErrLinkedElsewhere; an
// account whose address is unverified is ErrEmailUnverified.
func (a *Actions) LinkProvider(ctx context.Context, who *access.Principal, id models.OAuthIdentity) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.ownAccount(ctx, who, policy.LinkProvider)
		if err != nil {
			return err
		}
		audit.Keep(ctx, map[string]any{"provider": id.Provider})
		if err := linkable(u); err != nil {
			return err
		}
		return a.Store.Auth.LinkProvider(ctx, who.UserID, id)
	})
}

// linkable refuses a provider link to an account whose own address is
// unverified: whoever signed up with someone else's address must not
// fasten their own provider account to it, a way in that would outlast
// the owner taking the account back with a password reset.
func linkable(u *models.User) error {
	if u.EmailVerified == nil {
		return ErrEmailUnverified
	}
	return nil
}

// UnlinkProvider removes the caller's links to provider and reports how
// many went; the last way into an account without a password stays
// (models.ErrLastWayIn).
func (a *Actions) UnlinkProvider(ctx context.Context, who *access.Principal, provider string) (int, error) {
	var n int
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if _, err := a.ownAccount(ctx, who, policy.UnlinkProvider); err != nil {
			return err
		}
		audit.Keep(ctx, map[string]any{"provider": provider})
		var err error
		n, err = a.Store.Auth.UnlinkProvider(ctx, who.UserID, provider)
		return err
	})
	return n, err
}
