package models

import (
	"context"
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
func (s Analytics) EachUserActivity(ctx context.Context, q ActivityQuery, fn func(*UserActivity) error) error {
	ctx = s.mayLag(ctx)
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
// rows. The users, and how many there are, come from the rolled-up days
// (see activity_days.go); each listed user's figures, and the posts and
// sign-ins in all, from the rows and the daily counters, so the cost
// follows the page, not the window's activity. One user's report is read
// from the rows.
func (s Analytics) UserActivityPage(ctx context.Context, q ActivityQuery) ([]UserActivity, ActivityTotals, error) {
	ctx = s.mayLag(ctx)
	if q.UserID != nil {
		return s.oneUserActivity(ctx, q)
	}
	users, events, err := s.activeUsers(ctx, q.Start, q.End)
	if err != nil {
		return nil, ActivityTotals{}, err
	}
	t := ActivityTotals{Users: int(users.GetCardinality()), Events: events}
	w := AnalyticsWindow{Start: q.Start, End: q.End, ToNow: !q.End.Before(s.now())}
	if t.Posts, err = s.countMetric(ctx, postsMade, w); err != nil {
		return nil, t, err
	}
	if t.Logins, err = s.countMetric(ctx, loginsMade, w); err != nil {
		return nil, t, err
	}
	page, err := s.activityOf(ctx, usersPage(users, q.Offset, q.Limit), q.Start, q.End)
	return page, t, err
}

// oneUserActivity is the report of q's one user, from the rows.
func (s *Store) oneUserActivity(ctx context.Context, q ActivityQuery) ([]UserActivity, ActivityTotals, error) {
	page := []UserActivity{}
	err := s.Analytics.EachUserActivity(ctx, q, func(r *UserActivity) error {
		page = append(page, *r)
		return nil
	})
	t := ActivityTotals{Users: len(page)}
	for _, r := range page {
		t.Posts, t.Logins, t.Events = t.Posts+r.Posts, t.Logins+r.Logins, t.Events+r.Events
	}
	return page, t, err
}

// activityOf reads what each of users did in [start, end), in the order
// given; users since deleted are left out.
func (s *Store) activityOf(ctx context.Context, users []int64, start, end time.Time) ([]UserActivity, error) {
	out := []UserActivity{}
	if len(users) == 0 {
		return out, nil
	}
	db := s.db(ctx)
	var names []struct {
		ID       int64
		Username string
	}
	if err := db.NewSelect().TableExpr("users").Column("id", "username").Where("id IN (?)", bun.In(users)).Scan(ctx, &names); err != nil {
		return nil, err
	}
	at := make(map[int64]*UserActivity, len(names))
	rows := make([]UserActivity, len(names))
	for i, n := range names {
		rows[i] = UserActivity{UserID: n.ID, Username: n.Username}
		at[n.ID] = &rows[i]
	}
	lasts := make(map[int64][]anyTime, len(names))
	for _, src := range []struct {
		table, who, when string
		into             func(*UserActivity) *int
	}{
		{"posts", "author_id", "created_at", func(r *UserActivity) *int { return &r.Posts }},
		{"logins", "user_id", "created_at", func(r *UserActivity) *int { return &r.Logins }},
		{"analytics_events", "user_id", "occurred_at", func(r *UserActivity) *int { return &r.Events }},
	} {
		err := s.countEach(ctx, src.table, src.who, src.when, users, start, end, func(id int64, n int, last anyTime) {
			if r := at[id]; r != nil {
				*src.into(r) = n
				lasts[id] = append(lasts[id], last)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	for _, id := range users {
		if r := at[id]; r != nil {
			r.LastActiveAt = latest(lasts[id])
			out = append(out, *r)
		}
	}
	return out, nil
}

// countEach counts, for each of users, their rows of table in [start,
// end) and the latest time among them, through the (who, when) index.
func (s *Store) countEach(ctx context.Context, table, who, when string, users []int64, start, end time.Time, fn func(int64, int, anyTime)) error {
	rows, err := s.db(ctx).NewSelect().TableExpr(table).ColumnExpr("?, count(*), max(?)", bun.Ident(who), bun.Ident(when)).
		Where("? IN (?)", bun.Ident(who), bun.In(users)).Where("? >= ? AND ? < ?", bun.Ident(when), start, bun.Ident(when), end).
		GroupExpr("?", bun.Ident(who)).Rows(ctx)
	if err != nil {
		return fmt.Errorf("%s by user: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		var last anyTime
		if err := rows.Scan(&id, &n, &last); err != nil {
			return err
		}
		fn(id, n, last)
	}
	return rows.Err()
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
func (s Analytics) UserActivities(ctx context.Context, users []int64, start, end time.Time) (map[int64][]Activity, error) {
	ctx = s.mayLag(ctx)
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

// ModerationSummary is the moderation report.
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
// Resolved counts every settled report, upheld (resolved) or not
// (dismissed), deleted posts' included; undos are not decisions and are
// left out of the actions' counts.
func (s Analytics) ModerationReport(ctx context.Context, q ModerationQuery) (*ModerationSummary, error) {
	ctx = s.mayLag(ctx)
	db := s.db(ctx)
	out := &ModerationSummary{ByAction: map[string]int{"approve": 0, "hide": 0, "delete": 0, "flag": 0, "dismiss": 0}}
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
	// An undo corrects a decision rather than being one: the report's
	// figures leave it out (the CSV of actions lists it).
	if err := actions.Where("ma.action <> 'undo'").ColumnExpr("ma.action, count(*) AS n").Group("ma.action").Scan(ctx, &byAction); err != nil {
		return nil, err
	}
	for _, a := range byAction {
		out.ByAction[a.Action] = a.N
	}
	err = s.actionsIn(db, q).Where("ma.action <> 'undo'").ColumnExpr("ma.admin_id, u.username, count(*) AS actions").
		Join("LEFT JOIN users AS u ON u.id = ma.admin_id").GroupExpr("ma.admin_id, u.username").
		OrderExpr("actions DESC, ma.admin_id").Scan(ctx, &out.ByModerator)
	if err != nil {
		return nil, err
	}
	out.TopReported, err = s.topReported(ctx, q.Start, q.End, TopReportedCount)
	return out, err
}

// topReportedBatch is how many posts topReported weighs per statement.
const topReportedBatch = 200

// topReported finds the n posts with the most reports filed in [start,
// end); ties go to the post reported most in all, then the newest. A
// post's reports in any window are at most its reports in all
// (report_count), so it walks the posts by report_count, most first, and
// stops once no post left could displace the n found: a few hundred
// posts, where grouping the window's reports reads every one of them.
func (s *Store) topReported(ctx context.Context, start, end time.Time, n int) ([]ReportedPost, error) {
	top := []ReportedPost{}
	var after *ReportedPost // the last post weighed, with its report_count
	for {
		batch, err := s.postsByReportCount(ctx, after, topReportedBatch)
		if err != nil || len(batch) == 0 {
			return top, err
		}
		inWindow, err := s.reportsIn(ctx, batch, start, end)
		if err != nil {
			return nil, err
		}
		for i := range batch {
			p := &batch[i]
			if len(top) == n && p.Reports <= top[n-1].Reports {
				return top, nil
			}
			if k := inWindow[p.ID]; k > 0 {
				at := slices.IndexFunc(top, func(t ReportedPost) bool { return t.Reports < k })
				if at < 0 {
					at = len(top)
				}
				top = slices.Insert(top, at, ReportedPost{ID: p.ID, Title: p.Title, Reports: k})[:min(len(top)+1, n)]
			}
		}
		after = &batch[len(batch)-1]
	}
}

// postsByReportCount lists up to limit reported posts after after, by
// report_count (in Reports) and id, both descending.
func (s *Store) postsByReportCount(ctx context.Context, after *ReportedPost, limit int) ([]ReportedPost, error) {
	var posts []ReportedPost
	q := s.db(ctx).NewSelect().TableExpr("posts AS p").ColumnExpr("p.id, p.title, p.report_count AS reports").
		Where("p.report_count > 0").OrderExpr("p.report_count DESC, p.id DESC").Limit(int64(limit))
	if after != nil {
		q = q.Where("(p.report_count, p.id) < (?, ?)", after.Reports, after.ID)
	}
	err := q.Scan(ctx, &posts)
	return posts, err
}

// reportsIn counts each of posts' reports filed in [start, end).
func (s *Store) reportsIn(ctx context.Context, posts []ReportedPost, start, end time.Time) (map[int64]int, error) {
	ids := make([]int64, len(posts))
	for i, p := range posts {
		ids[i] = p.ID
	}
	var counts []struct {
		PostID int64
		N      int
	}
	err := s.db(ctx).NewSelect().TableExpr("post_reports").ColumnExpr("post_id, count(*) AS n").Where("post_id IN (?)", bun.In(ids)).
		Where("created_at >= ? AND created_at < ?", start, end).GroupExpr("post_id").Scan(ctx, &counts)
	out := make(map[int64]int, len(counts))
	for _, c := range counts {
		out[c.PostID] = c.N
	}
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
func (s Analytics) EachModerationAction(ctx context.Context, q ModerationQuery, fn func(*ModeratedPostRow) error) error {
	ctx = s.mayLag(ctx)
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
