package web_test

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestBlocksReachEveryInstance: two instances on one PostgreSQL database;
// a block created through one is refused by the other at once, though the
// other holds the list in memory, and its deletion through the other
// lifts it on the first.
func TestBlocksReachEveryInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	behindProxy := func(d *web.Deps) { d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("192.0.2.1/32")} }
	a, b := apptest.New(t, db, behindProxy), apptest.New(t, db, behindProxy)
	root, _ := a.Admin(t)
	signIn := func(app *apptest.App) int {
		h := http.Header{"X-Forwarded-For": {"203.0.113.5"}}
		return apptest.DoBody(t, app, "POST", api.PathSignIn, h, `{"email":"nobody@example.com","password":"wrong password"}`).Code
	}
	for _, app := range []*apptest.App{a, b} {
		if code := signIn(app); code != http.StatusUnauthorized {
			t.Fatalf("before the block: %d, want 401", code)
		}
	}
	if !b.Deps.Blocks.Loaded() {
		t.Fatal("instance b holds no list, so the test would prove nothing")
	}

	res := apptest.DoBody(t, a, "POST", api.PathAdminV1Blocks, root, `{"kind":"ip","value":"203.0.113.0/24"}`)
	if res.Code != http.StatusCreated {
		t.Fatalf("block through a: %d %s", res.Code, res.Body)
	}
	if code := signIn(a); code != http.StatusForbidden {
		t.Errorf("a, right after its own change: %d, want 403", code)
	}
	apptest.WaitFor(t, "b to refuse the blocked address", func() bool { return signIn(b) == http.StatusForbidden })

	var created api.V1Of[api.V1Block]
	if err := json.Unmarshal(res.Body.Bytes(), &created); err != nil {
		t.Fatal(err)
	}
	if res := apptest.Do(t, b, "DELETE", api.AdminV1BlockPath(created.Data.ID), root); res.Code != http.StatusOK {
		t.Fatalf("delete through b: %d %s", res.Code, res.Body)
	}
	apptest.WaitFor(t, "a to accept the address again", func() bool { return signIn(a) == http.StatusUnauthorized })
}

// TestUnsafeRoutesAreBlockable walks the route table: every route that
// changes something outside the admin families (the general API with its
// auth routes, the collector) refuses blocked addresses, sign-out alone
// excepted; no admin or console route ever does, so that a block can be
// undone from anywhere.
func TestUnsafeRoutesAreBlockable(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	exempt := map[string]bool{http.MethodPost + " " + api.PathSignOut: true}
	unsafe := 0
	for _, r := range web.Routes(app.Deps) {
		name := r.Method + " " + r.Path
		switch {
		case r.Family == api.FamilyV1 || r.Family == api.FamilyAdmin || r.Family == api.FamilyConsole:
			if r.Blockable {
				t.Errorf("%s is an admin route, yet blockable: a blocked admin could not lift the block", name)
			}
		case r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions:
		case exempt[name]:
			if r.Blockable {
				t.Errorf("%s is blockable: a session from a blocked address could not sign out", name)
			}
		default:
			unsafe++
			if !r.Blockable {
				t.Errorf("%s changes something, yet a blocked address may call it", name)
			}
		}
	}
	if unsafe < 10 {
		t.Fatalf("%d unsafe general routes found; the walk proves nothing", unsafe)
	}
}
