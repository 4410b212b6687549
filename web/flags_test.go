package web_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestFlagChangesReachEveryInstance: instance b answers users' flags from
// its cache (a change made with notices off goes unseen), and a change made
// through instance a reaches b at once.
func TestFlagChangesReachEveryInstance(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	// The test polls b's users' flags hundreds of times a minute while a
	// notice is on its way; it is about the cache, not the limiter.
	cfg := apptest.Config(t)
	cfg.RateLimit.APIAuthed = 1 << 20
	a, b := apptest.NewWithConfig(t, db, cfg, app.Options{}), apptest.NewWithConfig(t, db, cfg, app.Options{})
	root, _ := a.Admin(t)
	user := a.SessionFor(t, a.User(t, "ada@example.com").ID)
	if res := apptest.DoBody(t, a, "PUT", "/api/v1/admin/feature-flags/beta", root, `{"enabled":true,"rolloutPercentage":100}`); res.Code != 201 {
		t.Fatalf("create: %d %s", res.Code, res.Body)
	}
	betaOn := func() bool {
		var got map[string]bool
		res := apptest.Do(t, b, "GET", "/api/feature-flags", user)
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		return got["beta"]
	}
	// Notices of the setup may still purge b's cache; turning the flag off
	// unannounced shows the cache at work once b answers from it.
	cached := false
	for try := 0; try < 50 && !cached; try++ {
		silently(t, a, true)
		apptest.WaitFor(t, "b to see the flag on", betaOn)
		silently(t, a, false)
		cached = betaOn()
	}
	if !cached {
		t.Fatal("b never answered from its cache")
	}
	if res := apptest.DoBody(t, a, "PUT", "/api/v1/admin/feature-flags/beta", root, `{"rolloutPercentage":0}`); res.Code != 200 {
		t.Fatalf("update: %d %s", res.Code, res.Body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for betaOn() {
		if time.Now().After(deadline) {
			t.Fatal("b kept answering from its cache after a's change")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// silently sets flag beta on or off with triggers off, so that no
// instance hears of it.
func silently(t *testing.T, a *apptest.App, on bool) {
	t.Helper()
	sqlExec(t, a, `BEGIN; SET LOCAL session_replication_role = replica; UPDATE feature_flags SET enabled = ? WHERE name = 'beta'; COMMIT`, on)
}
