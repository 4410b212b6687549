package models

import (
	"context"

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
// midnight UTC), and measures the database. Users and posts come from the
// analytics' users and content sections (counters, not scans); the
// statuses few rows hold are counted through their indexes, and the rest
// are the difference.
func (s *Store) Stats(ctx context.Context) (*Stats, error) {
	ctx = s.mayLag(ctx)
	db, now := s.db(ctx), s.now()
	today := AnalyticsWindow{Start: dayOf(now), End: now, ToNow: true}
	users, err := s.UserAnalytics(ctx, today)
	if err != nil {
		return nil, err
	}
	content, err := s.ContentAnalytics(ctx, today)
	if err != nil {
		return nil, err
	}
	st := &Stats{Users: users.Total, NewUsersToday: users.New, PostsByStatus: map[string]int{PostFlagged: content.FlaggedPosts}}
	var inactive, drafts, hidden int
	for _, c := range []struct {
		into *int
		q    *bun.SelectQuery
	}{
		{&st.BannedUsers, db.NewSelect().TableExpr("users AS u").Where("u.status = ?", UserBanned).Where("NOT ("+banLapsed+")", now, now)},
		{&inactive, db.NewSelect().TableExpr("users AS u").Where("u.status = ?", UserInactive)},
		{&drafts, db.NewSelect().Model((*Post)(nil)).Where("status = ?", PostDraft)},
		{&hidden, db.NewSelect().Model((*Post)(nil)).Where("status = ?", PostHidden)},
		{&st.OpenReports, db.NewSelect().Model((*PostReport)(nil)).Where("status = ?", ReportOpen)},
		{&st.EventsToday, db.NewSelect().Model((*AnalyticsEvent)(nil)).Where("occurred_at >= ?", today.Start)},
	} {
		n, err := c.q.Count(ctx)
		if err != nil {
			return nil, err
		}
		*c.into = int(n)
	}
	st.PostsByStatus[PostDraft], st.PostsByStatus[PostHidden] = drafts, hidden
	st.PostsByStatus[PostPublished] = content.TotalPosts - drafts - hidden - content.FlaggedPosts
	st.ActiveUsers = st.Users - st.BannedUsers - inactive
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

// OpenReports is the number of reports waiting for a moderator, kept by
// triggers (row_counts).
func (s *Store) OpenReports(ctx context.Context) (int, error) {
	ctx = s.mayLag(ctx)
	var n int
	err := s.db(ctx).NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'reports_open'").Scan(ctx, &n)
	return n, err
}
