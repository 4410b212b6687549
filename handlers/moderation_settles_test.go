package handlers_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// Hiding a reported post settles it, as approving does: its open reports
// are resolved by the moderator, it leaves the queue of posts awaiting a
// decision, and the moderation report counts the reports resolved. A flag
// keeps the post in review with its reports open.
func TestHideSettlesReports(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		ada, bob, cy := app.User(t, "ada@example.com"), app.User(t, "bob@example.com"), app.User(t, "cy@example.com")
		newPostAs(t, app, ada.ID, "Cheap pills")
		pills := postByTitle(t, db, "Cheap pills")
		for _, reporter := range []int64{bob.ID, cy.ID} {
			res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(pills)), app.SessionFor(t, reporter), `{"reason":"spam"}`)
			if res.Code != 201 {
				t.Fatalf("report: %d %s", res.Code, res.Body)
			}
		}
		moderate := func(action string) {
			t.Helper()
			if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(pills), admin, `{"action":"`+action+`"}`); res.Code != 200 {
				t.Fatalf("%s: %d %s", action, res.Code, res.Body)
			}
		}
		awaiting := func() []string { return listV1Posts(t, app, admin, "needsReview=true").titles() }

		moderate("flag")
		post := listV1Posts(t, app, admin, "search=pills").Data[0]
		if !slices.Equal(awaiting(), []string{"Cheap pills"}) || post.Reports[0].Status != "open" {
			t.Fatalf("after flag: awaiting %v, reports %+v", awaiting(), post.Reports)
		}
		moderate("hide")
		post = listV1Posts(t, app, admin, "search=pills").Data[0]
		if got := awaiting(); len(got) != 0 {
			t.Fatalf("after hide, still awaiting a decision: %v", got)
		}
		for _, r := range post.Reports {
			if r.Status != "resolved" {
				t.Errorf("after hide, a report is %q", r.Status)
			}
		}
		res := apptest.Do(t, app, "GET", api.PathAdminV1ModerationRp, admin)
		var rep struct{ Data api.V1ModerationReport }
		if err := json.Unmarshal(res.Body.Bytes(), &rep); err != nil || res.Code != 200 {
			t.Fatalf("moderation report: %d %s", res.Code, res.Body)
		}
		if rep.Data.Totals.ReportsResolved != 2 || rep.Data.Totals.Pending != 0 {
			t.Errorf("moderation report totals %+v, want 2 resolved and none pending (by %s)", rep.Data.Totals, root.Username)
		}
	})
}
