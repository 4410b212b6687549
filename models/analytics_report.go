package models

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// AnalyticsWindow is the span an analytics answer covers, [Start, End),
// and whether its series is by hour (else by UTC day). ToNow says that End
// is now: nothing exists after it, so today's counter holds just what the
// window would count of today.
type AnalyticsWindow struct {
	Start, End time.Time
	Hourly     bool
	ToNow      bool
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
func (s Analytics) UserAnalytics(ctx context.Context, w AnalyticsWindow) (*UserFigures, error) {
	ctx = s.mayLag(ctx)
	var f UserFigures
	var err error
	if f.Total, err = s.userCount(ctx); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		into *int
		m    dailyMetric
		w    AnalyticsWindow
	}{{&f.Active, lastLogins, w}, {&f.New, usersMade, w}, {&f.NewBefore, usersMade, w.previous()}} {
		if *c.into, err = s.countMetric(ctx, c.m, c.w); err != nil {
			return nil, err
		}
	}
	return &f, nil
}

// dailyMetric is a count that triggers keep per UTC day in daily_counts,
// of the rows of table by col.
type dailyMetric struct{ name, table, col string }

var (
	usersMade   = dailyMetric{"users_created", "users", "created_at"}
	lastLogins  = dailyMetric{"users_last_login", "users", "last_login_at"}
	postsMade   = dailyMetric{"posts_created", "posts", "created_at"}
	reportsMade = dailyMetric{"reports_created", "post_reports", "created_at"}
	actionsDone = dailyMetric{"moderation_actions", "moderation_actions", "created_at"}
)

// countMetric counts m in w: the whole days from the daily counters, the
// whole hours of the days' parts at w's edges from the hourly counters,
// and what is left at the edges (parts of hours) from the rows.
func (s *Store) countMetric(ctx context.Context, m dailyMetric, w AnalyticsWindow) (int, error) {
	from, to, edges := s.wholeDays(w)
	n := 0
	if from.Before(to) {
		err := s.db(ctx).NewSelect().Table("daily_counts").ColumnExpr("COALESCE(sum(n), 0)").Where("metric = ?", m.name).
			Where("day >= ? AND day < ?", from.Format(time.DateOnly), to.Format(time.DateOnly)).Scan(ctx, &n)
		if err != nil {
			return 0, fmt.Errorf("daily counts of %s: %w", m.name, err)
		}
	}
	for _, e := range edges {
		k, err := s.countHours(ctx, m, e)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// countHours counts m in w: the whole hours from the hourly counters, the
// parts of hours at w's edges from the rows.
func (s *Store) countHours(ctx context.Context, m dailyMetric, w AnalyticsWindow) (int, error) {
	from, to, edges := wholeSpans(w, hourOf, time.Hour)
	n := 0
	if from.Before(to) {
		var err error
		if n, err = s.hourlySum(ctx, m.name, from, to); err != nil {
			return 0, err
		}
	}
	for _, e := range edges {
		k, err := s.countIn(ctx, m.table, m.col, e)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// hourlySum sums the hourly counters of metric over the hours from from
// on, before to unless to is zero.
func (s *Store) hourlySum(ctx context.Context, metric string, from, to time.Time) (int, error) {
	db := s.db(ctx)
	var n int
	q := db.NewSelect().Table("hourly_counts").ColumnExpr("COALESCE(sum(n), 0)").Where("metric = ?", metric).
		Where("hour >= ?", hourArg(db, from))
	if !to.IsZero() {
		q = q.Where("hour < ?", hourArg(db, to))
	}
	if err := q.Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("hourly counts of %s: %w", metric, err)
	}
	return n, nil
}

// hourArg is t's hour as hourly_counts holds it: a time on PostgreSQL,
// bucketKey's text on SQLite.
func hourArg(db bun.IDB, t time.Time) any {
	if Dialect(db) == "postgres" {
		return t.UTC()
	}
	return bucketKey(t, true)
}

// hourOf is the UTC hour holding t.
func hourOf(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// countIn counts the rows of table whose col falls in w, through col's index.
func (s *Store) countIn(ctx context.Context, table, col string, w AnalyticsWindow) (int, error) {
	n, err := s.db(ctx).NewSelect().TableExpr(table).
		Where("? >= ? AND ? < ?", bun.Ident(col), w.Start, bun.Ident(col), w.End).Count(ctx)
	return int(n), err
}

// wholeDays splits w into the UTC days it holds whole, [from, to), and
// the parts of days before and after them. Today counts as whole when w
// runs to now (ToNow).
func (s *Store) wholeDays(w AnalyticsWindow) (from, to time.Time, edges []AnalyticsWindow) {
	return wholeSpans(w, dayOf, 24*time.Hour)
}

// wholeSpans splits w into the spans (UTC days or hours, as floor finds
// their start and step is their length) it holds whole, [from, to), and the
// parts before and after them. The span holding now counts as whole when
// w runs to now (ToNow): nothing exists after now.
func wholeSpans(w AnalyticsWindow, floor func(time.Time) time.Time, step time.Duration) (from, to time.Time, edges []AnalyticsWindow) {
	from, to = floor(w.Start), floor(w.End)
	if from.Before(w.Start) {
		from = from.Add(step)
	}
	if to.Before(w.End) && w.ToNow {
		to = to.Add(step)
	}
	if !from.Before(to) {
		return from, from, []AnalyticsWindow{w}
	}
	if w.Start.Before(from) {
		edges = append(edges, AnalyticsWindow{Start: w.Start, End: from})
	}
	if to.Before(w.End) {
		edges = append(edges, AnalyticsWindow{Start: to, End: w.End})
	}
	return from, to, edges
}

// ContentAnalytics counts the content section of w.
func (s Analytics) ContentAnalytics(ctx context.Context, w AnalyticsWindow) (*ContentFigures, error) {
	ctx = s.mayLag(ctx)
	db := s.db(ctx)
	var f ContentFigures
	err := db.NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'posts'").Scan(ctx, &f.TotalPosts)
	if err != nil {
		return nil, fmt.Errorf("the posts counter: %w", err)
	}
	if f.NewPosts, err = s.countMetric(ctx, postsMade, w); err != nil {
		return nil, err
	}
	err = db.NewSelect().Model((*ModerationAction)(nil)).ColumnExpr("count(DISTINCT post_id)").
		Where("created_at >= ? AND created_at < ?", w.Start, w.End).Scan(ctx, &f.ModeratedPosts)
	if err != nil {
		return nil, err
	}
	err = db.NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'posts_flagged'").Scan(ctx, &f.FlaggedPosts)
	return &f, err
}

// EngagementAnalytics reads the engagement section of w from the daily
// roll-ups of the days w touches, so its cost does not grow with events.
func (s Analytics) EngagementAnalytics(ctx context.Context, w AnalyticsWindow) (*EngagementFigures, error) {
	ctx = s.mayLag(ctx)
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
	if f.NewPosts, err = s.countMetric(ctx, postsMade, w); err != nil {
		return nil, err
	}
	f.ActiveUsers, err = s.countMetric(ctx, lastLogins, w)
	return &f, err
}

// ModerationAnalytics counts the moderation section of w.
func (s Analytics) ModerationAnalytics(ctx context.Context, w AnalyticsWindow) (*ModerationFigures, error) {
	ctx = s.mayLag(ctx)
	return s.moderationAnalytics(ctx, w, nil)
}

// moderationAnalytics counts the moderation section of w, its resolutions
// by admin only when given (from the rows; else from the daily counters).
func (s *Store) moderationAnalytics(ctx context.Context, w AnalyticsWindow, admin *int64) (*ModerationFigures, error) {
	var f ModerationFigures
	var err error
	if f.Received, err = s.countMetric(ctx, reportsMade, w); err != nil {
		return nil, err
	}
	var n int
	var seconds float64
	if admin == nil {
		n, seconds, err = s.resolvedCounted(ctx, w)
	} else {
		n, seconds, err = s.resolvedRows(ctx, w, admin)
	}
	if err != nil {
		return nil, fmt.Errorf("resolved reports: %w", err)
	}
	f.Resolved = n
	if n > 0 {
		f.AvgResolution = time.Duration(seconds / float64(n) * float64(time.Second)).Round(time.Second)
	}
	return &f, nil
}

// resolvedCounted counts the reports resolved in w and sums their waits
// in seconds: whole days from the daily counters, edges from the rows.
func (s *Store) resolvedCounted(ctx context.Context, w AnalyticsWindow) (int, float64, error) {
	from, to, edges := s.wholeDays(w)
	n, seconds := 0, 0.0
	if from.Before(to) {
		var sums []struct {
			Metric string
			N      int64
		}
		err := s.db(ctx).NewSelect().Table("daily_counts").ColumnExpr("metric, sum(n) AS n").
			Where("metric IN ('reports_resolved', 'reports_wait_seconds')").
			Where("day >= ? AND day < ?", from.Format(time.DateOnly), to.Format(time.DateOnly)).Group("metric").Scan(ctx, &sums)
		if err != nil {
			return 0, 0, err
		}
		for _, r := range sums {
			if r.Metric == "reports_resolved" {
				n += int(r.N)
			} else {
				seconds += float64(r.N)
			}
		}
	}
	for _, e := range edges {
		k, sec, err := s.resolvedRows(ctx, e, nil)
		if err != nil {
			return 0, 0, err
		}
		n, seconds = n+k, seconds+sec
	}
	return n, seconds, nil
}

// resolvedRows counts the reports resolved in w (by admin, when given) and
// sums their waits in seconds, from the rows.
func (s *Store) resolvedRows(ctx context.Context, w AnalyticsWindow, admin *int64) (int, float64, error) {
	db := s.db(ctx)
	wait := "EXTRACT(EPOCH FROM resolved_at - reported_at)"
	if Dialect(db) != "postgres" {
		wait = "(julianday(resolved_at) - julianday(reported_at)) * 86400.0"
	}
	var row struct {
		N    int
		Wait sql.NullFloat64
	}
	// settled_reports, not post_reports: a deleted post's reports, gone
	// from post_reports, were resolved all the same.
	q := db.NewSelect().TableExpr("settled_reports").ColumnExpr("count(*) AS n").ColumnExpr("sum("+wait+") AS wait").
		Where("resolved_at >= ? AND resolved_at < ?", w.Start, w.End)
	if admin != nil {
		q = q.Where("resolved_by = ?", *admin)
	}
	err := q.Scan(ctx, &row)
	return row.N, row.Wait.Float64, err
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
// wants asks. Users, posts and actions are counted within w from the
// daily and hourly counters; events cover whole days or hours, from the
// daily roll-ups or the hourly counters of stored events.
func (s Analytics) AnalyticsSeries(ctx context.Context, w AnalyticsWindow, wants SeriesWants) ([]SeriesPoint, error) {
	ctx = s.mayLag(ctx)
	points, at := seriesBuckets(w)
	add := func(into func(p *SeriesPoint) *int) func(key string, n int) {
		return func(key string, n int) {
			if i, ok := at[key]; ok {
				*into(&points[i]) += n
			}
		}
	}
	for _, src := range []struct {
		want bool
		m    dailyMetric
		into func(p *SeriesPoint) *int
	}{
		{wants.Users, usersMade, func(p *SeriesPoint) *int { return &p.NewUsers }},
		{wants.Posts, postsMade, func(p *SeriesPoint) *int { return &p.NewPosts }},
		{wants.Moderation, actionsDone, func(p *SeriesPoint) *int { return &p.ModerationActions }},
	} {
		if src.want {
			if err := s.metricByBucket(ctx, src.m, w, add(src.into)); err != nil {
				return nil, err
			}
		}
	}
	if !wants.Events {
		return points, nil
	}
	events := add(func(p *SeriesPoint) *int { return &p.Events })
	if w.Hourly {
		return points, s.hourlyEvents(ctx, w, events)
	}
	return points, s.dailyEvents(ctx, w, events)
}

// hourlyEvents adds the events of each hour w touches, from the hourly
// counters.
func (s *Store) hourlyEvents(ctx context.Context, w AnalyticsWindow, add func(key string, n int)) error {
	to := hourOf(w.End)
	if to.Before(w.End) {
		to = to.Add(time.Hour)
	}
	return s.hourlyByKey(ctx, eventsStored.name, hourOf(w.Start), to, true, add)
}

// hourlyByKey adds the hourly counters of metric over the hours from from
// on and before to (both whole hours), each under its bucket key (the hour's, or its day's).
func (s *Store) hourlyByKey(ctx context.Context, metric string, from, to time.Time, hourly bool, add func(key string, n int)) error {
	db := s.db(ctx)
	var rows []struct {
		K string
		N int
	}
	err := db.NewSelect().Table("hourly_counts").ColumnExpr(bucketExpr(db, "hour", true)+" AS k").ColumnExpr("n").
		Where("metric = ?", metric).Where("hour >= ? AND hour < ?", hourArg(db, from), hourArg(db, to)).Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("hourly counts of %s: %w", metric, err)
	}
	for _, r := range rows {
		if !hourly && len(r.K) >= len(time.DateOnly) {
			r.K = r.K[:len(time.DateOnly)]
		}
		add(r.K, r.N)
	}
	return nil
}

// metricByBucket adds m's count in each of w's buckets: by day from the
// daily counters, the parts of days at w's edges by hour (see
// metricByHours).
func (s *Store) metricByBucket(ctx context.Context, m dailyMetric, w AnalyticsWindow, add func(key string, n int)) error {
	if w.Hourly {
		return s.metricByHours(ctx, m, w, true, add)
	}
	from, to, edges := s.wholeDays(w)
	for _, e := range edges {
		if err := s.metricByHours(ctx, m, e, false, add); err != nil {
			return err
		}
	}
	if !from.Before(to) {
		return nil
	}
	db := s.db(ctx)
	key := "day"
	if Dialect(db) == "postgres" {
		key = "to_char(day, 'YYYY-MM-DD')"
	}
	var rows []struct {
		K string
		N int
	}
	err := db.NewSelect().Table("daily_counts").ColumnExpr(key+" AS k").ColumnExpr("n").Where("metric = ?", m.name).
		Where("day >= ? AND day < ?", from.Format(time.DateOnly), to.Format(time.DateOnly)).Scan(ctx, &rows)
	for _, r := range rows {
		add(r.K, r.N)
	}
	return err
}

// metricByHours adds m's count in w under each bucket key (hours' or
// days'): the whole hours from the hourly counters, the parts of hours at
// w's edges from the rows.
func (s *Store) metricByHours(ctx context.Context, m dailyMetric, w AnalyticsWindow, hourly bool, add func(key string, n int)) error {
	from, to, edges := wholeSpans(w, hourOf, time.Hour)
	for _, e := range edges {
		e.Hourly = hourly
		if err := s.countByBucket(ctx, e, m.table, m.col, add); err != nil {
			return err
		}
	}
	if !from.Before(to) {
		return nil
	}
	return s.hourlyByKey(ctx, m.name, from, to, hourly, add)
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

func (s *Store) countByBucket(ctx context.Context, w AnalyticsWindow, table, col string, add func(key string, n int)) error {
	db := s.db(ctx)
	var rows []struct {
		K string
		N int
	}
	err := db.NewSelect().TableExpr(table).ColumnExpr(bucketExpr(db, col, w.Hourly)+" AS k").ColumnExpr("count(*) AS n").
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

// dailySources are the rows each daily counter counts (the resolved
// reports' are counted with their waits, by recountResolved).
var dailySources = []dailyMetric{usersMade, lastLogins, postsMade, reportsMade, actionsDone, loginsMade}

// RecountDailyCounts recomputes every daily counter from the rows, for
// writers that skip triggers (a bulk load as replica). It holds off other
// writers of the counted tables while it counts.
func (s Analytics) RecountDailyCounts(ctx context.Context) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		pg := Dialect(db) == "postgres"
		if pg {
			if _, err := db.ExecContext(ctx, "LOCK TABLE users, posts, post_reports, settled_reports, moderation_actions, logins IN SHARE MODE"); err != nil {
				return err
			}
		}
		if _, err := db.ExecContext(ctx, "DELETE FROM daily_counts"); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "DELETE FROM hourly_counts WHERE metric <> 'events'"); err != nil {
			return err
		}
		for _, m := range dailySources {
			day := "substr(" + m.col + ", 1, 10)"
			if pg {
				day = "(" + m.col + " AT TIME ZONE 'UTC')::date"
			}
			_, err := db.ExecContext(ctx, fmt.Sprintf("INSERT INTO daily_counts (day, metric, n) SELECT %s, ?, count(*) FROM %s WHERE %s IS NOT NULL GROUP BY 1",
				day, m.table, m.col), m.name)
			if err != nil {
				return fmt.Errorf("recount %s: %w", m.name, err)
			}
			if err := recountHours(ctx, db, m); err != nil {
				return err
			}
		}
		return recountResolved(ctx, db, pg)
	})
}

// recountHours sets m's hourly counters to what its rows hold; the caller
// has deleted them.
func recountHours(ctx context.Context, db bun.IDB, m dailyMetric) error {
	hour := "substr(" + m.col + ", 1, 13)"
	if Dialect(db) == "postgres" {
		hour = "date_trunc('hour', " + m.col + ", 'UTC')"
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf("INSERT INTO hourly_counts (hour, metric, n) SELECT %s, ?, count(*) FROM %s WHERE %s IS NOT NULL GROUP BY 1",
		hour, m.table, m.col), m.name)
	if err != nil {
		return fmt.Errorf("recount %s by hour: %w", m.name, err)
	}
	return nil
}

// eventsStored counts the stored analytics events by the hour they
// occurred (hourly_counts' "events").
var eventsStored = dailyMetric{"events", "analytics_events", "occurred_at"}

// RecountEventCounts sets the hourly counters of analytics events to the
// events there are, for writers that skip triggers (a bulk load as
// replica). It holds off ingestion while it counts.
func (s Analytics) RecountEventCounts(ctx context.Context) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if Dialect(db) == "postgres" {
			if _, err := db.ExecContext(ctx, "LOCK TABLE analytics_events IN SHARE MODE"); err != nil {
				return err
			}
		}
		if _, err := db.ExecContext(ctx, "DELETE FROM hourly_counts WHERE metric = 'events'"); err != nil {
			return err
		}
		return recountHours(ctx, db, eventsStored)
	})
}

func recountResolved(ctx context.Context, db bun.IDB, pg bool) error {
	if err := recountSettled(ctx, db, pg); err != nil {
		return err
	}
	day, wait := "substr(resolved_at, 1, 10)", "CAST(round((julianday(resolved_at) - julianday(reported_at)) * 86400) AS INTEGER)"
	if pg {
		day, wait = "(resolved_at AT TIME ZONE 'UTC')::date", "EXTRACT(EPOCH FROM resolved_at - reported_at)::bigint"
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf(`INSERT INTO daily_counts (day, metric, n)
SELECT %s, 'reports_resolved', count(*) FROM settled_reports GROUP BY 1
UNION ALL SELECT %s, 'reports_wait_seconds', sum(%s) FROM settled_reports GROUP BY 1`, day, day, wait))
	if err != nil {
		return fmt.Errorf("recount resolved reports: %w", err)
	}
	return nil
}

// recountSettled adds to settled_reports the settled reports a writer
// skipping triggers left out, and sets every reporter's tally to what
// settled_reports holds.
func recountSettled(ctx context.Context, db bun.IDB, pg bool) error {
	upheld, tally := "status = 'resolved'", "sum(upheld), sum(1 - upheld)"
	if pg {
		tally = "count(*) FILTER (WHERE upheld), count(*) FILTER (WHERE NOT upheld)"
	}
	for _, q := range []string{
		`INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
SELECT id, post_id, reporter_id, action_id, ` + upheld + `, resolved_by, created_at, COALESCE(resolved_at, created_at)
FROM post_reports WHERE status <> 'open' AND id NOT IN (SELECT report_id FROM settled_reports)`,
		"DELETE FROM reporter_stats",
		`INSERT INTO reporter_stats (user_id, upheld, rejected) SELECT reporter_id, ` + tally + ` FROM settled_reports
WHERE reporter_id IN (SELECT id FROM users) GROUP BY reporter_id`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("recount settled reports: %w", err)
		}
	}
	return nil
}
