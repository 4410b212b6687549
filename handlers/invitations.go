package handlers

import (
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Invitations answers the invitation routes (docs/api.md, "Invitations"):
// the list, one invitation with who used it, a new one and its
// revocation, in the versioned family for admins and as the console's
// page for the staff the policy lets in. The reads and changes are the
// actions'.
type Invitations struct {
	Actions *actions.Actions
	People  People
	Now     func() time.Time
}

// List answers GET /api/v1/admin/invitations?state=: newest first; and
// the console's invitations page from the same result. An unknown state
// is 422.
func (h Invitations) List(c echo.Context) error {
	q := c.QueryParams()
	page, issues := api.ParsePage(q)
	state, given := api.QueryParam(q, "state")
	if given && !slices.Contains(models.InvitationStates, state) {
		issues = append(issues, api.FieldIssue("state", "invalid_enum_value", "state must be active, used_up, expired or revoked"))
	}
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	ctx := c.Request().Context()
	who := access.PrincipalFrom(ctx)
	rows, total, err := h.Actions.Invitations(ctx, who, state, page.Limit, page.Offset)
	if err != nil {
		return err
	}
	now := h.Now()
	out := make([]api.Invitation, len(rows))
	for i := range rows {
		out[i] = invitationOut(&rows[i], now)
	}
	res := api.Page(out, total, page)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	query := consoleQuery(c, "", true)
	query.Path = api.PathConsoleInvitations
	l := views.InvitationList{Invitations: out, Pagination: res.Meta.Pagination, Query: query, MayRevoke: map[string]bool{}}
	for i := range rows {
		l.MayRevoke[out[i].ID] = out[i].State != models.InvitationRevoked && h.Actions.MayRevokeInvitation(who, &rows[i])
	}
	if l.People, err = lookUpPeople(ctx, h.People, invitationPeople(out)); err != nil {
		return err
	}
	noStore(c)
	return respond(c, http.StatusOK, res, View{Partial: views.InvitationTable(l), Page: views.InvitationsPage(l)})
}

// Get answers GET /api/v1/admin/invitations/{id}: the invitation and the
// accounts it opened, latest first; and the console's page of it. An
// unknown id is 404.
func (h Invitations) Get(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	who := access.PrincipalFrom(ctx)
	d, err := h.Actions.Invitation(ctx, who, id)
	if err != nil {
		return err
	}
	res := api.InvitationDetail{Invitation: invitationOut(d.Invitation, h.Now()), UsedBy: make([]api.InvitationUse, len(d.Uses))}
	for i, u := range d.Uses {
		res.UsedBy[i] = api.InvitationUse{UserID: optionalID(u.UserID), Username: u.Username, Email: u.Email, UsedAt: api.Timestamp(u.UsedAt)}
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.OK(res))
	}
	p := views.InvitationView{Invitation: res,
		MayRevoke: res.State != models.InvitationRevoked && h.Actions.MayRevokeInvitation(who, d.Invitation)}
	if p.People, err = lookUpPeople(ctx, h.People, invitationPeople([]api.Invitation{res.Invitation})); err != nil {
		return err
	}
	noStore(c)
	return respond(c, http.StatusOK, api.OK(res), View{Partial: views.InvitationPanel(p), Page: views.InvitationPage(p)})
}

// Create answers POST /api/v1/admin/invitations and POST
// /admin/invitations {maxUses?, validFor?, note?, email?}: 201 with the
// invitation, its token and its link, shown this once (htmx gets the
// panel that shows them); 422 on a limit broken.
func (h Invitations) Create(c echo.Context) error {
	var req api.InvitationRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	n, err := h.Actions.CreateInvitation(ctx, access.PrincipalFrom(ctx),
		actions.InvitationInput{MaxUses: req.MaxUses, ValidFor: req.ValidFor, Note: req.Note, Email: req.Email})
	if err != nil {
		return err
	}
	res := api.NewInvitation{Invitation: invitationOut(n.Invitation, h.Now()), Token: n.Token, URL: n.URL}
	return respondShown(c, http.StatusCreated, api.OK(res), views.NewInvitationPanel(res),
		Done{Toast: "Invitation created: copy its link now", Events: []string{"plaza:invitations"}})
}

// Revoke answers DELETE /api/v1/admin/invitations/{id} and POST
// /admin/invitations/{id}/revoke: the invitation, revoked; 404 for an
// unknown id, 409 for one revoked already.
func (h Invitations) Revoke(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	inv, err := h.Actions.RevokeInvitation(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(invitationOut(inv, h.Now())),
		Done{Toast: "Invitation revoked", Events: []string{"plaza:invitations"}})
}

func invitationOut(inv *models.Invitation, now time.Time) api.Invitation {
	return api.Invitation{ID: itoa(inv.ID), Note: inv.Note, Email: inv.Email, MaxUses: inv.MaxUses, Uses: inv.Uses,
		State: inv.State(now), ExpiresAt: api.Timestamp(inv.ExpiresAt), CreatedAt: api.Timestamp(inv.CreatedAt),
		CreatedBy: optionalID(inv.CreatedBy), RevokedAt: api.OptionalTimestamp(inv.RevokedAt), RevokedBy: optionalID(inv.RevokedBy)}
}

// invitationPeople are the staff the invitations name.
func invitationPeople(list []api.Invitation) []string {
	var ids []string
	for _, inv := range list {
		for _, id := range []*string{inv.CreatedBy, inv.RevokedBy} {
			if id != nil {
				ids = append(ids, *id)
			}
		}
	}
	return ids
}
