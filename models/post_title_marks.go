package models

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// Sizes of the buckets of post_title_marks: a bucket past titleBucketMax
// posts is split into buckets of titleBucket, so that a deep page by title
// walks at most a few thousand posts.
const (
	titleBucket    = 2048
	titleBucketMax = 4 * titleBucket
)

// titleMark is one mark of post_title_marks with the next one (none after
// the last).
type titleMark struct {
	Title     string
	ID        int64
	N         int64
	NextTitle sql.NullString
	NextID    sql.NullInt64
}

// SplitTitleMarks splits every bucket of post_title_marks holding more
// than titleBucketMax posts into buckets of titleBucket, and says how many
// marks it added (PostgreSQL only; SQLite has no marks). Writers of posts
// wait while it runs: a split must count the posts the triggers would
// otherwise count in the old bucket. It does nothing, and takes no lock,
// when no bucket is that large.
func (s Posts) SplitTitleMarks(ctx context.Context) (int64, error) {
	if s.Dialect() != "postgres" {
		return 0, nil
	}
	var largest int64
	if err := s.db(ctx).NewSelect().Table("post_title_marks").ColumnExpr("coalesce(max(n), 0)").Scan(ctx, &largest); err != nil {
		return 0, err
	}
	if largest <= titleBucketMax {
		return 0, nil
	}
	var added int64
	err := s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if _, err := db.ExecContext(ctx, "LOCK TABLE posts IN SHARE MODE"); err != nil {
			return err
		}
		var big []titleMark
		err := db.NewSelect().TableExpr("(?) AS m", titleMarks(db)).Where("n > ?", titleBucketMax).Scan(ctx, &big)
		if err != nil {
			return err
		}
		for _, m := range big {
			n, err := splitTitleBucket(ctx, db, m)
			if err != nil {
				return err
			}
			added += n
		}
		return nil
	})
	return added, err
}

// titleMarks selects every mark with the next one, in the list's order.
func titleMarks(db bun.IDB) *bun.SelectQuery {
	return db.NewSelect().Table("post_title_marks").Column("title", "id", "n").
		ColumnExpr("lead(title) OVER (ORDER BY title, id) AS next_title").
		ColumnExpr("lead(id) OVER (ORDER BY title, id) AS next_id")
}

// splitTitleBucket puts a mark at every titleBucket-th post of m's
// bucket after its first, and sets each new bucket's count.
func splitTitleBucket(ctx context.Context, db bun.IDB, m titleMark) (int64, error) {
	posts := db.NewSelect().Table("posts").Column("title", "id").
		ColumnExpr("row_number() OVER (ORDER BY title, id) - 1 AS rn").ColumnExpr("count(*) OVER () AS total").
		Where("(title, id) >= (?, ?)", m.Title, m.ID)
	if m.NextID.Valid {
		posts = posts.Where("(title, id) < (?, ?)", m.NextTitle.String, m.NextID.Int64)
	}
	res, err := db.NewRaw(`INSERT INTO post_title_marks (title, id, n)
		SELECT CASE WHEN rn = 0 THEN ? ELSE title END, CASE WHEN rn = 0 THEN ? ELSE id END, least(?, total - rn)
		FROM (?) AS p WHERE rn % ? = 0
		ON CONFLICT (title, id) DO UPDATE SET n = EXCLUDED.n`, m.Title, m.ID, titleBucket, posts, titleBucket).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return n - 1, recountStatusTitleMarks(ctx, db, &m) // the bucket's own mark was updated, not added
}

// recountStatusTitleMarks sets the per-status counts of the marks from
// from up to from's next mark, or of every mark when from is nil, to the
// posts of each status from each mark to the next (PostgreSQL only).
func recountStatusTitleMarks(ctx context.Context, db bun.IDB, from *titleMark) error {
	posts := db.NewSelect().TableExpr("posts AS p").Column("p.status", "p.title", "p.id")
	counts := db.NewDelete().TableExpr("post_status_title_marks").Where("TRUE")
	if from != nil {
		posts = posts.Where("(p.title, p.id) >= (?, ?)", from.Title, from.ID)
		counts = counts.Where("(title, id) >= (?, ?)", from.Title, from.ID)
		if from.NextID.Valid {
			posts = posts.Where("(p.title, p.id) < (?, ?)", from.NextTitle.String, from.NextID.Int64)
			counts = counts.Where("(title, id) < (?, ?)", from.NextTitle.String, from.NextID.Int64)
		}
	}
	if _, err := counts.Exec(ctx); err != nil {
		return err
	}
	// Each post counts in the bucket of the last mark at or before it, as
	// the triggers find it.
	_, err := db.NewRaw(`INSERT INTO post_status_title_marks (status, title, id, n)
		SELECT p.status, m.title, m.id, count(*) FROM (?) AS p
		CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (p.title, p.id)
			ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
		GROUP BY 1, 2, 3`, posts).Exec(ctx)
	return err
}

// recountTitleMarks sets the count of every mark of post_title_marks to
// the posts from it to the next (PostgreSQL only).
func recountTitleMarks(ctx context.Context, db bun.IDB) error {
	_, err := db.NewRaw(`UPDATE post_title_marks AS t SET n = (SELECT count(*) FROM posts AS p
			WHERE (p.title, p.id) >= (m.title, m.id) AND (m.next_id IS NULL OR (p.title, p.id) < (m.next_title, m.next_id)))
		FROM (?) AS m WHERE t.title = m.title AND t.id = m.id`, titleMarks(db)).Exec(ctx)
	return err
}
