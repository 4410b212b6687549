package models

import (
	"context"
	"time"
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
// midnight UTC), and measures the database.
func (s *Store) Stats(ctx context.Context) (*Stats, error) {
	db, now := s.db(ctx), s.now()
	day := now.Truncate(24 * time.Hour)
	st := &Stats{PostsByStatus: map[string]int{}}
	expr, args := statusNow(now)
	var byStatus []struct {
		Status string
		N      int
	}
	err := db.NewSelect().TableExpr("users AS u").ColumnExpr(expr+" AS status", args...).ColumnExpr("count(*) AS n").
		GroupExpr("1").Scan(ctx, &byStatus)
	if err != nil {
		return nil, err
	}
	for _, r := range byStatus {
		st.Users += r.N
		switch r.Status {
		case UserActive:
			st.ActiveUsers = r.N
		case UserBanned:
			st.BannedUsers = r.N
		}
	}
	var posts []struct {
		Status string
		N      int
	}
	if err := db.NewSelect().Model((*Post)(nil)).Column("status").ColumnExpr("count(*) AS n").Group("status").Scan(ctx, &posts); err != nil {
		return nil, err
	}
	for _, p := range posts {
		st.PostsByStatus[p.Status] = p.N
	}
	counts := []struct {
		into  *int
		table string
		where string
		arg   any
	}{
		{&st.NewUsersToday, "users", "created_at >= ?", day},
		{&st.OpenReports, "post_reports", "status = ?", ReportOpen},
		{&st.EventsToday, "analytics_events", "occurred_at >= ?", day},
	}
	for _, c := range counts {
		n, err := db.NewSelect().Table(c.table).Where(c.where, c.arg).Count(ctx)
		if err != nil {
			return nil, err
		}
		*c.into = int(n)
	}
	st.DatabaseBytes, err = s.databaseBytes(ctx)
	return st, err
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
