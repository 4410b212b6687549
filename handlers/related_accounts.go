package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Related answers GET /api/v1/admin/users/{id}/related?limit: the
// accounts that share an address, a range or a mailbox with the user, and
// the user page's card of them from the same result. Statuses: 200; 401;
// 403 without admin:read, or on a super admin's for anyone but a super
// admin; 404 for an unknown user; 422 for a limit outside 1..500.
func (h V1Users) Related(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	limit, err := api.ParseV1Related(c.QueryParams())
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	r, err := h.Actions.RelatedAccounts(ctx, access.PrincipalFrom(ctx), id, limit)
	if err != nil {
		return err
	}
	res := v1Related(r)
	return respond(c, http.StatusOK, api.OK(res), View{Partial: views.RelatedTable(res)})
}

// v1Related is the wire form of a user's related accounts.
func v1Related(r *models.Related) api.V1RelatedAccounts {
	out := api.V1RelatedAccounts{User: api.V1UserRef{ID: itoa(r.UserID), Username: r.Username},
		Accounts: make([]api.V1RelatedAccount, len(r.Accounts)), Truncated: r.Truncated}
	for i, a := range r.Accounts {
		out.Accounts[i] = api.V1RelatedAccount{ID: itoa(a.ID), Username: a.Username, Email: a.Email, Status: a.Status,
			CreatedAt: api.Timestamp(a.CreatedAt), PostCount: a.PostCount, ReportsReceived: a.ReportsReceived,
			Reasons: nonNil(a.Reasons), Addresses: nonNil(a.Addresses), Ranges: nonNil(a.Ranges)}
	}
	return out
}

// nonNil is s, or an empty list for none: lists are never null on the wire.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
