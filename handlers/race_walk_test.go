package handlers_test

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// walkers is how many copies of each operation's sample the race walk
// sends at once: small in make test, larger by hand (-walkers=32).
var walkers = flag.Int("walkers", 4, "how many copies of each sample the race walk sends at once")

// TestRaceWalk sends, for every unsafe operation of the OpenAPI document
// (so every unsafe route, the walk of the route table that
// TestDocumentedRoutesAnswer keeps complete), its sample request many
// times at once to a real server, on both databases, and checks what one after another would give:
//   - no answer is 5xx, and at least one is the sample's success;
//   - and the same, but for the success, when half of them are deletes of
//     the sample's target instead (walkConflict);
//   - the audit entries of success the race wrote are one per success,
//     with its status (one entry per change, none for a change that did
//     not happen);
//   - the counters the triggers keep (row_counts, daily_counts,
//     hourly_counts, post_status_days, post_updated_hours, post_report_runs,
//     post_title_marks, their per-status twins, users' post counts, posts' report and open report
//     counts) equal a fresh count from the rows.
func TestRaceWalk(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			if !dbtest.Available(t, dialect) {
				return
			}
			e := newSampleEnv(t, dbtest.Open(t, dialect), liftLimits)
			for _, op := range e.app.Doc.Operations() {
				method, path, _ := strings.Cut(op, " ")
				if method == http.MethodGet || method == http.MethodHead {
					continue
				}
				t.Run(op, func(t *testing.T) { walkRace(t, e, method, path, op) })
				if del := http.MethodDelete + " " + path; method != http.MethodDelete && slices.Contains(e.app.Doc.Operations(), del) {
					t.Run(op+" against "+del, func(t *testing.T) { walkConflict(t, dialect, method, path, op, del) })
				}
			}
		})
	}
}

// liftLimits lets a race walk through: its requests race each other, not
// the rate limits or the bound on password hashing (which answer 429 and
// 503 busy under load, whatever the race).
func liftLimits(d *web.Deps) {
	l := &d.Config.RateLimit
	l.Register, l.SignInByEmail, l.SignInByIP, l.SignInByEmailTotal = 1<<20, 1<<20, 1<<20, 1<<20
	l.APIAnonymous, l.APIAuthed, l.APIAdmin, l.AdminGeneral, l.AdminSuper, l.AdminSystem = 1<<20, 1<<20, 1<<20, 1<<20, 1<<20, 1<<20
	d.Passwords = auth.NewPasswords(auth.PasswordLimits{Slots: 4, Queue: 2 * *walkers, Wait: time.Minute})
}

// walkRace races one operation's sample in e, which the operations share
// one after another, as in TestDocumentedRoutesAnswer (each sample makes
// the things it acts on).
func walkRace(t *testing.T, e sampleEnv, method, path, op string) {
	sample, ok := samples[op]
	if !ok {
		t.Fatalf("no sample for %s: add one to samples in handlers/openapi_test.go", op)
	}
	s := sample(t, e)
	before := lastAuditID(t, e.app)
	rs := race(t, e.app, *walkers, func(int) (string, string, http.Header, string) {
		return method, s.target, s.header, s.body
	})
	wantNo5xx(t, rs)
	if !slices.ContainsFunc(rs, func(r raced) bool { return r.status == s.status }) {
		t.Errorf("no answer was the sample's %d: %v; the first: %.300s", s.status, statuses(rs), rs[0].body)
	}
	checkRaceAudit(t, e.app, path, before, rs)
	checkCounters(t, e.app) // users' post counts, posts' report counts
	checkRecounts(t, e.app)
}

// walkConflict races an operation's sample against deletes of the same
// target (a put that creates against a delete, an edit against a delete):
// half the requests are each. Whatever order they land in, none may
// answer 5xx, the audit entries must match the answers and the counters
// a recount. It runs in an env of its own: the samples make their things
// under fixed names, once per env.
func walkConflict(t *testing.T, dialect, method, path, op, del string) {
	e := newSampleEnv(t, dbtest.Open(t, dialect), liftLimits)
	s := samples[op](t, e)
	d := samples[del](t, e) // for the body a delete takes (a password, say)
	before := lastAuditID(t, e.app)
	rs := race(t, e.app, max(*walkers, 2), func(i int) (string, string, http.Header, string) {
		if i%2 == 1 {
			return http.MethodDelete, s.target, s.header, d.body
		}
		return method, s.target, s.header, s.body
	})
	wantNo5xx(t, rs)
	checkRaceAudit(t, e.app, path, before, rs)
	checkCounters(t, e.app)
	checkRecounts(t, e.app)
}

// lastAuditID is the id of the newest audit entry, once the queue is
// written.
func lastAuditID(t *testing.T, app *apptest.App) int64 {
	t.Helper()
	var id int64
	for _, e := range app.AuditEntries(t) {
		id = max(id, e.ID)
	}
	return id
}

// checkRaceAudit compares the audit entries written after entry before
// with the answers: an admin route writes an entry for each success, with
// its status, and no other route writes more entries of success than it
// gave successes (one entry per change made). Refusals are left out: a
// refusal before the audit step (a rate limit) writes none.
func checkRaceAudit(t *testing.T, app *apptest.App, path string, before int64, rs []raced) {
	t.Helper()
	var got []int
	for _, e := range app.AuditEntries(t) {
		if e.ID > before && e.Status < 300 {
			got = append(got, e.Status)
		}
	}
	admin := strings.HasPrefix(path, "/api/v1/admin") || strings.HasPrefix(path, "/api/admin")
	if len(got) == 0 && !admin {
		return // the route audits only some callers (docs/api.md, "Audit log")
	}
	var want []int
	for _, r := range rs {
		if r.status < 300 {
			want = append(want, r.status)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("audit entries with statuses %v, answers %v", got, want)
	}
}

// checkRecounts recounts every counter from the rows, as the recount
// after a bulk load does, and fails on each one that moved: a race that
// lost or doubled a trigger's count.
func checkRecounts(t *testing.T, app *apptest.App) {
	t.Helper()
	ctx, s := context.Background(), app.Store
	kept := counters(t, s.DB)
	for _, recount := range []func(context.Context) error{s.Users.RecountUsers, s.Posts.RecountPosts, s.Posts.RecountOpenReports, s.Analytics.RecountDailyCounts, s.Analytics.RecountEventCounts} {
		if err := recount(ctx); err != nil {
			t.Fatal(err)
		}
	}
	checkAuditRuns(t, s.DB)
	fresh := counters(t, s.DB)
	for k, v := range fresh {
		if kept[k] != v {
			t.Errorf("counter %s: kept %d, counted %d", k, kept[k], v)
		}
	}
	for k, v := range kept {
		if _, ok := fresh[k]; !ok {
			t.Errorf("counter %s: kept %d, counted 0", k, v)
		}
	}
}

// checkAuditRuns fails when PostgreSQL's counts of audit entries per run
// of ids, and per action, target type, or admin, action and target type
// and run, differ from the entries, or a run's times do not span its
// entries' (nothing recounts them: only their triggers keep them).
func checkAuditRuns(t *testing.T, db *bun.DB) {
	t.Helper()
	if models.Dialect(db) != "postgres" {
		return
	}
	for what, q := range map[string]string{
		"audit_id_runs": `SELECT count(*) FROM (SELECT id / 1024 AS run, count(*) AS n FROM audit_log GROUP BY 1) AS r
			FULL JOIN (SELECT run, n FROM audit_id_runs WHERE n <> 0) AS c ON c.run = r.run WHERE r.n IS DISTINCT FROM c.n`,
		"audit_id_runs times": `SELECT count(*) FROM (SELECT id / 1024 AS run, min(created_at) AS first_at,
			max(created_at) AS last_at FROM audit_log GROUP BY 1) AS r JOIN audit_id_runs AS c ON c.run = r.run
			WHERE NOT (c.first_at <= r.first_at AND c.last_at >= r.last_at)`,
		"audit_action_runs": `SELECT count(*) FROM (SELECT action, id / 1024 AS run, count(*) AS n FROM audit_log GROUP BY 1, 2) AS r
			FULL JOIN (SELECT action, run, n FROM audit_action_runs WHERE n <> 0) AS c ON c.action = r.action AND c.run = r.run
			WHERE r.n IS DISTINCT FROM c.n`,
		"audit_combined_runs": `SELECT count(*) FROM (SELECT coalesce(admin_id, 0) AS admin_id, action, target_type,
			id / 1024 AS run, count(*) AS n FROM audit_log GROUP BY 1, 2, 3, 4) AS r
			FULL JOIN (SELECT admin_id, action, target_type, run, n FROM audit_combined_runs WHERE n <> 0) AS c
			ON c.admin_id = r.admin_id AND c.action = r.action AND c.target_type = r.target_type AND c.run = r.run
			WHERE r.n IS DISTINCT FROM c.n`,
		"audit_target_runs": `SELECT count(*) FROM (SELECT target_type, id / 1024 AS run, count(*) AS n FROM audit_log GROUP BY 1, 2) AS r
			FULL JOIN (SELECT target_type, run, n FROM audit_target_runs WHERE n <> 0) AS c
			ON c.target_type = r.target_type AND c.run = r.run WHERE r.n IS DISTINCT FROM c.n`,
	} {
		var wrong int
		if err := db.QueryRowContext(context.Background(), q).Scan(&wrong); err != nil || wrong != 0 {
			t.Errorf("%s: %d counts differ from the entries (%v)", what, wrong, err)
		}
	}
}

// counters reads every counter the triggers keep, by name; zeros are left
// out (a recount deletes a row a trigger leaves at zero).
func counters(t *testing.T, db *bun.DB) map[string]int64 {
	t.Helper()
	queries := map[string]string{
		"row_counts":        "SELECT table_name, row_count FROM row_counts",
		"daily_counts":      "SELECT CAST(day AS text) || ' ' || metric, n FROM daily_counts",
		"hourly_counts":     "SELECT CAST(hour AS text) || ' ' || metric, n FROM hourly_counts",
		"post open_reports": "SELECT CAST(id AS text), open_reports FROM posts",
		"post_status_days":  "SELECT status || ' ' || CAST(day AS text), n FROM post_status_days",
	}
	if models.Dialect(db) == "postgres" {
		queries["post_updated_hours"] = "SELECT CAST(hour AS text), n FROM post_updated_hours"
		queries["post_report_runs"] = "SELECT report_count || ' ' || run, n FROM post_report_runs"
		queries["post_title_marks"] = "SELECT title || ' ' || id, n FROM post_title_marks"
		queries["post_status_updated_hours"] = "SELECT status || ' ' || CAST(hour AS text), n FROM post_status_updated_hours"
		queries["post_status_report_runs"] = "SELECT status || ' ' || report_count || ' ' || run, n FROM post_status_report_runs"
		queries["post_status_title_marks"] = "SELECT status || ' ' || title || ' ' || id, n FROM post_status_title_marks"
	}
	out := map[string]int64{}
	for table, q := range queries {
		rows, err := db.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		for rows.Next() {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				out[fmt.Sprintf("%s[%s]", table, k)] = n
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
