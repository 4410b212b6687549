package models

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// AnalyticsWindow is the span an analytics answer covers, [Start, End),
// and whether its series is by hour (else by UTC day).
type AnalyticsWindow struct {
	Start, End time.Time
	Hourly     bool
}

// previous is the equal span just before w.
func (w AnalyticsWindow) previous() AnalyticsWindow {
	return AnalyticsWindow{Start: w.Start.Add(-w.End.Sub(w.Start)), End: w.Start, Hourly: w.Hourly}
}

// UserFigures are the users section: every account, those whose latest
// sign-in falls in the window, those made in it and in the window before.
type UserFigures struct {
	Total, Active, New, NewBefore int
}

// ContentFigures are the content section: every post, those made in the
// window, the distinct posts moderated in it, and those flagged now.
type ContentFigures struct {
	TotalPosts, NewPosts, ModeratedPosts, FlaggedPosts int
}

// EngagementFigures come from the daily roll-ups of the UTC days the
// window touches: sessions and their total length, and the average of the
// days' active users; and the posts made and users active in the window.
type EngagementFigures struct {
	Sessions       int
	SessionSeconds int64
	DailyActive    float64
	NewPosts       int
	ActiveUsers    int
}

// ModerationFigures are the reports filed and resolved in the window and
// how long the resolved ones had waited, on average.
type ModerationFigures struct {
	Received, Resolved int
	AvgResolution      time.Duration
}

// UserAnalytics counts the users section of w.
func (s *Store) UserAnalytics(ctx context.Context, w AnalyticsWindow) (*UserFigures, error) {
	var f UserFigures
	var err error
	if f.Total, err = s.userCount(ctx); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		into *int
		col  string
		w    AnalyticsWindow
	}{{&f.Active, "last_login_at", w}, {&f.New, "created_at", w}, {&f.NewBefore, "created_at", w.previous()}} {
		if *c.into, err = s.countIn(ctx, "users", c.col, c.w); err != nil {
			return nil, err
		}
	}
	return &f, nil
}

// countIn counts the rows of table whose col falls in w, through col's index.
func (s *Store) countIn(ctx context.Context, table, col string, w AnalyticsWindow) (int, error) {
	n, err := s.db(ctx).NewSelect().TableExpr(table).
		Where("? >= ? AND ? < ?", bun.Ident(col), w.Start, bun.Ident(col), w.End).Count(ctx)
	return int(n), err
}

// ContentAnalytics counts the content section of w.
func (s *Store) ContentAnalytics(ctx context.Context, w AnalyticsWindow) (*ContentFigures, error) {
	db := s.db(ctx)
	var f ContentFigures
	err := db.NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'posts'").Scan(ctx, &f.TotalPosts)
	if err != nil {
		return nil, fmt.Errorf("the posts counter: %w", err)
	}
	if f.NewPosts, err = s.countIn(ctx, "posts", "created_at", w); err != nil {
		return nil, err
	}
	err = db.NewSelect().Model((*ModerationAction)(nil)).ColumnExpr("count(DISTINCT post_id)").
		Where("created_at >= ? AND created_at < ?", w.Start, w.End).Scan(ctx, &f.ModeratedPosts)
	if err != nil {
		return nil, err
	}
	flagged, err := db.NewSelect().Model((*Post)(nil)).Where("status = ?", PostFlagged).Count(ctx)
	f.FlaggedPosts = int(flagged)
	return &f, err
}

// EngagementAnalytics reads the engagement section of w from the daily
// roll-ups of the days w touches, so its cost does not grow with events.
func (s *Store) EngagementAnalytics(ctx context.Context, w AnalyticsWindow) (*EngagementFigures, error) {
	db := s.db(ctx)
	var f EngagementFigures
	var row struct {
		Sessions, Seconds sql.NullInt64
		Active            sql.NullFloat64
	}
	first, last := dayOf(w.Start), dayOf(w.End.Add(-time.Nanosecond))
	err := db.NewSelect().Model((*AnalyticsDailyStats)(nil)).
		ColumnExpr("sum(sessions) AS sessions, sum(total_session_seconds) AS seconds, sum(active_users) AS active").
		Where("day >= ? AND day <= ?", first, last).Scan(ctx, &row)
	if err != nil {
		return nil, fmt.Errorf("daily stats: %w", err)
	}
	days := float64(last.Sub(first)/(24*time.Hour) + 1) // a day without events has no row and counts as none active
	f.Sessions, f.SessionSeconds, f.DailyActive = int(row.Sessions.Int64), row.Seconds.Int64, row.Active.Float64/days
	if f.NewPosts, err = s.countIn(ctx, "posts", "created_at", w); err != nil {
		return nil, err
	}
	f.ActiveUsers, err = s.countIn(ctx, "users", "last_login_at", w)
	return &f, err
}

// ModerationAnalytics counts the moderation section of w.
func (s *Store) ModerationAnalytics(ctx context.Context, w AnalyticsWindow) (*ModerationFigures, error) {
	return s.moderationAnalytics(ctx, w, nil)
}

// moderationAnalytics counts the moderation section of w, its resolutions
// by admin only when given.
func (s *Store) moderationAnalytics(ctx context.Context, w AnalyticsWindow, admin *int64) (*ModerationFigures, error) {
	db := s.db(ctx)
	var f ModerationFigures
	var err error
	if f.Received, err = s.countIn(ctx, "post_reports", "created_at", w); err != nil {
		return nil, err
	}
	wait := "EXTRACT(EPOCH FROM resolved_at - created_at)"
	if Dialect(db) != "postgres" {
		wait = "(julianday(resolved_at) - julianday(created_at)) * 86400.0"
	}
	var row struct {
		N    int
		Wait sql.NullFloat64
	}
	resolved := db.NewSelect().Model((*PostReport)(nil)).ColumnExpr("count(*) AS n").ColumnExpr("avg("+wait+") AS wait").
		Where("resolved_at >= ? AND resolved_at < ?", w.Start, w.End)
	if admin != nil {
		resolved = resolved.Where("resolved_by = ?", *admin)
	}
	err = resolved.Scan(ctx, &row)
	if err != nil {
		return nil, fmt.Errorf("resolved reports: %w", err)
	}
	f.Resolved, f.AvgResolution = row.N, time.Duration(row.Wait.Float64*float64(time.Second)).Round(time.Second)
	return &f, nil
}

// SeriesPoint is one bucket of an analytics series: an hour or a UTC day.
type SeriesPoint struct {
	At                                            time.Time
	NewUsers, NewPosts, Events, ModerationActions int
}

// SeriesWants says which counts a series carries.
type SeriesWants struct {
	Users, Posts, Events, Moderation bool
}

// AnalyticsSeries counts, per bucket of w (every bucket, empty ones too),
// the users and posts made, the events and the moderation actions, as
// wants asks. Users, posts and actions are counted within w; daily events
// come from the roll-ups and cover whole days, hourly ones from the events
// of the day or two an hourly window spans.
func (s *Store) AnalyticsSeries(ctx context.Context, w AnalyticsWindow, wants SeriesWants) ([]SeriesPoint, error) {
	points, at := seriesBuckets(w)
	sources := []struct {
		want  bool
		table string
		col   string
		sum   string
		into  func(p *SeriesPoint) *int
	}{
		{wants.Users, "users", "created_at", "count(*)", func(p *SeriesPoint) *int { return &p.NewUsers }},
		{wants.Posts, "posts", "created_at", "count(*)", func(p *SeriesPoint) *int { return &p.NewPosts }},
		{wants.Moderation, "moderation_actions", "created_at", "count(*)", func(p *SeriesPoint) *int { return &p.ModerationActions }},
		{wants.Events && w.Hourly, "analytics_events", "occurred_at", "count(*)", func(p *SeriesPoint) *int { return &p.Events }},
	}
	for _, src := range sources {
		if !src.want {
			continue
		}
		if err := s.countByBucket(ctx, w, src.table, src.col, src.sum, func(key string, n int) {
			if i, ok := at[key]; ok {
				*src.into(&points[i]) += n
			}
		}); err != nil {
			return nil, err
		}
	}
	if wants.Events && !w.Hourly {
		err := s.dailyEvents(ctx, w, func(key string, n int) {
			if i, ok := at[key]; ok {
				points[i].Events += n
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return points, nil
}

// seriesBuckets lists w's buckets and indexes them by their key.
func seriesBuckets(w AnalyticsWindow) ([]SeriesPoint, map[string]int) {
	step, first := 24*time.Hour, dayOf(w.Start)
	if w.Hourly {
		step, first = time.Hour, w.Start.UTC().Truncate(time.Hour)
	}
	var points []SeriesPoint
	at := map[string]int{}
	for t := first; t.Before(w.End); t = t.Add(step) {
		at[bucketKey(t, w.Hourly)] = len(points)
		points = append(points, SeriesPoint{At: t})
	}
	return points, at
}

func bucketKey(t time.Time, hourly bool) string {
	if hourly {
		return t.UTC().Format("2006-01-02 15")
	}
	return t.UTC().Format(time.DateOnly)
}

// bucketExpr is the SQL for col's bucket key, as bucketKey writes it.
func bucketExpr(db bun.IDB, col string, hourly bool) string {
	if Dialect(db) == "postgres" {
		format := "YYYY-MM-DD"
		if hourly {
			format = "YYYY-MM-DD HH24"
		}
		return fmt.Sprintf("to_char(%s AT TIME ZONE 'UTC', '%s')", col, format)
	}
	if hourly {
		return "substr(" + col + ", 1, 13)"
	}
	return "substr(" + col + ", 1, 10)"
}

func (s *Store) countByBucket(ctx context.Context, w AnalyticsWindow, table, col, sum string, add func(key string, n int)) error {
	db := s.db(ctx)
	var rows []struct {
		K string
		N int
	}
	err := db.NewSelect().TableExpr(table).ColumnExpr(bucketExpr(db, col, w.Hourly)+" AS k").ColumnExpr(sum+" AS n").
		Where("? >= ? AND ? < ?", bun.Ident(col), w.Start, bun.Ident(col), w.End).GroupExpr("1").Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("%s by bucket: %w", table, err)
	}
	for _, r := range rows {
		add(r.K, r.N)
	}
	return nil
}

// dailyEvents adds the roll-ups' events of each day w touches.
func (s *Store) dailyEvents(ctx context.Context, w AnalyticsWindow, add func(key string, n int)) error {
	db := s.db(ctx)
	key := "to_char(day, 'YYYY-MM-DD')"
	if Dialect(db) != "postgres" {
		key = "substr(day, 1, 10)"
	}
	var rows []struct {
		K string
		N int
	}
	err := db.NewSelect().Model((*AnalyticsDailyEvents)(nil)).ColumnExpr(key+" AS k").ColumnExpr("sum(events) AS n").
		Where("day >= ? AND day <= ?", dayOf(w.Start), dayOf(w.End.Add(-time.Nanosecond))).GroupExpr("1").Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("daily events: %w", err)
	}
	for _, r := range rows {
		add(r.K, r.N)
	}
	return nil
}
