package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// PostListFilter selects a page of the versioned admin posts list.
type PostListFilter struct {
	Status   string // published, draft, hidden or flagged; "" for all
	AuthorID *int64
	Reported bool // only posts with reports, open or settled
	// OpenReports keeps the posts with open reports, which no decision
	// has settled yet.
	OpenReports bool
	// NeedsReview keeps the posts awaiting a decision: with open reports,
	// flagged, or pending (held for approval). Its condition is the posts_review_idx index's, word for
	// word, so that the queue reads that index alone.
	NeedsReview bool
	Search      string // a case-insensitive substring of the title
	Sort        string // created_at, updated_at, report_count, open_reports or title
	Desc        bool
	Limit       int
	Offset      int
	// among, when set, keeps only these posts: a title search's matches.
	among []int64
}

// ListedPost is a post as the admin list shows it: with its author, the
// author's status as of now, its last moderation and its latest reports.
type ListedPost struct {
	Post           `bun:",extend"`
	AuthorUsername string       `bun:",scanonly"`
	AuthorStatus   string       `bun:",scanonly"`
	LastAction     *string      `bun:",scanonly"`
	LastActionBy   *string      `bun:",scanonly"` // the admin's username
	LastActionAt   *time.Time   `bun:",scanonly"`
	Reports        []PostReport `bun:"-"`
}

// ReportsPerPost is how many of a post's reports, the latest, the admin
// list shows.
const ReportsPerPost = 20

var postOrder = map[string]string{
	"created_at": "p.created_at", "updated_at": "p.updated_at", "report_count": "p.report_count", "title": "p.title",
	"open_reports": "p.open_reports",
}

// ListPostsAdmin reads a page of posts matching f, with their reports, and
// how many match: three statements whatever the page's size, and two short
// reads of counters more for a deep page. A title search keeps its newest
// TitleSearchCap matches (searchPostsAdmin).
//
// The list may read from the replica, except the queue of posts with open
// reports: moderators refresh it after each decision, and a post they just
// settled must not come back from a copy a moment behind.
func (s Posts) ListPostsAdmin(ctx context.Context, f PostListFilter) (PostPage, error) {
	if !f.OpenReports {
		ctx = s.mayLag(ctx)
	}
	if f.Search != "" {
		return s.searchPostsAdmin(ctx, f)
	}
	var out PostPage
	var err error
	if f.Offset <= walkablePosts {
		if out.Rows, err = s.postsPage(ctx, f, walkTo(f)); err != nil {
			return PostPage{}, err
		}
		out.Total, err = s.countPosts(ctx, f)
		return out, err
	}
	// A deep page is planned from counts, which must count the rows it
	// then reads.
	err = s.snapshot(ctx, func(ctx context.Context) error {
		if out.Total, err = s.countPosts(ctx, f); err != nil {
			return err
		}
		p, err := s.planPostPage(ctx, f, out.Total)
		if err != nil {
			return err
		}
		out.Rows, err = s.postsPage(ctx, f, p)
		return err
	})
	return out, err
}

// postsPage reads the page p plans, with its reports.
func (s *Store) postsPage(ctx context.Context, f PostListFilter, p postWalk) ([]ListedPost, error) {
	rows := []ListedPost{}
	if p.limit == 0 {
		return rows, nil
	}
	db := s.db(ctx)
	// The page's ids come first, from the posts alone, so that the rows a
	// deep page skips are never joined to their authors and moderations.
	page := pageRows(db, f).Column("p.id").Apply(filterPosts(f)).Apply(p.walk(f))
	err := s.listedPosts(db.NewSelect().Model(&rows)).Join("JOIN (?) AS pick ON pick.id = p.id", page).
		Apply(p.order(f)).Scan(ctx)
	if err != nil {
		return nil, err
	}
	p.inOrder(rows)
	return rows, s.attachReports(ctx, rows)
}

// pageRows is what a page's ids are picked from: the posts, or, for a
// title search's matches on PostgreSQL, their narrow copy (post_titles),
// which holds every column the list filters and sorts on; sorting a
// thousand matches scattered over the table then reads none of the posts'
// wide rows.
func pageRows(db bun.IDB, f PostListFilter) *bun.SelectQuery {
	if f.among != nil && Dialect(db) == "postgres" {
		return db.NewSelect().TableExpr("post_titles AS p")
	}
	return db.NewSelect().Model((*Post)(nil))
}

// countPosts counts the posts f matches. All posts, the drafts, the
// hidden, the flagged and those awaiting a decision are kept counted by
// triggers (row_counts), and the published are all the others; counting
// them from the rows would read millions, or tens of thousands.
func (s *Store) countPosts(ctx context.Context, f PostListFilter) (int, error) {
	db := s.db(ctx)
	counter := postCounter(f)
	if counter == "" {
		n, err := db.NewSelect().Model((*Post)(nil)).Apply(filterPosts(f)).Count(ctx)
		return int(n), err
	}
	var n int
	err := db.NewSelect().Table("row_counts").
		ColumnExpr("coalesce(sum(CASE WHEN table_name = ? THEN row_count ELSE -row_count END), 0)", countedAs[counter][0]).
		Where("table_name IN (?)", bun.In(countedAs[counter])).Scan(ctx, &n)
	return n, err
}

// countedAs is the row_counts counters whose sum (the first) less the
// rest counts what each postCounter names.
var countedAs = map[string][]string{
	"posts": {"posts"}, "posts_flagged": {"posts_flagged"}, "posts_draft": {"posts_draft"},
	"posts_hidden": {"posts_hidden"}, "posts_review": {"posts_review"}, "posts_pending": {"posts_pending"},
	"posts_published": {"posts", "posts_draft", "posts_hidden", "posts_flagged", "posts_pending"},
}

// postCounter names what counts f's matches without reading posts, if
// anything does (countedAs).
func postCounter(f PostListFilter) string {
	if f.AuthorID != nil || f.Reported || f.OpenReports || f.Search != "" || f.among != nil {
		return ""
	}
	switch {
	case f.Status == PostFlagged: // flagged posts all await a decision
		return "posts_flagged"
	case f.Status == PostPending: // and so do pending ones
		return "posts_pending"
	case f.Status != "" && f.NeedsReview:
		return ""
	case f.Status != "":
		if _, ok := countedAs["posts_"+f.Status]; ok {
			return "posts_" + f.Status
		}
		return ""
	case f.NeedsReview:
		return "posts_review"
	}
	return "posts"
}

// listedPosts selects posts with their author and last moderation. The
// post's columns are named: PostgreSQL's posts also hold the search
// vector, which Post does not.
func (s *Store) listedPosts(q *bun.SelectQuery) *bun.SelectQuery {
	expr, args := statusNow(s.now())
	last := q.DB().NewSelect().TableExpr("moderation_actions AS ma").Column("ma.id").
		Where("ma.post_id = p.id").OrderExpr("ma.id DESC").Limit(1)
	return q.ColumnExpr("p.id, p.author_id, p.title, p.content, p.status, p.report_count, p.open_reports, p.created_at, p.updated_at, p.published_at").
		Join("JOIN users AS u ON u.id = p.author_id").
		Join("LEFT JOIN moderation_actions AS lm ON lm.id = (?)", last).
		Join("LEFT JOIN users AS lmu ON lmu.id = lm.admin_id").
		ColumnExpr("u.username AS author_username").ColumnExpr(expr+" AS author_status", args...).
		ColumnExpr("lm.action AS last_action, lmu.username AS last_action_by, lm.created_at AS last_action_at")
}

// filterPosts adds f's conditions to a select of posts.
func filterPosts(f PostListFilter) func(*bun.SelectQuery) *bun.SelectQuery {
	return func(q *bun.SelectQuery) *bun.SelectQuery {
		if f.Status != "" {
			q = q.Where("p.status = ?", f.Status)
		}
		if f.AuthorID != nil {
			q = q.Where("p.author_id = ?", *f.AuthorID)
		}
		if f.Reported {
			q = q.Where("p.report_count > 0")
		}
		if f.OpenReports {
			q = q.Where("p.open_reports > 0")
		}
		if f.NeedsReview {
			q = q.Where("(p.open_reports > 0 OR p.status IN ('flagged', 'pending'))")
		}
		if f.Search != "" {
			like := "LIKE"
			if Dialect(q.DB()) == "postgres" {
				like = "ILIKE"
			}
			q = q.Where("p.title "+like+" ? ESCAPE '\\'", "%"+escapeLike(f.Search)+"%")
		}
		if f.among != nil {
			q = q.Where("p.id IN (?)", bun.In(f.among))
		}
		return q
	}
}

// attachReports gives each post its latest ReportsPerPost reports, in one
// statement for the whole page.
func (s *Store) attachReports(ctx context.Context, posts []ListedPost) error {
	if len(posts) == 0 {
		return nil
	}
	at := make(map[int64]int, len(posts))
	ids := make([]int64, len(posts))
	for i := range posts {
		at[posts[i].ID], ids[i] = i, posts[i].ID
		posts[i].Reports = []PostReport{}
	}
	var reports []PostReport
	err := s.db(ctx).NewSelect().Model(&reports).Where("pr.post_id IN (?)", bun.In(ids)).
		OrderExpr("pr.post_id, pr.created_at DESC, pr.id DESC").Scan(ctx)
	for _, r := range reports {
		p := &posts[at[r.PostID]]
		if len(p.Reports) < ReportsPerPost {
			p.Reports = append(p.Reports, r)
		}
	}
	return err
}

// ListedPostByID reads one post as the admin list shows it.
func (s Posts) ListedPostByID(ctx context.Context, id int64) (*ListedPost, error) {
	rows := []ListedPost{}
	err := s.listedPosts(s.db(ctx).NewSelect().Model(&rows)).Where("p.id = ?", id).Scan(ctx)
	if err == nil && len(rows) == 0 {
		err = fmt.Errorf("post %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &rows[0], s.attachReports(ctx, rows)
}

// PostAuthors maps each post of ids that exists to its author, for
// deciding about many posts at once; an id missing from the map names no
// post.
func (s Posts) PostAuthors(ctx context.Context, ids []int64) (map[int64]int64, error) {
	if len(ids) == 0 {
		return map[int64]int64{}, nil
	}
	var rows []struct {
		ID       int64
		AuthorID int64
	}
	err := s.db(ctx).NewSelect().Model((*Post)(nil)).Column("id", "author_id").Where("p.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("authors of posts %v: %w", ids, err)
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.ID] = r.AuthorID
	}
	return out, nil
}

// RecountPosts sets the posts counters (row_counts: all, by status, awaiting a
// decision; post_status_days) to the posts there are,
// for writers that skip triggers (a bulk load as replica). It holds off
// other writers of posts while it counts.
func (s Posts) RecountPosts(ctx context.Context) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if Dialect(db) == "postgres" {
			if _, err := db.ExecContext(ctx, "LOCK TABLE posts IN SHARE MODE"); err != nil {
				return err
			}
			if err := recountTitles(ctx, db); err != nil {
				return err
			}
		}
		if _, err := db.ExecContext(ctx, "UPDATE row_counts SET row_count = (SELECT count(*) FROM posts) WHERE table_name = 'posts'"); err != nil {
			return err
		}
		for _, status := range []string{PostFlagged, PostDraft, PostHidden, PostPending} {
			_, err := db.ExecContext(ctx, "UPDATE row_counts SET row_count = (SELECT count(*) FROM posts WHERE status = ?) WHERE table_name = ?", status, "posts_"+status)
			if err != nil {
				return err
			}
		}
		if err := recountStatusDays(ctx, db); err != nil {
			return err
		}
		if err := recountOrderCounts(ctx, db); err != nil {
			return err
		}
		return recountReview(ctx, db)
	})
}

// recountOrderCounts sets the counts of posts per hour of last update, per
// report count and run of ids, and from each title mark to the next, of
// all posts and per status (PostgreSQL only), to the posts there are.
func recountOrderCounts(ctx context.Context, db bun.IDB) error {
	if Dialect(db) != "postgres" {
		return nil
	}
	for _, q := range []string{
		"DELETE FROM post_updated_hours",
		"INSERT INTO post_updated_hours (hour, n) SELECT date_trunc('hour', updated_at, 'UTC'), count(*) FROM posts GROUP BY 1",
		"DELETE FROM post_report_runs",
		"INSERT INTO post_report_runs (report_count, run, n) SELECT report_count, id / 1024, count(*) FROM posts GROUP BY 1, 2",
		"DELETE FROM post_status_updated_hours",
		"INSERT INTO post_status_updated_hours (status, hour, n) SELECT status, date_trunc('hour', updated_at, 'UTC'), count(*) FROM posts GROUP BY 1, 2",
		"DELETE FROM post_status_report_runs",
		"INSERT INTO post_status_report_runs (status, report_count, run, n) SELECT status, report_count, id / 1024, count(*) FROM posts GROUP BY 1, 2, 3",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := recountTitleMarks(ctx, db); err != nil {
		return err
	}
	return recountStatusTitleMarks(ctx, db, nil)
}

// recountStatusDays sets the counts of posts created per day and status
// (post_status_days) to the posts there are.
func recountStatusDays(ctx context.Context, db bun.IDB) error {
	day := "substr(created_at, 1, 10)"
	if Dialect(db) == "postgres" {
		day = "(created_at AT TIME ZONE 'UTC')::date"
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM post_status_days"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO post_status_days (status, day, n) SELECT status, "+day+", count(*) FROM posts GROUP BY 1, 2")
	return err
}

// recountReview sets the counters of posts awaiting a decision and of
// open reports.
func recountReview(ctx context.Context, db bun.IDB) error {
	_, err := db.ExecContext(ctx, "UPDATE row_counts SET row_count = (SELECT count(*) FROM posts WHERE open_reports > 0 OR status IN ('flagged', 'pending')) WHERE table_name = 'posts_review'")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE row_counts SET row_count = (SELECT count(*) FROM post_reports WHERE status = 'open') WHERE table_name = 'reports_open'")
	return err
}

// RecountOpenReports sets every reported post's count of open reports to
// what post_reports holds, for writers that skip triggers (a bulk load as
// replica). It holds off other writers of reports while it counts.
func (s Posts) RecountOpenReports(ctx context.Context) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if Dialect(db) == "postgres" {
			if _, err := db.ExecContext(ctx, "LOCK TABLE post_reports IN SHARE MODE"); err != nil {
				return err
			}
		}
		_, err := db.NewRaw(`UPDATE posts SET open_reports = (SELECT count(*) FROM post_reports AS r
			WHERE r.post_id = posts.id AND r.status = ?) WHERE id IN (SELECT post_id FROM post_reports)`, ReportOpen).Exec(ctx)
		if err != nil {
			return err
		}
		return recountReview(ctx, db)
	})
}
