package seed_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/seed"
)

// countRows runs a query that returns one count.
func countRows(t *testing.T, db *bun.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.NewRaw(query, args...).Scan(context.Background(), &n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// analyzedTables counts users and posts among the tables the planner has
// statistics for.
func analyzedTables(t *testing.T, db *bun.DB) int {
	if models.Dialect(db) == "sqlite" {
		return countRows(t, db, "SELECT count(DISTINCT tbl) FROM sqlite_stat1 WHERE tbl IN ('users', 'posts')")
	}
	return countRows(t, db, `SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('users', 'posts')
		AND last_analyze IS NOT NULL`)
}

// checkInvariants checks what must hold after any seeding: exact
// denormalised counters, foreign keys, and believable timestamps.
func checkInvariants(t *testing.T, db *bun.DB) {
	t.Helper()
	checks := map[string]string{
		"users.post_count differs from COUNT(posts)": `SELECT count(*) FROM users u
			WHERE u.post_count <> (SELECT count(*) FROM posts p WHERE p.author_id = u.id)`,
		"posts.report_count differs from COUNT(post_reports)": `SELECT count(*) FROM posts p
			WHERE p.report_count <> (SELECT count(*) FROM post_reports r WHERE r.post_id = p.id)`,
		"posts.open_reports differs from the open reports": `SELECT count(*) FROM posts p
			WHERE p.open_reports <> (SELECT count(*) FROM post_reports r WHERE r.post_id = p.id AND r.status = 'open')`,
		"posts without author":         `SELECT count(*) FROM posts p WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.author_id)`,
		"tags without post":            `SELECT count(*) FROM post_tags t WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = t.post_id)`,
		"reports without post":         `SELECT count(*) FROM post_reports r WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = r.post_id)`,
		"reports without reporter":     `SELECT count(*) FROM post_reports r WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = r.reporter_id)`,
		"reports by the post's author": `SELECT count(*) FROM post_reports r JOIN posts p ON p.id = r.post_id WHERE r.reporter_id = p.author_id`,
		"duplicate reporter on a post": `SELECT count(*) FROM (SELECT post_id, reporter_id FROM post_reports
			GROUP BY post_id, reporter_id HAVING count(*) > 1) d`,
		"users without the user role": `SELECT count(*) FROM users u WHERE NOT EXISTS
			(SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name = 'user')`,
		"banned users without an open ban": `SELECT count(*) FROM users u WHERE u.status = 'banned' AND NOT EXISTS
			(SELECT 1 FROM bans b WHERE b.user_id = u.id AND b.ended_at IS NULL)`,
		"open bans of users not banned": `SELECT count(*) FROM bans b JOIN users u ON u.id = b.user_id
			WHERE b.ended_at IS NULL AND u.status <> 'banned'`,
		"posts older than their author":            `SELECT count(*) FROM posts p JOIN users u ON u.id = p.author_id WHERE p.created_at < u.created_at`,
		"posts updated before created":             `SELECT count(*) FROM posts WHERE updated_at < created_at`,
		"published posts without date":             `SELECT count(*) FROM posts WHERE status = 'published' AND published_at IS NULL`,
		"drafts with a publication date":           `SELECT count(*) FROM posts WHERE status = 'draft' AND published_at IS NOT NULL`,
		"users updated before created":             `SELECT count(*) FROM users WHERE updated_at < created_at`,
		"logins before sign-up":                    `SELECT count(*) FROM users WHERE last_login_at < created_at`,
		"uppercase emails":                         `SELECT count(*) FROM users WHERE email <> lower(email)`,
		"users without the mailbox of their email": `SELECT count(*) FROM users WHERE email_canonical = ''`,
		"sign-up addresses without their range":    `SELECT count(*) FROM users WHERE (signup_ip = '') <> (signup_net = '')`,
		"events received before they occurred":     `SELECT count(*) FROM analytics_events WHERE received_at < occurred_at`,
		"the posts counter differs from COUNT(posts)": `SELECT count(*) FROM row_counts
			WHERE table_name = 'posts' AND row_count <> (SELECT count(*) FROM posts)`,
		"the flagged posts counter differs from the flagged posts": `SELECT count(*) FROM row_counts
			WHERE table_name = 'posts_flagged' AND row_count <> (SELECT count(*) FROM posts WHERE status = 'flagged')`,
		"events missing from the daily roll-ups": `SELECT count(*) FROM row_counts WHERE table_name = 'users'
			AND (SELECT coalesce(sum(events), 0) FROM analytics_daily_events) <> (SELECT count(*) FROM analytics_events)`,
	}
	if models.Dialect(db) == config.DialectPostgres {
		checks["title words missing from search_words"] = `SELECT count(*) FROM posts p, plaza_words(p.title) AS w
			WHERE NOT EXISTS (SELECT 1 FROM search_words d WHERE d.word = w)`
		checks["the users counter differs from COUNT(users)"] = `SELECT count(*) FROM row_counts
			WHERE table_name = 'users' AND row_count <> (SELECT count(*) FROM users)`
		checks["name words missing from search_words"] = `SELECT count(*) FROM users u,
			plaza_words(u.username || ' ' || coalesce(u.name, '')) AS w WHERE NOT EXISTS (SELECT 1 FROM search_words d WHERE d.word = w)`
		checks["counts of posts by hour of last update differ from the rows"] = `SELECT count(*) FROM (
			SELECT date_trunc('hour', updated_at, 'UTC') AS hour, count(*) AS n FROM posts GROUP BY 1) AS r
			FULL JOIN (SELECT hour, n FROM post_updated_hours WHERE n <> 0) AS c ON c.hour = r.hour WHERE r.n IS DISTINCT FROM c.n`
		checks["counts of posts by report count and run differ from the rows"] = `SELECT count(*) FROM (
			SELECT report_count, id / 1024 AS run, count(*) AS n FROM posts GROUP BY 1, 2) AS r
			FULL JOIN (SELECT report_count, run, n FROM post_report_runs WHERE n <> 0) AS c
			ON c.report_count = r.report_count AND c.run = r.run WHERE r.n IS DISTINCT FROM c.n`
		checks["the title marks count other than the posts"] = `SELECT count(*) FROM row_counts
			WHERE table_name = 'posts' AND (SELECT coalesce(sum(n), 0) FROM post_title_marks) <> (SELECT count(*) FROM posts)`
		checks["counts of each status's posts by hour of last update differ from the rows"] = `SELECT count(*) FROM (
			SELECT status, date_trunc('hour', updated_at, 'UTC') AS hour, count(*) AS n FROM posts GROUP BY 1, 2) AS r
			FULL JOIN (SELECT status, hour, n FROM post_status_updated_hours WHERE n <> 0) AS c
			ON c.status = r.status AND c.hour = r.hour WHERE r.n IS DISTINCT FROM c.n`
		checks["counts of each status's posts by report count and run differ from the rows"] = `SELECT count(*) FROM (
			SELECT status, report_count, id / 1024 AS run, count(*) AS n FROM posts GROUP BY 1, 2, 3) AS r
			FULL JOIN (SELECT status, report_count, run, n FROM post_status_report_runs WHERE n <> 0) AS c
			ON c.status = r.status AND c.report_count = r.report_count AND c.run = r.run WHERE r.n IS DISTINCT FROM c.n`
		checks["each status's title mark counts differ from the posts"] = `SELECT count(*) FROM (
			SELECT status, count(*) AS n FROM posts GROUP BY 1) AS r
			FULL JOIN (SELECT status, sum(n) AS n FROM post_status_title_marks GROUP BY 1 HAVING sum(n) <> 0) AS c
			ON c.status = r.status WHERE r.n IS DISTINCT FROM c.n`
	}
	day := "substr(%s, 1, 10)"
	if models.Dialect(db) == config.DialectPostgres {
		day = "(%s AT TIME ZONE 'UTC')::date"
	}
	for metric, src := range map[string][2]string{"users_created": {"users", "created_at"}, "users_last_login": {"users", "last_login_at"},
		"posts_created": {"posts", "created_at"}, "reports_created": {"post_reports", "created_at"}, "moderation_actions": {"moderation_actions", "created_at"},
		"reports_resolved": {"post_reports", "resolved_at"}} {
		d := fmt.Sprintf(day, src[1])
		checks["daily counts of "+metric+" differ from the rows"] = fmt.Sprintf(`SELECT count(*) FROM (
			SELECT %s AS day, count(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY 1) AS r
			FULL JOIN (SELECT day, n FROM daily_counts WHERE metric = '%s' AND n <> 0) AS c ON c.day = r.day
			WHERE r.n IS DISTINCT FROM c.n`, d, src[0], src[1], metric)
	}
	checks["counts of posts by day and status differ from the rows"] = fmt.Sprintf(`SELECT count(*) FROM (
		SELECT status, %s AS day, count(*) AS n FROM posts GROUP BY 1, 2) AS r
		FULL JOIN (SELECT status, day, n FROM post_status_days WHERE n <> 0) AS c ON c.status = r.status AND c.day = r.day
		WHERE r.n IS DISTINCT FROM c.n`, fmt.Sprintf(day, "created_at"))
	for what, q := range checks {
		if n := countRows(t, db, q); n != 0 {
			t.Errorf("%s: %d rows", what, n)
		}
	}
}

func TestBulk(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		// The bootstrap admin is there before any seeding.
		admin, err := s.Users.CreateUser(ctx, models.NewUser{Email: "admin@localhost", PasswordHash: "hash", Roles: []string{models.RoleSuperAdmin}})
		if err != nil {
			t.Fatal(err)
		}

		var mu sync.Mutex
		type step struct{ done, total int64 }
		last := map[string]step{}
		calls := 0
		res, err := seed.Bulk(ctx, s, seed.Options{Users: 300, Posts: 700, Events: 500, Seed: 7,
			Progress: func(stage string, done, total int64) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if prev, ok := last[stage]; ok && done < prev.done {
					t.Errorf("%s progress went back from %d to %d", stage, prev.done, done)
				}
				last[stage] = step{done, total}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Users != 300 || res.Posts != 700 || res.Events != 500 || res.Reports == 0 {
			t.Fatalf("result %+v", res)
		}
		if analyzedTables(t, db) == 0 {
			t.Error("the seed left the planner without statistics for users and posts")
		}
		for table, want := range map[string]int{"users": 301, "posts": 700, "analytics_events": 500, "post_reports": res.Reports} {
			if n := countRows(t, db, "SELECT count(*) FROM "+table); n != want {
				t.Errorf("%s: %d rows, want %d", table, n, want)
			}
		}
		for stage, want := range map[string]int64{seed.StageUsers: 300, seed.StagePosts: 700,
			seed.StageEvents: 500, seed.StageReports: int64(res.Reports)} {
			if got := last[stage]; got.done != want || got.total != want {
				t.Errorf("%s progress ended at %d/%d, want %d", stage, got.done, got.total, want)
			}
		}
		if calls < 8 {
			t.Errorf("progress called %d times", calls)
		}
		checkInvariants(t, db)
		if n := countRows(t, db, "SELECT sum(post_count) FROM users"); n != 700 {
			t.Errorf("post counts add up to %d", n)
		}

		// Realistic mixes, loosely: some of everything.
		for what, q := range map[string]string{
			"inactive users":    `SELECT count(*) FROM users WHERE status = 'inactive' AND NOT is_active`,
			"verified users":    `SELECT count(*) FROM users WHERE is_verified`,
			"never logged in":   `SELECT count(*) FROM users WHERE last_login_at IS NULL`,
			"provider accounts": `SELECT count(*) FROM provider_accounts`,
			"subscriptions":     `SELECT count(*) FROM user_subscriptions`,
			"drafts":            `SELECT count(*) FROM posts WHERE status = 'draft'`,
			"open reports":      `SELECT count(*) FROM post_reports WHERE status = 'open'`,
			"resolved reports":  `SELECT count(*) FROM post_reports WHERE status = 'resolved'`,
			"tags":              `SELECT count(*) FROM post_tags`,
			"anonymous events":  `SELECT count(*) FROM analytics_events WHERE user_id IS NULL`,
			"user events":       `SELECT count(*) FROM analytics_events WHERE user_id IS NOT NULL`,
			"prolific authors":  `SELECT count(*) FROM users WHERE post_count >= 10`,
			"silent users":      `SELECT count(*) FROM users WHERE post_count = 0`,
			"hours rolled up":   `SELECT count(*) FROM activity_rollups WHERE span = 'hour'`,
		} {
			if n := countRows(t, db, q); n == 0 {
				t.Errorf("no %s", what)
			}
		}
		if n := countRows(t, db, `SELECT count(*) FROM posts WHERE status = 'published'`); n < 500 {
			t.Errorf("only %d of 700 posts published", n)
		}
		if n := countRows(t, db, `SELECT post_count FROM users WHERE id = ?`, admin.ID); n != 0 {
			t.Errorf("the admin got %d posts", n)
		}

		// Normal inserts still work: the sequences are past the seeded ids.
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "after.seed@example.com"})
		if err != nil {
			t.Fatalf("create user after seeding: %v", err)
		}
		now := time.Now().UTC()
		p := &models.Post{AuthorID: u.ID, Title: "After seeding", Content: "Still works.", Status: models.PostPublished,
			CreatedAt: now, UpdatedAt: now, PublishedAt: &now}
		if _, err := db.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
			t.Fatalf("insert post after seeding: %v", err)
		}
		if maxID := countRows(t, db, "SELECT max(id) FROM posts WHERE id <> ?", p.ID); p.ID <= int64(maxID) {
			t.Errorf("new post id %d is not after the seeded ones (max %d)", p.ID, maxID)
		}
		for _, table := range []string{"bans", "post_reports", "provider_accounts", "user_subscriptions"} {
			if _, err := db.NewInsert().Model(rowAfterSeed(table, u.ID, admin.ID, p.ID, now)).Exec(ctx); err != nil {
				t.Errorf("insert into %s after seeding: %v", table, err)
			}
		}
		if _, err := db.NewRaw("UPDATE users SET post_count = post_count + 1 WHERE id = ?", u.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewRaw("UPDATE posts SET report_count = report_count + 1 WHERE id = ?", p.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		// Seeding again, with the same seed, adds distinct users.
		res2, err := seed.Bulk(ctx, s, seed.Options{Users: 120, Posts: 200, Events: 50, Seed: 7})
		if err != nil {
			t.Fatalf("second seed: %v", err)
		}
		if n := countRows(t, db, "SELECT count(*) FROM users"); n != 302+120 {
			t.Errorf("%d users after the second seed", n)
		}
		if n := countRows(t, db, "SELECT count(*) FROM post_reports"); n != res.Reports+res2.Reports+1 {
			t.Errorf("%d reports after the second seed", n)
		}
		// And posts alone go to the users already there.
		res3, err := seed.Bulk(ctx, s, seed.Options{Posts: 150, Events: 20})
		if err != nil {
			t.Fatalf("posts-only seed: %v", err)
		}
		if res3.Users != 0 || res3.Posts != 150 {
			t.Errorf("posts-only result %+v", res3)
		}
		if n := countRows(t, db, "SELECT count(*) FROM posts"); n != 700+1+200+150 {
			t.Errorf("%d posts after three seeds", n)
		}
		checkInvariants(t, db)
	})
}

func rowAfterSeed(table string, userID, reporterID, postID int64, now time.Time) any {
	switch table {
	case "bans":
		return &models.Ban{UserID: userID, Reason: "test", CreatedAt: now, EndedAt: &now}
	case "post_reports":
		return &models.PostReport{PostID: postID, ReporterID: reporterID, Reason: "spam", Status: models.ReportOpen, CreatedAt: now}
	case "provider_accounts":
		return &models.ProviderAccount{UserID: userID, Provider: "github", ProviderUserID: "after-seed", CreatedAt: now}
	default:
		return &models.UserSubscription{UserID: userID, SubscriptionTypeID: 1, Status: "active", StartedAt: now}
	}
}

// TestBulkDeterministic: one seed, one data set (ids aside).
func TestBulkDeterministic(t *testing.T) {
	ctx := context.Background()
	var got [2][]string
	for i := range got {
		db := dbtest.Open(t, config.DialectSQLite)
		s := models.NewStore(db)
		fixed := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return fixed }
		if _, err := seed.Bulk(ctx, s, seed.Options{Users: 40, Posts: 90, Seed: 99}); err != nil {
			t.Fatal(err)
		}
		if err := db.NewRaw(`SELECT p.title || '|' || u.username || '|' || p.status || '|' || p.report_count FROM posts p
			JOIN users u ON u.id = p.author_id ORDER BY p.id`).Scan(ctx, &got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(got[0]) != 90 || !slices.Equal(got[0], got[1]) {
		t.Errorf("two seeds with the same number differ:\n%v\n%v", got[0][:5], got[1][:5])
	}
}

func TestBulkNeedsAuthors(t *testing.T) {
	db := dbtest.Open(t, config.DialectSQLite)
	if _, err := seed.Bulk(context.Background(), models.NewStore(db), seed.Options{Posts: 10}); err == nil {
		t.Fatal("posts without any user: no error")
	}
}

// TestBulkPostgresNotSuperuser seeds as an ordinary role, which keeps the
// foreign-key checks on (a superuser's seeding sessions skip them).
func TestBulkPostgresNotSuperuser(t *testing.T) {
	ctx := context.Background()
	owner, u := dbtest.OpenURL(t, config.DialectPostgres)
	role := fmt.Sprintf("plaza_seed_%d", time.Now().UnixNano())
	for _, q := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT ALL ON ALL TABLES IN SCHEMA public TO " + role,
		"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO " + role,
	} {
		if _, err := owner.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		owner.ExecContext(ctx, "DROP OWNED BY "+role) //nolint:errcheck // best effort
		owner.ExecContext(ctx, "DROP ROLE "+role)     //nolint:errcheck // best effort
	})
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	parsed.User = url.User(role)
	cfg, err := config.ParseDatabaseURL(parsed.String())
	if err != nil {
		t.Fatal(err)
	}
	db, err := models.Open(ctx, cfg, models.OpenOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var super string
	if err := db.QueryRowContext(ctx, "SHOW is_superuser").Scan(&super); err != nil || super != "off" {
		t.Fatalf("is_superuser %q, %v", super, err)
	}
	res, err := seed.Bulk(ctx, models.NewStore(db), seed.Options{Users: 200, Posts: 400, Events: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, db, "SELECT count(*) FROM posts"); n != res.Posts || n != 400 {
		t.Errorf("%d posts, result %+v", n, res)
	}
	checkInvariants(t, db)
}
