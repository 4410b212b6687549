package models_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestDailyCountsFollowTheRows: after inserts, sign-ins, status changes,
// resolutions (moved, reopened, several settled at once) and deletions
// (cascading ones too), every daily counter and the flagged posts' counter
// equal a count of the rows; resolved reports are counted from
// settled_reports, which keeps those of deleted posts.
func TestDailyCountsFollowTheRows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		base := time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.ExecContext(ctx, q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		var users []models.User
		for i := range 4 {
			at := base.Add(time.Duration(i) * 5 * time.Hour)
			users = append(users, models.User{Username: fmt.Sprint("u", i), Email: fmt.Sprint("u", i, "@example.com"),
				Status: models.UserActive, IsActive: true, CreatedAt: at, UpdatedAt: at, LastLoginAt: &at})
		}
		if _, err := db.NewInsert().Model(&users).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var posts []models.Post
		for i := range 6 {
			at := base.Add(time.Duration(i) * 7 * time.Hour)
			posts = append(posts, models.Post{Title: fmt.Sprint("p", i), AuthorID: users[i%2].ID, Status: models.PostFlagged, CreatedAt: at, UpdatedAt: at})
		}
		if _, err := db.NewInsert().Model(&posts).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for i, p := range posts {
			r := models.PostReport{PostID: p.ID, ReporterID: users[2+i%2].ID, Reason: "spam", Status: "open", CreatedAt: p.CreatedAt.Add(time.Hour)}
			if i%3 == 0 {
				done := r.CreatedAt.Add(26 * time.Hour)
				r.Status, r.ResolvedAt = "resolved", &done
			}
			if _, err := db.NewInsert().Model(&r).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		exec("UPDATE users SET last_login_at = ? WHERE id = ?", base.AddDate(0, 0, 3), users[0].ID)
		exec("UPDATE posts SET status = 'published' WHERE id IN (?, ?)", posts[0].ID, posts[1].ID)
		exec("UPDATE posts SET report_count = report_count + 1")
		exec("UPDATE posts SET status = 'published' WHERE id = ?", posts[2].ID) // its open report keeps it awaiting a decision
		exec("UPDATE post_reports SET status = 'resolved', resolved_at = ? WHERE post_id = ?", base.AddDate(0, 0, 2), posts[1].ID)
		exec("UPDATE post_reports SET resolved_at = ? WHERE post_id = ?", base.AddDate(0, 0, 4), posts[0].ID)
		exec("UPDATE post_reports SET comment = 'seen'") // moves no resolution
		exec("UPDATE post_reports SET status = 'open', resolved_at = NULL WHERE post_id = ?", posts[1].ID)
		exec("UPDATE post_reports SET status = 'resolved', resolved_at = ? WHERE post_id IN (?, ?)", base.AddDate(0, 0, 1), posts[1].ID, posts[4].ID)
		exec("DELETE FROM posts WHERE id = ?", posts[3].ID)
		exec("DELETE FROM users WHERE id = ?", users[1].ID) // with posts 1, 3 and 5 and their reports
		var events []models.AnalyticsEvent
		for i := range 5 {
			at := base.Add(time.Duration(i) * 50 * time.Minute)
			events = append(events, models.AnalyticsEvent{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), EventType: "page_view",
				EventData: map[string]any{}, PagePath: "/", OccurredAt: at, ReceivedAt: at})
		}
		if err := s.Analytics.InsertEvents(ctx, events); err != nil {
			t.Fatal(err)
		}
		exec("DELETE FROM analytics_events WHERE id = ?", events[2].ID)
		checkCounts(t, db)
		exec("UPDATE hourly_counts SET n = n + 5") // the recounts below must set every hour right
		if err := s.Analytics.RecountDailyCounts(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RecountEventCounts(ctx); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, db)
	})
}

func checkCounts(t *testing.T, db *bun.DB) {
	t.Helper()
	day, wait := "substr(%s, 1, 10)", "CAST(round((julianday(resolved_at) - julianday(reported_at)) * 86400) AS INTEGER)"
	if models.Dialect(db) == "postgres" {
		day, wait = "(%s AT TIME ZONE 'UTC')::date", "EXTRACT(EPOCH FROM resolved_at - reported_at)::bigint"
	}
	for metric, src := range map[string][3]string{
		"users_created": {"users", "created_at", "count(*)"}, "users_last_login": {"users", "last_login_at", "count(*)"},
		"posts_created": {"posts", "created_at", "count(*)"}, "reports_created": {"post_reports", "created_at", "count(*)"},
		"moderation_actions": {"moderation_actions", "created_at", "count(*)"}, "reports_resolved": {"settled_reports", "resolved_at", "count(*)"},
		"reports_wait_seconds": {"settled_reports", "resolved_at", "sum(" + wait + ")"},
	} {
		q := fmt.Sprintf(`SELECT count(*) FROM (SELECT %s AS day, %s AS n FROM %s WHERE %s IS NOT NULL GROUP BY 1) AS r
			FULL JOIN (SELECT day, n FROM daily_counts WHERE metric = '%s' AND n <> 0) AS c ON c.day = r.day
			WHERE r.n IS DISTINCT FROM c.n`, fmt.Sprintf(day, src[1]), src[2], src[0], src[1], metric)
		var wrong int
		if err := db.QueryRowContext(context.Background(), q).Scan(&wrong); err != nil || wrong != 0 {
			t.Errorf("%s: %d days differ (%v)", metric, wrong, err)
		}
	}
	hour := "substr(%s, 1, 13)"
	if models.Dialect(db) == "postgres" {
		hour = "date_trunc('hour', %s, 'UTC')"
	}
	for metric, src := range map[string][2]string{
		"users_created": {"users", "created_at"}, "users_last_login": {"users", "last_login_at"}, "posts_created": {"posts", "created_at"},
		"reports_created": {"post_reports", "created_at"}, "moderation_actions": {"moderation_actions", "created_at"},
		"logins": {"logins", "created_at"}, "events": {"analytics_events", "occurred_at"},
	} {
		q := fmt.Sprintf(`SELECT count(*) FROM (SELECT %s AS hour, count(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY 1) AS r
			FULL JOIN (SELECT hour, n FROM hourly_counts WHERE metric = '%s' AND n <> 0) AS c ON c.hour = r.hour
			WHERE r.n IS DISTINCT FROM c.n`, fmt.Sprintf(hour, src[1]), src[0], src[1], metric)
		var wrong int
		if err := db.QueryRowContext(context.Background(), q).Scan(&wrong); err != nil || wrong != 0 {
			t.Errorf("%s by hour: %d hours differ (%v)", metric, wrong, err)
		}
	}
	var flagged, counted int
	db.QueryRowContext(context.Background(), "SELECT count(*) FROM posts WHERE status = 'flagged'").Scan(&flagged)
	db.QueryRowContext(context.Background(), "SELECT row_count FROM row_counts WHERE table_name = 'posts_flagged'").Scan(&counted)
	if flagged != counted || flagged == 0 {
		t.Errorf("flagged posts: counter %d, rows %d", counted, flagged)
	}
	var review, reviewCounted int
	db.QueryRowContext(context.Background(), "SELECT count(*) FROM posts WHERE open_reports > 0 OR status = 'flagged'").Scan(&review)
	db.QueryRowContext(context.Background(), "SELECT row_count FROM row_counts WHERE table_name = 'posts_review'").Scan(&reviewCounted)
	if review != reviewCounted || review == 0 {
		t.Errorf("posts awaiting a decision: counter %d, rows %d", reviewCounted, review)
	}
	var open, openCounted int
	db.QueryRowContext(context.Background(), "SELECT count(*) FROM post_reports WHERE status = 'open'").Scan(&open)
	db.QueryRowContext(context.Background(), "SELECT row_count FROM row_counts WHERE table_name = 'reports_open'").Scan(&openCounted)
	if open != openCounted || open == 0 {
		t.Errorf("open reports: counter %d, rows %d", openCounted, open)
	}
}
