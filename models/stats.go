package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Stats are the platform's totals at a glance (GET /api/admin/stats).
type Stats struct {
	Users         int
	ActiveUsers   int
	BannedUsers   int
	NewUsersToday int
	PostsByStatus map[string]int
	OpenReports   int
	EventsToday   int
	DatabaseBytes int64
}

// Stats counts users, posts, open reports and today's events (since
// midnight UTC), and measures the database. Every figure is read from
// counters that triggers keep with the rows (row_counts, daily_counts,
// hourly_counts), so its cost does not grow with the rows; only the users
// whose ban has run out but whom the sweep has not yet set active again
// are counted from the rows, through the index of open bans by expiry.
func (s Analytics) Stats(ctx context.Context) (*Stats, error) {
	ctx = s.mayLag(ctx)
	now := s.now()
	today := AnalyticsWindow{Start: dayOf(now), End: now, ToNow: true}
	users, err := s.UserAnalytics(ctx, today)
	if err != nil {
		return nil, err
	}
	c, err := s.rowCounts(ctx, "posts", "posts_flagged", "posts_draft", "posts_hidden", "posts_pending", "users_inactive", "users_banned", "reports_open")
	if err != nil {
		return nil, err
	}
	lapsed, err := s.db(ctx).NewSelect().TableExpr("users AS u").Where(banLapsed, now, now).
		Where("u.id IN (SELECT b.user_id FROM bans AS b WHERE "+banRunOut+")", now).Count(ctx)
	if err != nil {
		return nil, err
	}
	st := &Stats{Users: users.Total, NewUsersToday: users.New, BannedUsers: c["users_banned"] - int(lapsed), OpenReports: c["reports_open"]}
	st.PostsByStatus = map[string]int{PostFlagged: c["posts_flagged"], PostDraft: c["posts_draft"], PostHidden: c["posts_hidden"],
		PostPending: c["posts_pending"], PostPublished: c["posts"] - c["posts_flagged"] - c["posts_draft"] - c["posts_hidden"] - c["posts_pending"]}
	st.ActiveUsers = st.Users - st.BannedUsers - c["users_inactive"]
	if st.EventsToday, err = s.hourlySum(ctx, eventsStored.name, today.Start, time.Time{}); err != nil {
		return nil, err
	}
	st.DatabaseBytes, err = s.databaseBytes(ctx)
	return st, err
}

// rowCounts reads the named counters of row_counts; a counter not kept
// reads as 0.
func (s *Store) rowCounts(ctx context.Context, names ...string) (map[string]int, error) {
	var rows []struct {
		TableName string
		RowCount  int
	}
	err := s.db(ctx).NewSelect().Table("row_counts").Column("table_name", "row_count").Where("table_name IN (?)", bun.In(names)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read counters: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.TableName] = r.RowCount
	}
	return out, nil
}

// databaseBytes is the size of the database on disk.
func (s *Store) databaseBytes(ctx context.Context) (int64, error) {
	var n int64
	q := "SELECT pg_database_size(current_database())"
	if s.Dialect() != "postgres" {
		q = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
	}
	err := s.db(ctx).NewRaw(q).Scan(ctx, &n)
	return n, err
}

// OpenReports is the number of reports waiting for a moderator, kept by
// triggers (row_counts).
func (s Analytics) OpenReports(ctx context.Context) (int, error) {
	ctx = s.mayLag(ctx)
	var n int
	err := s.db(ctx).NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'reports_open'").Scan(ctx, &n)
	return n, err
}
