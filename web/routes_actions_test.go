package web_test

import (
	"net/http"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// noAction are the unsafe routes that are doors to no action, each for a
// reason: they act before there is anyone the policy could ask about, or
// they change nothing but the caller's own session.
var noAction = map[string]string{
	"POST /api/auth/signin":               "sign-in: no principal yet; its throttle and checks are the sign-in flow's",
	"POST /api/auth/callback/credentials": "next-auth's sign-in form: the same sign-in",
	"POST /api/auth/signin/:provider":     "starts a provider's sign-in: no principal yet, nothing written",
	"POST /api/auth/signout":              "ends the caller's own session, blocked or not",
	"POST /api/analytics/collect":         "the public collector: events are data, counted by its own meter",
}

// TestUnsafeRoutesNameAnAction walks the route table: every POST, PUT,
// PATCH and DELETE route is a door to an action (which asks the policy,
// writes in the unit of work and names its audit entry), except the few
// of noAction, each with its reason.
func TestUnsafeRoutesNameAnAction(t *testing.T) {
	if len(noAction) > 5 {
		t.Fatalf("%d routes name no action; at most 5 may", len(noAction))
	}
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	seen := map[string]bool{}
	for _, r := range web.Routes(app.Deps) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue
		}
		key := r.Method + " " + r.Path
		seen[key] = true
		if r.Action != "" || noAction[key] != "" {
			continue
		}
		t.Errorf("%s names no action: a write goes through one (actions package), or the route joins noAction with its reason", key)
	}
	for key := range noAction {
		if !seen[key] {
			t.Errorf("noAction lists %s, which is not a route", key)
		}
	}
}
