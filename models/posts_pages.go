package models

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// walkablePosts is the deepest offset the posts list reaches by walking
// index entries; a walk that long takes a few milliseconds. Deeper pages
// start from the counters or from the list's far end.
const walkablePosts = 10_000

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
	// from, when set, bounds the creation times the walk starts at: the
	// hour the page begins in (oldest first), or the end of it (newest
	// first).
	from any
}

// planPostPage decides how to read f's page, given how many posts match
// (total). A shallow page is walked to. A deep page of all posts by
// creation time starts from the hour the hourly counts place it in, and
// one of a status's posts from the day its counts place it in; any other
// deep page is read from whichever end is nearer, so no walk is longer
// than half the list.
func (s *Store) planPostPage(ctx context.Context, f PostListFilter, total int) (postWalk, error) {
	p := walkTo(f)
	if f.Offset <= walkablePosts {
		return p, nil
	}
	if f.Sort == "created_at" {
		switch c := postCounter(f); {
		case c == "posts":
			return s.pageByHour(ctx, p)
		case countedByDay[c] != "":
			return s.pageByDay(ctx, p, countedByDay[c])
		}
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
	if p.desc {
		at = at.AddDate(0, 0, 1)
	}
	p.from, p.offset = timeParam(db, at), p.offset-before
	return p, nil
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
	if p.desc {
		at = at.Add(time.Hour)
	}
	p.from, p.offset = timeParam(db, at), p.offset-before-inDay
	return p, nil
}

// bucketCounts names a table of counts of posts created, its key as text
// (YYYY-MM-DD, or YYYY-MM-DD HH for hours) in one dialect, and the
// condition that picks the counts of the posts wanted.
type bucketCounts struct {
	table, key, col, cond string
	arg                   string
}

func dayCounts(db bun.IDB) bucketCounts {
	b := bucketCounts{"daily_counts", "day", "day", "metric = ?", "posts_created"}
	if Dialect(db) == "postgres" {
		b.key = "to_char(day, 'YYYY-MM-DD')"
	}
	return b
}

func hourCounts(db bun.IDB) bucketCounts {
	b := bucketCounts{"hourly_counts", "hour", "hour", "metric = ?", "posts_created"}
	if Dialect(db) == "postgres" {
		b.key = "to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')"
	}
	return b
}

func statusDays(db bun.IDB, status string) bucketCounts {
	b := bucketCounts{"post_status_days", "day", "day", "status = ?", status}
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
	inner := db.NewSelect().Table(b.table).ColumnExpr(b.key+" AS k").ColumnExpr("n").
		ColumnExpr("sum(n) OVER (ORDER BY "+b.col+" "+dir+") AS upto").
		Where(b.cond, b.arg).Where("n <> 0")
	if within != nil {
		inner = inner.Where(b.col+" >= ?", within[0]).Where(b.col+" < ?", within[1])
	}
	var row struct {
		K    string
		N    int
		Upto int
	}
	err = db.NewSelect().TableExpr("(?) AS b", inner).ColumnExpr("k, n, upto").
		Where("upto > ?", offset).OrderExpr("k "+dir).Limit(1).Scan(ctx, &row)
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
		switch {
		case p.from != nil && p.desc:
			q = q.Where("p.created_at < ?", p.from)
		case p.from != nil:
			q = q.Where("p.created_at >= ?", p.from)
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
