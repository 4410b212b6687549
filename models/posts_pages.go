package models

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// walkablePosts is the deepest offset the posts list reaches by walking
// index entries; a walk that long takes a few milliseconds, even one that
// reads the posts a status filter drops. Deeper pages start from the
// counters or from the list's far end.
const walkablePosts = 1_000

// postWalk is how the posts list reads one page: which way it walks the
// order, how many rows it skips, and, for a page found through the hourly
// counts, the hour it starts in.
type postWalk struct {
	desc   bool
	offset int
	limit  int
	// mirrored: the page was read from the far end, so its rows come in
	// the reverse of the order asked for.
	mirrored bool
	// start, when set, is the condition that puts the walk's start at the
	// edge of the bucket of the counts the page begins in (an hour, a day,
	// a run of ids), with its arguments.
	start     string
	startArgs []any
}

// planPostPage decides how to read f's page, given how many posts match
// (total). A shallow page is walked to. A deep page of all posts by
// creation time starts from the hour the hourly counts place it in, one of
// a status's posts from the day its counts place it in, and on PostgreSQL
// one of all posts by last update, by report count or by title from the
// hour, the run of ids or the title mark their counts place it in; any
// other deep page is read from whichever end is nearer, so no walk is
// longer than half the list.
func (s *Store) planPostPage(ctx context.Context, f PostListFilter, total int) (postWalk, error) {
	p := walkTo(f)
	if f.Offset <= walkablePosts {
		return p, nil
	}
	c := postCounter(f)
	status := countedByDay[c] // "" for all posts
	counted := (c == "posts" || status != "") && s.Dialect() == "postgres"
	switch {
	case f.Sort == "created_at" && c == "posts":
		return s.pageByHour(ctx, p)
	case f.Sort == "created_at" && status != "":
		return s.pageByDay(ctx, p, status)
	case f.Sort == "updated_at" && counted:
		return s.pageByUpdateHour(ctx, p, status)
	case f.Sort == "report_count" && counted:
		return s.pageByReportRun(ctx, p, status)
	case f.Sort == "title" && counted:
		return s.pageByTitleMark(ctx, p, status)
	}
	if rest := total - f.Offset; rest < f.Offset {
		p.desc, p.mirrored = !f.Desc, true
		p.limit = max(min(f.Limit, rest), 0)
		p.offset = max(rest-f.Limit, 0)
	}
	return p, nil
}

// countedByDay maps the postCounter of a status filter to the status
// whose posts post_status_days counts by day.
var countedByDay = map[string]string{
	"posts_published": PostPublished, "posts_draft": PostDraft, "posts_hidden": PostHidden, "posts_flagged": PostFlagged,
	"posts_pending": PostPending,
}

// pageByDay finds the UTC day of creation p's first post of status falls
// in, from the counts of posts created per day and status
// (post_status_days), and walks from that day's edge only.
func (s *Store) pageByDay(ctx context.Context, p postWalk, status string) (postWalk, error) {
	db := s.db(ctx)
	day, before, ok, err := firstBucket(ctx, db, statusDays(db, status), p.desc, p.offset, nil)
	if err != nil || !ok {
		p.limit = 0
		return p, err
	}
	at, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return p, fmt.Errorf("day count %q: %w", day, err)
	}
	return p.startAt("p.created_at", timeParam(db, at), timeParam(db, at.AddDate(0, 0, 1)), before), nil
}

// startAt starts p's walk at the edge of the bucket of col's values
// [from, to) its page begins in, before of whose posts come earlier in
// p's order.
func (p postWalk) startAt(col string, from, to any, before int) postWalk {
	if p.desc {
		p.start, p.startArgs = col+" < ?", []any{to}
	} else {
		p.start, p.startArgs = col+" >= ?", []any{from}
	}
	p.offset -= before
	return p
}

// pageByHour finds the UTC hour of creation p's first post falls in, and
// how many posts come before that hour in p's order, from the day counts
// and then that day's hour counts (both kept exact by triggers on posts):
// two short reads in place of a walk of p.offset index entries.
func (s *Store) pageByHour(ctx context.Context, p postWalk) (postWalk, error) {
	db := s.db(ctx)
	day, before, ok, err := firstBucket(ctx, db, dayCounts(db), p.desc, p.offset, nil)
	if err != nil || !ok {
		// Past the last post: an empty page however it is read.
		p.limit = 0
		return p, err
	}
	start, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return p, fmt.Errorf("day count %q: %w", day, err)
	}
	hours := [2]any{start, start.AddDate(0, 0, 1)}
	if Dialect(db) != "postgres" {
		hours = [2]any{day, start.AddDate(0, 0, 1).Format(time.DateOnly)}
	}
	hour, inDay, ok, err := firstBucket(ctx, db, hourCounts(db), p.desc, p.offset-before, &hours)
	if err != nil {
		return p, err
	}
	if !ok {
		return p, fmt.Errorf("hour counts of %s hold fewer posts than its day count", day)
	}
	at, err := time.Parse("2006-01-02 15", hour)
	if err != nil {
		return p, fmt.Errorf("hour count %q: %w", hour, err)
	}
	return p.startAt("p.created_at", timeParam(db, at), timeParam(db, at.Add(time.Hour)), before+inDay), nil
}

// pageByUpdateHour finds the UTC hour of last update p's first post falls
// in, and how many posts come before it in p's order, from the counts of
// posts per hour of last update (post_updated_hours, or per status
// post_status_updated_hours; PostgreSQL only).
func (s *Store) pageByUpdateHour(ctx context.Context, p postWalk, status string) (postWalk, error) {
	b := bucketCounts{table: "post_updated_hours", key: "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')", cols: []string{"hour"}}
	b.ofStatus("post_status_updated_hours", status)
	hour, before, ok, err := firstBucket(ctx, s.db(ctx), b, p.desc, p.offset, nil)
	if err != nil || !ok {
		p.limit = 0
		return p, err
	}
	at, err := time.Parse("2006-01-02 15", hour)
	if err != nil {
		return p, fmt.Errorf("update hour count %q: %w", hour, err)
	}
	return p.startAt("p.updated_at", at, at.Add(time.Hour), before), nil
}

// pageByReportRun finds the report count and run of 1,024 ids p's first
// post falls in, and how many posts come before them in p's order (report
// count, then id), from their counts (post_report_runs, or per status
// post_status_report_runs; PostgreSQL only).
func (s *Store) pageByReportRun(ctx context.Context, p postWalk, status string) (postWalk, error) {
	b := bucketCounts{table: "post_report_runs", key: "report_count || ' ' || run", cols: []string{"report_count", "run"}}
	b.ofStatus("post_status_report_runs", status)
	key, before, ok, err := firstBucket(ctx, s.db(ctx), b, p.desc, p.offset, nil)
	if err != nil || !ok {
		p.limit = 0
		return p, err
	}
	var count, run int64
	if _, err := fmt.Sscan(key, &count, &run); err != nil {
		return p, fmt.Errorf("report run count %q: %w", key, err)
	}
	if p.desc {
		p.start, p.startArgs = "(p.report_count, p.id) < (?, ?)", []any{count, (run + 1) * postRun}
	} else {
		p.start, p.startArgs = "(p.report_count, p.id) >= (?, ?)", []any{count, run * postRun}
	}
	p.offset -= before
	return p, nil
}

// pageByTitleMark finds the bucket of titles p's first post falls in, and
// how many posts come before it in p's order, from the counts of the
// posts from each title mark to the next (post_title_marks, or per status
// post_status_title_marks; PostgreSQL only). From A to Z the walk starts
// at the bucket's mark; from Z to A, at the next mark (or at the end,
// after the last mark).
func (s *Store) pageByTitleMark(ctx context.Context, p postWalk, status string) (postWalk, error) {
	dir := "ASC"
	if p.desc {
		dir = "DESC"
	}
	db := s.db(ctx)
	marks := titleMarks(db)
	if status != "" {
		marks = db.NewSelect().TableExpr("(?) AS a", marks).ColumnExpr("a.title, a.id, c.n, a.next_title, a.next_id").
			Join("JOIN post_status_title_marks AS c ON c.title = a.title AND c.id = a.id AND c.status = ?", status)
	}
	running := db.NewSelect().TableExpr("(?) AS m", marks).Column("title", "id", "n", "next_title", "next_id").
		ColumnExpr("sum(n) OVER (ORDER BY title " + dir + ", id " + dir + ") AS upto").Where("n <> 0")
	var m struct {
		titleMark
		Upto int64
	}
	err := db.NewSelect().TableExpr("(?) AS b", running).Column("title", "id", "n", "upto", "next_title", "next_id").
		Where("upto > ?", p.offset).OrderExpr("upto").Limit(1).Scan(ctx, &m)
	if err == sql.ErrNoRows {
		p.limit = 0
		return p, nil
	}
	if err != nil {
		return p, err
	}
	switch {
	case !p.desc:
		p.start, p.startArgs = "(p.title, p.id) >= (?, ?)", []any{m.Title, m.ID}
	case m.NextID.Valid:
		p.start, p.startArgs = "(p.title, p.id) < (?, ?)", []any{m.NextTitle.String, m.NextID.Int64}
	}
	p.offset -= int(m.Upto - m.N)
	return p, nil
}

// postRun is how many ids post_report_runs counts together.
const postRun = 1024

// bucketCounts names a table of counts of posts, its key as text
// (YYYY-MM-DD, or YYYY-MM-DD HH for hours) in one dialect, the columns that
// order its buckets as the list orders their posts, and the condition that
// picks the counts of the posts wanted, if any.
type bucketCounts struct {
	table, key string
	cols       []string
	cond       string
	arg        string
}

// ofStatus makes b count one status's posts, from table, unless status
// is "" (all posts).
func (b *bucketCounts) ofStatus(table, status string) {
	if status != "" {
		b.table, b.cond, b.arg = table, "status = ?", status
	}
}

func dayCounts(db bun.IDB) bucketCounts {
	b := bucketCounts{"daily_counts", "day", []string{"day"}, "metric = ?", "posts_created"}
	if Dialect(db) == "postgres" {
		b.key = "to_char(day, 'YYYY-MM-DD')"
	}
	return b
}

func hourCounts(db bun.IDB) bucketCounts {
	b := bucketCounts{"hourly_counts", "hour", []string{"hour"}, "metric = ?", "posts_created"}
	if Dialect(db) == "postgres" {
		b.key = "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')"
	}
	return b
}

func statusDays(db bun.IDB, status string) bucketCounts {
	b := bucketCounts{"post_status_days", "day", []string{"day"}, "status = ?", status}
	if Dialect(db) == "postgres" {
		b.key = "to_char(day, 'YYYY-MM-DD')"
	}
	return b
}

// firstBucket walks the buckets of posts created in the list's order
// (within [within[0], within[1]) when given) and returns the one holding
// the post at offset, with the posts of the buckets before it.
func firstBucket(ctx context.Context, db bun.IDB, b bucketCounts, desc bool, offset int, within *[2]any) (key string, before int, ok bool, err error) {
	dir := "ASC"
	if desc {
		dir = "DESC"
	}
	order := make([]string, len(b.cols))
	for i, c := range b.cols {
		order[i] = c + " " + dir
	}
	inner := db.NewSelect().Table(b.table).Column(b.cols...).ColumnExpr("n").
		ColumnExpr("sum(n) OVER (ORDER BY " + strings.Join(order, ", ") + ") AS upto").Where("n <> 0")
	if b.cond != "" {
		inner = inner.Where(b.cond, b.arg)
	}
	if within != nil {
		inner = inner.Where(b.cols[0]+" >= ?", within[0]).Where(b.cols[0]+" < ?", within[1])
	}
	var row struct {
		K    string
		N    int
		Upto int
	}
	// The outer order is the window's, so the running sums stream in
	// order and the scan stops at the first bucket past offset; its key
	// is formatted for that bucket alone.
	err = db.NewSelect().TableExpr("(?) AS b", inner).ColumnExpr(b.key+" AS k").ColumnExpr("n, upto").
		Where("upto > ?", offset).OrderExpr(strings.Join(order, ", ")).Limit(1).Scan(ctx, &row)
	if err == sql.ErrNoRows {
		return "", 0, false, nil
	}
	return row.K, row.Upto - row.N, err == nil, err
}

// timeParam is t as the dialect compares it with stored times: SQLite
// keeps them as text, so it gets t in that text's layout.
func timeParam(db bun.IDB, t time.Time) any {
	if Dialect(db) == "postgres" {
		return t
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// walkTo plans f's page as a walk from the start of its order.
func walkTo(f PostListFilter) postWalk {
	return postWalk{desc: f.Desc, offset: f.Offset, limit: f.Limit}
}

// walk adds p's walk to a select of posts' ids.
func (p postWalk) walk(f PostListFilter) func(*bun.SelectQuery) *bun.SelectQuery {
	return func(q *bun.SelectQuery) *bun.SelectQuery {
		if p.start != "" {
			q = q.Where(p.start, p.startArgs...)
		}
		return q.Apply(p.order(f)).Limit(int64(p.limit)).Offset(int64(p.offset))
	}
}

// order sorts a select of posts the way p walks f's order.
func (p postWalk) order(f PostListFilter) func(*bun.SelectQuery) *bun.SelectQuery {
	dir := " ASC"
	if p.desc {
		dir = " DESC"
	}
	return func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.OrderExpr(postOrder[f.Sort] + dir).OrderExpr("p.id" + dir)
	}
}

// inOrder puts a page read from the far end back in the order asked for.
func (p postWalk) inOrder(rows []ListedPost) {
	if p.mirrored {
		slices.Reverse(rows)
	}
}

// snapshot runs fn with every read in it seeing the same rows, so that a
// page planned from counters reads the rows those counters counted. Inside
// a change fn runs in the change's transaction.
func (s *Store) snapshot(ctx context.Context, fn func(ctx context.Context) error) error {
	db, ok := s.db(ctx).(*bun.DB)
	if !ok {
		return fn(ctx)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if Dialect(db) == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return db.RunInTx(ctx, opts, func(ctx context.Context, tx bun.Tx) error {
		return fn(context.WithValue(ctx, txKey{}, &tx))
	})
}
