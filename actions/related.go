package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// RelatedAccounts lists for staff the accounts related to user id
// (models.Users.RelatedAccounts), at most limit. It names other accounts'
// emails and the addresses the user signed up and signed in from, so it
// asks what the user's sessions ask: a super admin's are for super
// admins only. An unknown user is models.ErrNotFound.
func (a *Actions) RelatedAccounts(ctx context.Context, who *access.Principal, id int64, limit int) (*models.Related, error) {
	target, err := a.Store.Users.ListedUserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := a.Policy.Check(who, policy.ViewRelatedAccounts, person(target)); err != nil {
		return nil, err
	}
	return a.Store.Users.RelatedAccounts(ctx, id, limit)
}
