package handlers_test

import (
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestModerationReasons: the defaults until set; a put replaces them (with
// before and after in the audit entry); a bad list is 422 and changes
// nothing.
func TestModerationReasons(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		const path = "/api/v1/admin/moderation/reasons"
		if body := apptest.Do(t, app, "GET", path, admin).Body.String(); !strings.Contains(body, `"Spam","Harassment"`) {
			t.Errorf("defaults: %s", body)
		}
		if res := apptest.DoBody(t, app, "PUT", path, admin, `{"reasons":[" Spam ","Self-promotion"]}`); res.Code != 200 {
			t.Fatalf("put: %d %s", res.Code, res.Body)
		}
		if body := apptest.Do(t, app, "GET", path, admin).Body.String(); !strings.Contains(body, `{"reasons":["Spam","Self-promotion"]}`) {
			t.Errorf("after the put: %s", body)
		}
		if e := lastEntry(t, app, "moderation_reasons.update"); len(e.Details["before"].([]any)) != 5 {
			t.Errorf("audit entry: %v", e.Details)
		}
		for _, body := range []string{`{"reasons":[]}`, `{"reasons":["a","A"]}`, `{"reasons":[""]}`, `{"reasons":["` + strings.Repeat("r", 101) + `"]}`, `{"list":["a"]}`} {
			if res := apptest.DoBody(t, app, "PUT", path, admin, body); res.Code != 422 {
				t.Errorf("%.30s: %d, want 422", body, res.Code)
			}
		}
		if body := apptest.Do(t, app, "GET", path, admin).Body.String(); !strings.Contains(body, `"Self-promotion"`) {
			t.Errorf("after refusals: %s", body)
		}
	})
}
