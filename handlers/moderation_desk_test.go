package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// desk is a moderation desk scenario: an app on a clock the test moves,
// an admin, an author and three reporters.
type desk struct {
	app       *apptest.App
	db        *bun.DB
	clock     *atomic.Pointer[time.Time]
	admin     http.Header
	adminUser *models.User
	author    *models.User
	reporters []*models.User
}

func newDesk(t *testing.T, db *bun.DB) *desk {
	t.Helper()
	var clock atomic.Pointer[time.Time]
	start := time.Now().UTC().Truncate(time.Second)
	clock.Store(&start)
	now := func() time.Time { return *clock.Load() }
	app := apptest.New(t, db, func(d *web.Deps) { d.Now = now })
	app.Store.Now = now
	admin, root := app.Admin(t)
	d := &desk{app: app, db: db, clock: &clock, admin: admin, adminUser: root, author: app.User(t, "author@example.com")}
	for _, email := range []string{"rita@example.com", "sam@example.com", "tom@example.com"} {
		d.reporters = append(d.reporters, app.User(t, email))
	}
	return d
}

func (d *desk) advance(by time.Duration) {
	next := d.clock.Load().Add(by)
	d.clock.Store(&next)
}

// post makes a published post of the author's, reported by reporters (by
// index) with reason "spam" and a comment naming the reporter.
func (d *desk) post(t *testing.T, title string, reporters ...int) int64 {
	t.Helper()
	newPostAs(t, d.app, d.author.ID, title)
	id := postByTitle(t, d.db, title)
	for _, i := range reporters {
		r := d.reporters[i]
		body := `{"reason":"spam","comment":"from ` + r.Username + `"}`
		if res := apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), d.app.SessionFor(t, r.ID), body); res.Code != 201 {
			t.Fatalf("report by %s: %d %s", r.Username, res.Code, res.Body)
		}
	}
	return id
}

func (d *desk) moderate(t *testing.T, id int64, body string) {
	t.Helper()
	if res := apptest.DoBody(t, d.app, "POST", api.AdminV1ModeratePath(id), d.admin, body); res.Code != 200 {
		t.Fatalf("moderate %d %s: %d %s", id, body, res.Code, res.Body)
	}
}

// reports maps each report of post id to its status.
func (d *desk) reports(t *testing.T, id int64) map[int64]string {
	t.Helper()
	var rows []models.PostReport
	if err := d.db.NewSelect().Model(&rows).Where("post_id = ?", id).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, r := range rows {
		out[r.ReporterID] = r.Status
	}
	return out
}

func (d *desk) status(t *testing.T, id int64) string {
	t.Helper()
	var s string
	if err := d.db.NewSelect().Model((*models.Post)(nil)).Column("status").Where("id = ?", id).Scan(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// tally is reporter i's upheld and rejected reports.
func (d *desk) tally(t *testing.T, i int) [2]int {
	t.Helper()
	var out [2]int
	err := d.db.NewSelect().TableExpr("reporter_stats").Column("upheld", "rejected").Where("user_id = ?", d.reporters[i].ID).
		Scan(context.Background(), &out[0], &out[1])
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		t.Fatal(err)
	}
	return out
}

func (d *desk) moderationReport(t *testing.T) api.V1ModerationReport {
	t.Helper()
	d.advance(time.Second) // the window ends now, before it
	res := apptest.Do(t, d.app, "GET", api.PathAdminV1ModerationRp, d.admin)
	var rep struct{ Data api.V1ModerationReport }
	if err := json.Unmarshal(res.Body.Bytes(), &rep); err != nil || res.Code != 200 {
		t.Fatalf("moderation report: %d %s", res.Code, res.Body)
	}
	return rep.Data
}

// TestDismissOnEveryDoor: dismiss finds the reports unfounded at every
// door that moderates (v1 one and bulk, the console's one and bulk): they
// are dismissed with the moderator and the time, a flagged post is
// published again and any other keeps its status.
func TestDismissOnEveryDoor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		v1 := d.post(t, "Via v1", 0, 1)
		d.moderate(t, v1, `{"action":"flag"}`)
		console := d.post(t, "Via the console", 0)
		hidden := d.post(t, "Hidden already", 1)
		d.moderate(t, hidden, `{"action":"hide"}`)
		bulk1, bulk2 := d.post(t, "Bulk one", 2), d.post(t, "Bulk two", 2)
		cbulk := d.post(t, "Console bulk", 1)

		d.moderate(t, v1, `{"action":"dismiss"}`)
		hx := withHeader(d.admin, "HX-Request", "true", "Accept", "text/html")
		res := apptest.DoBody(t, d.app, "POST", api.ConsoleModeratePath(console), hx, `{"action":"dismiss","notifyReporters":true}`)
		if res.Code != 200 || !strings.Contains(res.Header().Get("HX-Trigger"), `"undo":"/admin/moderation/`) {
			t.Errorf("dismiss through the queue: %d %q", res.Code, res.Header().Get("HX-Trigger"))
		}
		d.moderate(t, hidden, `{"action":"dismiss"}`)
		res = apptest.DoBody(t, d.app, "POST", api.PathAdminV1BulkModerate, d.admin,
			`{"postIds":["`+itoa(bulk1)+`","`+itoa(bulk2)+`"],"action":"dismiss"}`)
		if res.Code != 200 {
			t.Fatalf("bulk dismiss: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, d.app, "POST", api.PathConsoleBulkModerate, d.admin, `{"postIds":["`+itoa(cbulk)+`"],"action":"dismiss"}`)
		if res.Code != 200 {
			t.Fatalf("console bulk dismiss: %d %s", res.Code, res.Body)
		}
		for _, tc := range []struct {
			id   int64
			want string
		}{{v1, "published"}, {console, "published"}, {hidden, "hidden"}, {bulk1, "published"}, {bulk2, "published"}, {cbulk, "published"}} {
			if got := d.status(t, tc.id); got != tc.want {
				t.Errorf("post %d after dismiss: %s, want %s", tc.id, got, tc.want)
			}
			for who, st := range d.reports(t, tc.id) {
				if tc.id == hidden && who == d.reporters[1].ID {
					if st != "resolved" { // settled by the hide before
						t.Errorf("the hide's report became %s", st)
					}
					continue
				}
				if st != "dismissed" {
					t.Errorf("post %d: a report is %s after dismiss", tc.id, st)
				}
			}
		}
		var by []models.PostReport
		db.NewSelect().Model(&by).Where("post_id = ?", v1).Scan(context.Background(), &by)
		for _, r := range by {
			if r.ResolvedBy == nil || *r.ResolvedBy != d.adminUser.ID || r.ResolvedAt == nil || r.ActionID == nil {
				t.Errorf("a dismissed report without its moderator, time or decision: %+v", r)
			}
		}
		if res := apptest.DoBody(t, d.app, "POST", api.AdminV1ModeratePath(v1), d.admin, `{"action":"ignore"}`); res.Code != 422 ||
			!strings.Contains(res.Body.String(), "dismiss") {
			t.Errorf("an unknown action: %d %s", res.Code, res.Body)
		}
		rep := d.moderationReport(t)
		if rep.ByAction.Dismiss != 6 || rep.Totals.Pending != 0 {
			t.Errorf("moderation report: byAction %v, totals %+v", rep.ByAction, rep.Totals)
		}
		// 2 + 1 + 1 (by the hide) + 1 + 1 + 1 settled reports.
		if rep.Totals.ReportsResolved != 7 {
			t.Errorf("resolved reports %d, want 7", rep.Totals.ReportsResolved)
		}
	})
}

// TestOutcomesTalliesAndDeletion: hide and delete uphold the reports,
// approve and dismiss reject them; each reporter's tally follows, in the
// decision's transaction, and a deleted post's reports stay counted in the
// tallies and in the moderation report.
func TestOutcomesTalliesAndDeletion(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		hide, approve, del := d.post(t, "Hide me", 0, 1), d.post(t, "Approve me", 0, 2), d.post(t, "Delete me", 0, 1)
		d.moderate(t, hide, `{"action":"hide"}`)
		d.moderate(t, approve, `{"action":"approve"}`)
		d.moderate(t, del, `{"action":"delete"}`)
		if got := d.reports(t, hide); got[d.reporters[0].ID] != "resolved" || got[d.reporters[1].ID] != "resolved" {
			t.Errorf("after hide: %v", got)
		}
		if got := d.reports(t, approve); got[d.reporters[0].ID] != "dismissed" {
			t.Errorf("after approve: %v", got)
		}
		if got := d.reports(t, del); len(got) != 0 {
			t.Errorf("a deleted post's reports are still there: %v", got)
		}
		for i, want := range [][2]int{{2, 1}, {2, 0}, {0, 1}} {
			if got := d.tally(t, i); got != want {
				t.Errorf("reporter %d: upheld, rejected %v, want %v", i, got, want)
			}
		}
		if rep := d.moderationReport(t); rep.Totals.ReportsResolved != 6 || rep.ByAction.Delete != 1 {
			t.Errorf("moderation report after a delete: totals %+v, byAction %v", rep.Totals, rep.ByAction)
		}
		// The accuracy shows in the context of the next post reporter 0 reports.
		next := d.post(t, "Next one", 0)
		res := apptest.Do(t, d.app, "GET", api.PathConsoleModeration+"/"+itoa(next)+"/context", d.admin)
		var ctx struct{ Data api.V1PostContext }
		if err := json.Unmarshal(res.Body.Bytes(), &ctx); err != nil || res.Code != 200 {
			t.Fatalf("context: %d %s", res.Code, res.Body)
		}
		if r := ctx.Data.Reports[0].Reporter; r.Upheld != 2 || r.Settled != 3 {
			t.Errorf("reporter 0's accuracy in the context: %+v", r)
		}
		if s := ctx.Data.Standing; s.Moderations != 3 || s.Hidden != 1 || s.Removed != 1 {
			t.Errorf("the author's standing counts the deleted post's decision: %+v", s)
		}
	})
}

// TestReportComment: a report takes an optional comment of up to 500
// characters, shown to moderators; a longer one is a clear 422.
func TestReportComment(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		id := d.post(t, "Commented")
		rep := d.app.SessionFor(t, d.reporters[0].ID)
		res := apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), rep, `{"reason":"spam","comment":"`+strings.Repeat("é", 501)+`"}`)
		if res.Code != 422 || !strings.Contains(res.Body.String(), "comment must be at most 500 characters") {
			t.Errorf("a 501-character comment: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), rep, `{"reason":"spam","comment":"  `+strings.Repeat("é", 500)+`  "}`)
		if res.Code != 201 || !strings.Contains(res.Body.String(), `"comment":"éé`) {
			t.Errorf("a 500-character comment: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), d.app.SessionFor(t, d.reporters[1].ID), `{"reason":"spam"}`)
		if res.Code != 201 || !strings.Contains(res.Body.String(), `"comment":""`) {
			t.Errorf("no comment: %d %s", res.Code, res.Body)
		}
		list := apptest.Do(t, d.app, "GET", "/api/v1/admin/posts?search=Commented", d.admin).Body.String()
		if !strings.Contains(list, `"comment":"`+strings.Repeat("é", 500)+`"`) {
			t.Errorf("the admin list does not show the comment: %.300s", list)
		}
	})
}

// TestReportersNotified: with notifyReporters each reporter of the
// settled reports finds the outcome in words in the inbox; without it,
// nothing; a flag settles nothing and tells no one.
func TestReportersNotified(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		hidden, kept, quiet := d.post(t, "Hidden one", 0, 1), d.post(t, "Kept one", 2), d.post(t, "Quiet one", 0)
		d.moderate(t, hidden, `{"action":"flag","notifyReporters":true}`)
		d.moderate(t, hidden, `{"action":"hide","notifyReporters":true}`)
		d.moderate(t, kept, `{"action":"dismiss","notifyReporters":true}`)
		d.moderate(t, quiet, `{"action":"approve"}`)
		inbox := func(i int) []string {
			var titles []string
			err := db.NewSelect().Model((*models.Notification)(nil)).Column("title").Where("user_id = ?", d.reporters[i].ID).
				Order("id").Scan(context.Background(), &titles)
			if err != nil {
				t.Fatal(err)
			}
			return titles
		}
		for i, want := range []string{"Thanks: the post you reported was hidden", "Thanks: the post you reported was hidden",
			"Thanks for your report: we reviewed the post and left it up"} {
			if got := inbox(i); len(got) != 1 || got[0] != want {
				t.Errorf("reporter %d's inbox: %q, want only %q", i, got, want)
			}
		}
	})
}

// TestUndo: a moderator undoes their own last decision within ten
// minutes: the previous status back, exactly the reports that decision
// settled open again, the tallies reverted, an undo record kept. Not
// twice, not someone else's, not after the window, not a delete.
func TestUndo(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		id := d.post(t, "Undo me", 0)
		d.moderate(t, id, `{"action":"approve"}`) // settles reporter 0's report
		for _, i := range []int{1, 2} {
			apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), d.app.SessionFor(t, d.reporters[i].ID), `{"reason":"spam"}`)
		}
		d.advance(time.Minute)
		d.moderate(t, id, `{"action":"hide"}`)
		d.advance(9 * time.Minute)
		undo := func(h http.Header) (int, string) {
			res := apptest.DoBody(t, d.app, "POST", "/api/v1/admin/posts/"+itoa(id)+"/moderate/undo", h, ``)
			return res.Code, res.Body.String()
		}
		other := d.app.SessionFor(t, d.app.User(t, "other@example.com", "admin").ID)
		if code, body := undo(other); code != 422 {
			t.Errorf("someone else's undo: %d %s", code, body)
		}
		code, body := undo(d.admin)
		if code != 200 || !strings.Contains(body, `"undone":"hide"`) || !strings.Contains(body, `"status":"published"`) || !strings.Contains(body, `"reopened":2`) {
			t.Fatalf("undo: %d %s", code, body)
		}
		got := d.reports(t, id)
		if got[d.reporters[0].ID] != "dismissed" || got[d.reporters[1].ID] != "open" || got[d.reporters[2].ID] != "open" {
			t.Errorf("after undo, reports %v: the approve's stays dismissed, the hide's open again", got)
		}
		if d.status(t, id) != "published" {
			t.Errorf("after undo the post is %s", d.status(t, id))
		}
		for i, want := range [][2]int{{0, 1}, {0, 0}, {0, 0}} {
			if got := d.tally(t, i); got != want {
				t.Errorf("reporter %d's tally after undo: %v, want %v", i, got, want)
			}
		}
		var last models.ModerationAction
		db.NewSelect().Model(&last).Where("post_id = ?", id).OrderExpr("id DESC").Limit(1).Scan(context.Background())
		if last.Action != "undo" || last.FromStatus != "hidden" || last.ToStatus != "published" || last.Undoes == nil {
			t.Errorf("the undo record: %+v", last)
		}
		if code, body := undo(d.admin); code != 422 || !strings.Contains(body, "no decision of yours") {
			t.Errorf("a second undo: %d %s", code, body)
		}
		if rep := d.moderationReport(t); rep.ByAction.Hide != 1 || rep.Totals.Pending != 2 || rep.Totals.ReportsResolved != 1 {
			t.Errorf("moderation report after the undo: byAction %v, totals %+v", rep.ByAction, rep.Totals)
		}
		// Past the window, nothing to undo.
		d.moderate(t, id, `{"action":"flag"}`)
		d.advance(10*time.Minute + time.Second)
		if code, body := undo(d.admin); code != 422 {
			t.Errorf("an undo after the window: %d %s", code, body)
		}
		// A delete is not undone.
		del := d.post(t, "Gone", 1)
		d.moderate(t, del, `{"action":"delete"}`)
		if res := apptest.DoBody(t, d.app, "POST", "/admin/moderation/"+itoa(del)+"/undo", d.admin, ``); res.Code != 404 {
			t.Errorf("undo of a delete: %d %s", res.Code, res.Body)
		}
		// The console's door answers htmx with a toast.
		flagged := d.post(t, "Flag then undo", 2)
		d.moderate(t, flagged, `{"action":"flag"}`)
		hx := withHeader(d.admin, "HX-Request", "true", "Accept", "text/html")
		res := apptest.DoBody(t, d.app, "POST", "/admin/moderation/"+itoa(flagged)+"/undo", hx, `{}`)
		if res.Code != 200 || !strings.Contains(res.Header().Get("HX-Trigger"), "Undid the flag: the post is published again") {
			t.Errorf("undo through the console: %d %q %s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
	})
}

// TestPostContextPanel: the panel a queue row opens shows the whole post,
// every open report with its reporter (linked for who may read users),
// comment and accuracy, and the author's standing.
func TestPostContextPanel(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		earlier := d.post(t, "Earlier", 0)
		d.moderate(t, earlier, `{"action":"hide"}`)
		long := strings.Repeat("word ", 80) + "THE END"
		err := d.app.Store.Change(context.Background(), func(ctx context.Context) error {
			_, err := d.app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: d.author.ID, Title: "Long one", Content: long, Published: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		id := postByTitle(t, db, "Long one")
		for _, i := range []int{0, 1} {
			body := `{"reason":"spam","comment":"comment of ` + d.reporters[i].Username + `"}`
			apptest.DoBody(t, d.app, "POST", api.PostReportPath(itoa(id)), d.app.SessionFor(t, d.reporters[i].ID), body)
		}
		if res := apptest.DoBody(t, d.app, "POST", api.AdminUserBanPath(d.author.ID), d.admin, `{"reason":"spam","duration":"1w"}`); res.Code >= 300 {
			t.Fatalf("a timeout for the standing: %d %s", res.Code, res.Body)
		}
		hx := withHeader(d.admin, "HX-Request", "true", "Accept", "text/html")
		res := apptest.Do(t, d.app, "GET", "/admin/moderation/"+itoa(id)+"/context", hx)
		html := res.Body.String()
		if res.Code != 200 {
			t.Fatalf("context: %d %s", res.Code, html)
		}
		for _, want := range []string{"THE END", "comment of " + d.reporters[0].Username, "comment of " + d.reporters[1].Username,
			`href="/admin/users/` + itoa(d.reporters[0].ID) + `"`, "1 of 1 upheld", "no earlier reports settled",
			`href="/admin/users/` + itoa(d.author.ID) + `"`, "1 decision on their other posts (1 hidden, 0 removed)",
			"1 other post reported, 0 with open reports now", "Joined", "0 bans, 1 timeout"} {
			if !strings.Contains(html, want) {
				t.Errorf("the panel lacks %q", want)
			}
		}
		if strings.Contains(html, "…") {
			t.Errorf("the panel cuts the post short")
		}
		// A moderator sees the names without links to the users' pages.
		mod := d.app.SessionFor(t, d.app.User(t, "mod@example.com", "moderator").ID)
		res = apptest.Do(t, d.app, "GET", "/admin/moderation/"+itoa(id)+"/context", withHeader(mod, "HX-Request", "true", "Accept", "text/html"))
		if res.Code != 200 || strings.Contains(res.Body.String(), `href="/admin/users/`) || !strings.Contains(res.Body.String(), d.reporters[0].Username) {
			t.Errorf("a moderator's panel: %d", res.Code)
		}
		user := d.app.SessionFor(t, d.reporters[2].ID)
		if res := apptest.Do(t, d.app, "GET", "/admin/moderation/"+itoa(id)+"/context", user); res.Code != 403 {
			t.Errorf("a user's context: %d", res.Code)
		}
		if res := apptest.Do(t, d.app, "GET", "/admin/moderation/999999/context", d.admin); res.Code != 404 {
			t.Errorf("no such post: %d", res.Code)
		}
	})
}

// TestPostTitleSearchCapped: a title search matching more posts than the
// list keeps says so, as totalCapped in the API and "1,000+" in the
// console's moderation list; one matching fewer counts them exactly and
// leaves totalCapped out.
func TestPostTitleSearchCapped(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		d := newDesk(t, db)
		posts := make([]models.Post, models.TitleSearchCap+5)
		for i := range posts {
			posts[i] = models.Post{AuthorID: d.author.ID, Title: "Seedling swap " + itoa(int64(i)), Content: "-", Status: models.PostFlagged}
		}
		if _, err := db.NewInsert().Model(&posts).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		body := apptest.Do(t, d.app, "GET", "/api/v1/admin/posts?search=seedling&limit=10", d.admin).Body.String()
		if !strings.Contains(body, `"total":1000,`) || !strings.Contains(body, `"totalCapped":true`) {
			t.Errorf("a search past the cap: %.300s", body[max(len(body)-300, 0):])
		}
		body = apptest.Do(t, d.app, "GET", "/api/v1/admin/posts?search=swap+100", d.admin).Body.String()
		if !strings.Contains(body, `"total":6,`) || strings.Contains(body, "totalCapped") {
			t.Errorf("a search under the cap: %.300s", body[max(len(body)-300, 0):])
		}
		page := apptest.Do(t, d.app, "GET", api.PathConsoleModeration+"?search=seedling", withHeader(d.admin, "Accept", "text/html")).Body.String()
		if !strings.Contains(page, "of 1,000+") {
			t.Errorf("the console's moderation list does not say the search was capped: %.400s", page[max(strings.Index(page, "page-summary")-100, 0):])
		}
	})
}
