package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/web"
)

// applicationFixtures are the matrix's doors to the decisions on
// applications and the desk's claims on them. They join doorFixtures.
var applicationFixtures = map[string]fixture{
	"POST " + api.PathAdminV1ApproveApplication: applicationDoor(``),
	"POST " + api.PathAdminV1RejectApplication:  applicationDoor(`{"reason":"matrix"}`),
	"POST " + api.PathAdminV1BulkApplications:   bulkApplicationDoor,
	"POST " + api.PathConsoleApproveApplication: applicationDoor(`{"reason":"Welcome"}`),
	"POST " + api.PathConsoleRejectApplication:  applicationDoor(`{"reason":"matrix"}`),
	"POST " + api.PathConsoleBulkApplications:   bulkApplicationDoor,
	"POST " + api.PathConsoleClaimApplication:   claimApplicationDoor,
	"DELETE " + api.PathConsoleClaimApplication: claimApplicationDoor,
}

func init() {
	for door, fx := range applicationFixtures {
		doorFixtures[door] = fx
	}
}

// applicant opens a pending application: a new applicant's, or with
// super a staff member's of this round's roles (the rank rule's case; an
// application only, their account stays as it is).
func (m *matrix) applicant(t *testing.T, super bool) (int64, policy.Target) {
	n := m.seq.Add(1)
	if !super {
		u := m.app.Applicant(t, fmt.Sprintf("applicant-%d@example.com", n), password, "203.0.113.9", "")
		return u.ID, personTarget(u)
	}
	u := m.app.UserWithPassword(t, fmt.Sprintf("applicant-staff-%d@example.com", n), password, m.staffRoles()...)
	err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
		return m.app.Store.Users.OpenApplication(ctx, u.ID, "", "mode")
	})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, personTarget(u, m.staffRoles()...)
}

// applicationDoor is a door to a decision on one fresh application.
func applicationDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		id, tg := m.applicant(t, super)
		return target{path: withID(r.Path, id), body: body, policy: tg}
	}
}

// bulkApplicationDoor rejects one fresh application in bulk.
func bulkApplicationDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	id, tg := m.applicant(t, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"ids":["%d"],"decision":"reject","reason":"matrix"}`, id), policy: tg}
}

// claimApplicationDoor claims (or lets go) a fresh application.
func claimApplicationDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	id, _ := m.applicant(t, false)
	return target{path: withID(r.Path, id), policy: policy.Owned(id)}
}
