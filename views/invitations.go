package views

import "github.com/plazahq/plaza/api"

// InvitationList is a page of invitations with the list's state.
type InvitationList struct {
	Invitations []api.Invitation
	Pagination  api.Pagination
	Query       Query
	People      People // the staff who made and revoked them, by id
	// MayRevoke says, by invitation id, whether the viewer may revoke it
	// (the policy's answer: staff their own, admins anyone's).
	MayRevoke map[string]bool
}

// InvitationView is one invitation's page: who used it, and Revoke when
// the viewer may.
type InvitationView struct {
	Invitation api.InvitationDetail
	People     People
	MayRevoke  bool
}

// invitationStateFilters are the list's filters: every invitation, or one
// state.
var invitationStateFilters = []struct{ State, Label string }{
	{"", "All"}, {"active", "Active"}, {"used_up", "Used up"}, {"expired", "Expired"}, {"revoked", "Revoked"},
}

// invitationValidFor are the lifetimes the create form offers; the
// default (7 days) first.
var invitationValidFor = []struct{ Value, Label string }{
	{"7d", "7 days"}, {"1h", "1 hour"}, {"24h", "24 hours"}, {"3d", "3 days"}, {"30d", "30 days"}, {"90d", "90 days"},
}

// invitationUses says how far an invitation is used: "2 of 5".
func invitationUses(inv api.Invitation) string {
	return itoa(inv.Uses) + " of " + itoa(inv.MaxUses)
}
