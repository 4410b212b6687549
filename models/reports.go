package models

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// ActivityQuery selects the rows of the user-activity report: the users
// active in [Start, End) (one user with UserID), in id order; Limit 0
// means every row.
type ActivityQuery struct {
	Start, End    time.Time
	UserID        *int64
	Limit, Offset int
}

// UserActivity is one user's row of the report: what the user did in the
// window, and when last.
type UserActivity struct {
	UserID       int64
	Username     string
	Posts        int
	Logins       int
	Events       int
	LastActiveAt *time.Time
}

// ActivityTotals sums the report's rows.
type ActivityTotals struct {
	Users, Posts, Logins, Events int
}

// activityRows is the select of the report's rows, unordered: each
// source grouped by user over the window, in one pass each, joined on the
// users active in any.
func activityRows(q ActivityQuery) (string, []any) {
	var args []any
	src := func(table, who, at string) string {
		args = append(args, q.Start, q.End)
		cond := ""
		if q.UserID != nil {
			cond = " AND " + who + " = ?"
			args = append(args, *q.UserID)
		}
		return fmt.Sprintf("SELECT %s AS user_id, count(*) AS n, max(%s) AS last FROM %s WHERE %s >= ? AND %s < ? AND %s IS NOT NULL%s GROUP BY %s",
			who, at, table, at, at, who, cond, who)
	}
	p, l, e := src("posts", "author_id", "created_at"), src("logins", "user_id", "created_at"), src("analytics_events", "user_id", "occurred_at")
	return `WITH p AS (` + p + `), l AS (` + l + `), e AS (` + e + `),
a AS (SELECT user_id FROM p UNION SELECT user_id FROM l UNION SELECT user_id FROM e)
SELECT u.id, u.username, COALESCE(p.n, 0) AS posts, COALESCE(l.n, 0) AS logins, COALESCE(e.n, 0) AS events,
p.last AS p_last, l.last AS l_last, e.last AS e_last
FROM a JOIN users AS u ON u.id = a.user_id LEFT JOIN p ON p.user_id = a.user_id
LEFT JOIN l ON l.user_id = a.user_id LEFT JOIN e ON e.user_id = a.user_id`, args
}

// EachUserActivity calls fn with each row of the report in user id order,
// as the database sends them, so that a report of a million users takes
// no more memory than one row. fn's error stops it.
func (s *Store) EachUserActivity(ctx context.Context, q ActivityQuery, fn func(*UserActivity) error) error {
	query, args := activityRows(q)
	query += " ORDER BY u.id"
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d OFFSET %d", q.Limit, q.Offset)
	}
	rows, err := s.db(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("user activity: %w", err)
	}
	defer rows.Close()
	var row UserActivity
	for rows.Next() {
		var last [3]anyTime
		if err := rows.Scan(&row.UserID, &row.Username, &row.Posts, &row.Logins, &row.Events, &last[0], &last[1], &last[2]); err != nil {
			return err
		}
		row.LastActiveAt = latest(last[:])
		if err := fn(&row); err != nil {
			return err
		}
	}
	return rows.Err()
}

// anyTime scans a time that SQLite hands over as text (an aggregate's
// result has no declared type for the driver to go by).
type anyTime struct {
	t     time.Time
	valid bool
}

// sqliteTimes are the layouts SQLite's text times take.
var sqliteTimes = []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999"}

func (a *anyTime) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		a.valid = false
		return nil
	case time.Time:
		a.t, a.valid = v, true
		return nil
	case []byte:
		return a.Scan(string(v))
	case string:
		for _, layout := range sqliteTimes {
			if t, err := time.Parse(layout, v); err == nil {
				a.t, a.valid = t, true
				return nil
			}
		}
		return fmt.Errorf("unreadable time %q", v)
	}
	return fmt.Errorf("unreadable time of type %T", v)
}

func latest(times []anyTime) *time.Time {
	var out *time.Time
	for _, t := range times {
		if t.valid && (out == nil || t.t.After(*out)) {
			v := t.t.UTC()
			out = &v
		}
	}
	return out
}

// UserActivityPage reads a page of the report, with the totals of all its
// rows, counted by the database.
func (s *Store) UserActivityPage(ctx context.Context, q ActivityQuery) ([]UserActivity, ActivityTotals, error) {
	page := []UserActivity{}
	err := s.EachUserActivity(ctx, q, func(r *UserActivity) error {
		page = append(page, *r)
		return nil
	})
	if err != nil {
		return nil, ActivityTotals{}, err
	}
	query, args := activityRows(q)
	var t ActivityTotals
	var sums [3]sql.NullInt64
	err = s.db(ctx).QueryRowContext(ctx, "SELECT count(*), sum(posts), sum(logins), sum(events) FROM ("+query+") AS r", args...).
		Scan(&t.Users, &sums[0], &sums[1], &sums[2])
	t.Posts, t.Logins, t.Events = int(sums[0].Int64), int(sums[1].Int64), int(sums[2].Int64)
	return page, t, err
}

// Activity is one thing a user did: a post, a sign-in or an event.
type Activity struct {
	UserID  int64
	Type    string // post, login or event
	At      time.Time
	Details string // the post's title, the sign-in's method, the event's type
}

// MaxActivity is how many of a user's latest activities the report lists.
const MaxActivity = 100

// UserActivities lists each of users' latest MaxActivity activities in
// [start, end), newest first.
func (s *Store) UserActivities(ctx context.Context, users []int64, start, end time.Time) (map[int64][]Activity, error) {
	out := map[int64][]Activity{}
	if len(users) == 0 {
		return out, nil
	}
	db := s.db(ctx)
	for _, src := range []struct{ kind, table, who, at, details string }{
		{"post", "posts", "author_id", "created_at", "title"},
		{"login", "logins", "user_id", "created_at", "method"},
		{"event", "analytics_events", "user_id", "occurred_at", "event_type"},
	} {
		var rows []Activity
		err := db.NewSelect().TableExpr(src.table).ColumnExpr("? AS user_id, ? AS type, ? AS at, ? AS details",
			bun.Ident(src.who), src.kind, bun.Ident(src.at), bun.Ident(src.details)).
			Where("? IN (?)", bun.Ident(src.who), bun.In(users)).
			Where("? >= ? AND ? < ?", bun.Ident(src.at), start, bun.Ident(src.at), end).Scan(ctx, &rows)
		if err != nil {
			return nil, fmt.Errorf("%s activity: %w", src.kind, err)
		}
		for _, a := range rows {
			out[a.UserID] = append(out[a.UserID], a)
		}
	}
	for u, list := range out {
		slices.SortFunc(list, func(a, b Activity) int { return b.At.Compare(a.At) })
		out[u] = list[:min(len(list), MaxActivity)]
	}
	return out, nil
}

// ModerationQuery selects the moderation report: the window, and one
// admin's actions only with AdminID.
type ModerationQuery struct {
	Start, End time.Time
	AdminID    *int64
}

// ModerationSummary is the moderation report (DECISIONS.md section 4).
type ModerationSummary struct {
	Received, Resolved, Pending int
	AvgResolution               time.Duration
	ByAction                    map[string]int
	ByModerator                 []ModeratorActions
	TopReported                 []ReportedPost
}

// ModeratorActions counts one admin's actions; AdminID is nil for actions
// of accounts since deleted.
type ModeratorActions struct {
	AdminID  *int64  `bun:"admin_id"`
	Username *string `bun:"username"`
	Actions  int     `bun:"actions"`
}

// ReportedPost is a post with the reports filed on it in the window.
type ReportedPost struct {
	ID      int64  `bun:"id"`
	Title   string `bun:"title"`
	Reports int    `bun:"reports"`
}

// TopReportedCount is how many of the most reported posts the report lists.
const TopReportedCount = 10

// ModerationReport sums the window's reports and moderation actions. The
// admin filter narrows the actions and the resolutions to that admin's.
func (s *Store) ModerationReport(ctx context.Context, q ModerationQuery) (*ModerationSummary, error) {
	db := s.db(ctx)
	out := &ModerationSummary{ByAction: map[string]int{"approve": 0, "hide": 0, "delete": 0, "flag": 0}}
	w := AnalyticsWindow{Start: q.Start, End: q.End}
	figures, err := s.moderationAnalytics(ctx, w, q.AdminID)
	if err != nil {
		return nil, err
	}
	out.Received, out.Resolved, out.AvgResolution = figures.Received, figures.Resolved, figures.AvgResolution
	n, err := db.NewSelect().Model((*PostReport)(nil)).Where("status = ?", ReportOpen).
		Where("created_at >= ? AND created_at < ?", q.Start, q.End).Count(ctx)
	if err != nil {
		return nil, err
	}
	out.Pending = int(n)
	actions := s.actionsIn(db, q)
	var byAction []struct {
		Action string
		N      int
	}
	if err := actions.ColumnExpr("ma.action, count(*) AS n").Group("ma.action").Scan(ctx, &byAction); err != nil {
		return nil, err
	}
	for _, a := range byAction {
		out.ByAction[a.Action] = a.N
	}
	err = s.actionsIn(db, q).ColumnExpr("ma.admin_id, u.username, count(*) AS actions").
		Join("LEFT JOIN users AS u ON u.id = ma.admin_id").GroupExpr("ma.admin_id, u.username").
		OrderExpr("actions DESC, ma.admin_id").Scan(ctx, &out.ByModerator)
	if err != nil {
		return nil, err
	}
	err = db.NewSelect().TableExpr("post_reports AS r").Join("JOIN posts AS p ON p.id = r.post_id").
		ColumnExpr("p.id, p.title, count(*) AS reports").Where("r.created_at >= ? AND r.created_at < ?", q.Start, q.End).
		GroupExpr("p.id, p.title").OrderExpr("reports DESC, p.id").Limit(TopReportedCount).Scan(ctx, &out.TopReported)
	return out, err
}

// actionsIn selects the window's moderation actions ma, of one admin with
// q.AdminID.
func (s *Store) actionsIn(db bun.IDB, q ModerationQuery) *bun.SelectQuery {
	sel := db.NewSelect().Model((*ModerationAction)(nil)).Where("ma.created_at >= ? AND ma.created_at < ?", q.Start, q.End)
	if q.AdminID != nil {
		sel = sel.Where("ma.admin_id = ?", *q.AdminID)
	}
	return sel
}

// ModeratedPostRow is one moderation action as the report's CSV lists it.
type ModeratedPostRow struct {
	ModerationAction `bun:",extend"`
	AdminUsername    *string `bun:",scanonly"`
}

// EachModerationAction calls fn with each of the window's moderation
// actions (of one admin with q.AdminID), oldest first, as the database
// sends them. fn's error stops it.
func (s *Store) EachModerationAction(ctx context.Context, q ModerationQuery, fn func(*ModeratedPostRow) error) error {
	db := s.db(ctx)
	query := s.actionsIn(db, q).ColumnExpr("ma.*, u.username AS admin_username").
		Join("LEFT JOIN users AS u ON u.id = ma.admin_id").OrderExpr("ma.created_at, ma.id")
	rows, err := query.Rows(ctx)
	if err != nil {
		return fmt.Errorf("moderation actions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r ModeratedPostRow
		if err := s.DB.ScanRow(ctx, rows, &r); err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}
