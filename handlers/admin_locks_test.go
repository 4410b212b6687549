package handlers_test

import (
	"encoding/json"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestLockAcrossInstances takes a lock through one instance and is refused
// through another, as two servers behind a load balancer would be.
func TestLockAcrossInstances(t *testing.T) {
	{
		db := dbtest.Open(t, "postgres")
		a, b := apptest.New(t, db), apptest.New(t, db)
		ada := a.User(t, "ada@example.com", access.RoleAdmin)
		bob := a.User(t, "bob@example.com", access.RoleAdmin)
		adaH, bobH := a.SessionFor(t, ada.ID), a.SessionFor(t, bob.ID)

		res := apptest.DoBody(t, a, "POST", "/api/v1/admin/locks", adaH, `{"type":"user","id":"7"}`)
		if res.Code != 201 {
			t.Fatalf("ada's lock: %d %s", res.Code, res.Body)
		}
		var got struct {
			Data struct{ Type, ID, LockedBy, LockedAt, ExpiresAt string }
		}
		json.Unmarshal(res.Body.Bytes(), &got)
		if got.Data.LockedBy != "ada" || got.Data.Type != "user" || got.Data.ID != "7" {
			t.Errorf("lock body %s", res.Body)
		}
		res = apptest.DoBody(t, b, "POST", "/api/v1/admin/locks", bobH, `{"type":"user","id":"7"}`)
		var locked struct {
			Error struct{ Code, LockedBy, LockedAt string }
		}
		json.Unmarshal(res.Body.Bytes(), &locked)
		if res.Code != 423 || locked.Error.Code != "RESOURCE_LOCKED" || locked.Error.LockedBy != "ada" || locked.Error.LockedAt != got.Data.LockedAt {
			t.Errorf("bob through the other instance: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, b, "DELETE", "/api/v1/admin/locks/user/7", bobH); res.Code != 423 {
			t.Errorf("bob releasing ada's lock: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, b, "DELETE", "/api/v1/admin/locks/user/7", adaH); res.Code != 200 {
			t.Errorf("ada releasing through the other instance: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, a, "POST", "/api/v1/admin/locks", bobH, `{"type":"user","id":"7"}`); res.Code != 201 {
			t.Errorf("bob after the release: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, a, "POST", "/api/v1/admin/locks", bobH, `{"type":"planet","id":"7"}`); res.Code != 422 {
			t.Errorf("unknown lock type: %d %s", res.Code, res.Body)
		}
	}
}
