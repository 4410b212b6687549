package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// MayLinkProvider asks the policy whether who may link a provider to its
// own account now (a signed-in session, freshly confirmed), before the
// round trip to the provider starts.
func (a *Actions) MayLinkProvider(who *access.Principal) error {
	return a.Policy.Check(who, policy.LinkProvider, policy.Owned(callerID(who)))
}

// LinkProvider links the identity a provider has just vouched for to the
// caller's own account, the end of a round trip MayLinkProvider allowed.
// An identity another account holds is models.ErrLinkedElsewhere.
func (a *Actions) LinkProvider(ctx context.Context, who *access.Principal, id models.OAuthIdentity) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		if _, err := a.ownAccount(ctx, who, policy.LinkProvider); err != nil {
			return err
		}
		audit.Keep(ctx, map[string]any{"provider": id.Provider})
		return a.Store.Auth.LinkProvider(ctx, who.UserID, id)
	})
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
