package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/trust"
)

// The general API's posts and reports (docs/api.md, "Posts").

// ErrAlreadyReported says the user has an open report on the post already
// (post_reports_one_open_key).
var ErrAlreadyReported = errors.New("already reported")

// PostRecord is a post with its author's username and its tags, read in
// one query.
type PostRecord struct {
	Post           `bun:",extend"`
	AuthorUsername string `bun:",scanonly"`
	TagList        string `bun:",scanonly"` // comma-separated (tags hold no commas)
}

// Tags are the post's tags, sorted.
func (p *PostRecord) Tags() []string {
	if p.TagList == "" {
		return []string{}
	}
	tags := strings.Split(p.TagList, ",")
	slices.Sort(tags)
	return tags
}

// postColumns are the posts columns a PostRecord reads (not the search
// vector PostgreSQL keeps beside them).
const postColumns = "p.id, p.author_id, p.title, p.content, p.status, p.report_count, p.created_at, p.updated_at, p.published_at"

// selectPostRecords starts a query of PostRecords: the post, its author's
// username and its tags, aggregated by a correlated subquery so that a page
// of posts is one query, never one per post.
func selectPostRecords(db bun.IDB, dest any) *bun.SelectQuery {
	agg := "group_concat(pt.tag, ',')"
	if Dialect(db) == "postgres" {
		agg = "string_agg(pt.tag, ',')"
	}
	tags := db.NewSelect().TableExpr("post_tags AS pt").ColumnExpr(agg).Where("pt.post_id = p.id")
	return db.NewSelect().Model(dest).
		ColumnExpr(postColumns).
		ColumnExpr("u.username AS author_username").
		ColumnExpr("COALESCE((?), '') AS tag_list", tags).
		Join("JOIN users AS u ON u.id = p.author_id")
}

// PostRecordByID loads one post with its author and tags.
func (s Posts) PostRecordByID(ctx context.Context, id int64) (*PostRecord, error) {
	p := new(PostRecord)
	err := selectPostRecords(s.db(ctx), p).Where("p.id = ?", id).Scan(ctx)
	return p, notFound(err, "post")
}

// PostFeedFilter selects a page of GET /api/posts.
type PostFeedFilter struct {
	AuthorID *int64
	Tag      string
	// Unpublished asks for the posts that are not published (drafts,
	// hidden and flagged posts): every such post for a Moderator, else only
	// the viewer's own (none for an anonymous viewer, ViewerID 0).
	Unpublished bool
	ViewerID    int64
	Moderator   bool
	Sort        string // created_at, updated_at or title
	Desc        bool
	Limit       int
	Offset      int
}

// postSorts are the sort keys; titles sort without regard to case.
var postSorts = map[string]string{"created_at": "p.created_at", "updated_at": "p.updated_at", "title": "lower(p.title)"}

// PostFeed returns a page of posts with their authors and tags and how many
// match: one query for the rows, one count.
func (s Posts) PostFeed(ctx context.Context, f PostFeedFilter) ([]PostRecord, int, error) {
	col, ok := postSorts[f.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("post feed: unknown sort %q", f.Sort)
	}
	dir := " ASC"
	if f.Desc {
		dir = " DESC"
	}
	var rows []PostRecord
	q := selectPostRecords(s.db(ctx), &rows)
	switch {
	case !f.Unpublished:
		q = q.Where("p.status = ?", PostPublished)
	case f.Moderator:
		q = q.Where("p.status <> ?", PostPublished)
	default:
		q = q.Where("p.status <> ? AND p.author_id = ?", PostPublished, f.ViewerID)
	}
	if f.AuthorID != nil {
		q = q.Where("p.author_id = ?", *f.AuthorID)
	}
	if f.Tag != "" {
		q = q.Where("EXISTS (SELECT 1 FROM post_tags AS ft WHERE ft.post_id = p.id AND ft.tag = ?)", f.Tag)
	}
	q = q.OrderExpr(col + dir + ", p.id" + dir).Limit(int64(f.Limit)).Offset(int64(f.Offset))
	n, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("post feed: %w", err)
	}
	return rows, int(n), nil
}

// PostInput is a new post.
type PostInput struct {
	AuthorID  int64
	Title     string
	Content   string
	Tags      []string
	Published bool
	// Held keeps a post its author asked to publish back for approval
	// (PostPending): the hold of new accounts' posts.
	Held bool
}

// CreateUserPost writes a post (published, held for approval, or a draft)
// with its tags and counts it in its author's post_count. An author who is not active
// (banned, deactivated) is *InactiveUserError. Call it inside a change.
func (s Posts) CreateUserPost(ctx context.Context, in PostInput) (*PostRecord, error) {
	db := s.db(ctx)
	if err := requireActiveUser(ctx, db, in.AuthorID); err != nil {
		return nil, err
	}
	now := s.now()
	p := &Post{AuthorID: in.AuthorID, Title: in.Title, Content: in.Content, Status: PostDraft, CreatedAt: now, UpdatedAt: now}
	switch {
	case in.Published && in.Held:
		p.Status = PostPending // published_at waits for the approval
	case in.Published:
		p.Status, p.PublishedAt = PostPublished, &now
	}
	if _, err := db.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("create post: %w", err)
	}
	if err := setPostTags(ctx, db, p.ID, in.Tags); err != nil {
		return nil, err
	}
	if err := addPostCount(ctx, db, in.AuthorID, 1); err != nil {
		return nil, err
	}
	return s.PostRecordByID(ctx, p.ID)
}

// SubmitPost counts one more post put up for publication by its author
// (created published, or a draft published for the first time; held or
// not) and returns how many the account has put up so far, this one
// included, with the time the account was made: what the hold of new
// accounts' posts asks. The count never goes down, so deleting one's posts
// does not start it again. The update holds the author's row on
// PostgreSQL until the change ends, so one author's posts are counted one
// after another. Call it inside a change.
func (s Posts) SubmitPost(ctx context.Context, authorID int64) (int, time.Time, error) {
	var n int
	var since time.Time
	err := s.db(ctx).NewUpdate().Model((*User)(nil)).Set("posts_submitted = posts_submitted + 1").Where("id = ?", authorID).
		Returning("posts_submitted, created_at").Scan(ctx, &n, &since)
	if err != nil {
		return 0, time.Time{}, notFound(err, "user")
	}
	return n, since, nil
}

// requireActiveUser fails unless the user exists and is active (a ban
// that has run out counts as over).
func requireActiveUser(ctx context.Context, db bun.IDB, id int64) error {
	var status string
	expr, args := statusNow(time.Now().UTC())
	err := db.NewSelect().Model((*User)(nil)).ColumnExpr(expr, args...).Where("u.id = ?", id).Scan(ctx, &status)
	if err != nil {
		return notFound(err, "user")
	}
	if status != UserActive {
		return &InactiveUserError{UserID: id, Status: status}
	}
	return nil
}

func setPostTags(ctx context.Context, db bun.IDB, postID int64, tags []string) error {
	if _, err := db.NewDelete().Model((*PostTag)(nil)).Where("post_id = ?", postID).Exec(ctx); err != nil {
		return fmt.Errorf("set post tags: %w", err)
	}
	if len(tags) == 0 {
		return nil
	}
	rows := make([]PostTag, len(tags))
	for i, t := range tags {
		rows[i] = PostTag{PostID: postID, Tag: t}
	}
	if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fmt.Errorf("set post tags: %w", err)
	}
	return nil
}

func addPostCount(ctx context.Context, db bun.IDB, userID int64, delta int) error {
	_, err := db.NewUpdate().Model((*User)(nil)).Set("post_count = post_count + ?", delta).Where("id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("count posts of user %d: %w", userID, err)
	}
	return nil
}

// PostEdit is a partial update of a post; nil fields stay.
type PostEdit struct {
	Title   *string
	Content *string
	Tags    *[]string
	Status  *string
}

// EditPost applies e to post id and returns the post as it is now. A post
// published for the first time gets its published_at. Call it inside a
// change.
func (s Posts) EditPost(ctx context.Context, id int64, e PostEdit) (*PostRecord, error) {
	db, now := s.db(ctx), s.now()
	q := db.NewUpdate().Model((*Post)(nil)).Set("updated_at = ?", now).Where("id = ?", id)
	if e.Title != nil {
		q = q.Set("title = ?", *e.Title)
	}
	if e.Content != nil {
		q = q.Set("content = ?", *e.Content)
	}
	if e.Status != nil {
		q = q.Set("status = ?", *e.Status)
		if *e.Status == PostPublished {
			q = q.Set("published_at = COALESCE(published_at, ?)", now)
		}
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("edit post %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return nil, fmt.Errorf("post %d: %w", id, ErrNotFound)
	}
	if e.Tags != nil {
		if err := setPostTags(ctx, db, id, *e.Tags); err != nil {
			return nil, err
		}
	}
	return s.PostRecordByID(ctx, id)
}

// RemovePost deletes a post (its tags and reports go with it) and counts it
// out of its author's post_count. Call it inside a change. Only the delete
// that removed the row counts it out: of two deletes racing, the second
// waits for the first and then finds nothing (ErrNotFound), as it would a
// moment later.
func (s Posts) RemovePost(ctx context.Context, id int64) error {
	db := s.db(ctx)
	var author int64
	err := db.NewSelect().Model((*Post)(nil)).Column("author_id").Where("p.id = ?", id).Scan(ctx, &author)
	if err != nil {
		return notFound(err, "post")
	}
	res, err := db.NewDelete().Model((*Post)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete post %d: %w", id, err)
	}
	if err := oneRow(res, nil, "post"); err != nil {
		return err
	}
	return addPostCount(ctx, db, author, -1)
}

// ReportPost files userID's report on a post and reports whether it turned
// the post flagged: when the weights (trust.Weight: account age, past
// accuracy) of the users holding open reports on a published post reach
// trust.AutoFlagWeight, it is flagged in the same transaction and the
// moderation history records it (no admin; the reason says it was
// automatic). Below that the post stays published, in the moderation
// queue as every post with open reports is. A
// second open report by the same user is ErrAlreadyReported; a reporter who
// is not active is *InactiveUserError. Call it inside a change.
func (s Posts) ReportPost(ctx context.Context, postID, userID int64, reason, comment string) (*PostReport, bool, error) {
	db := s.db(ctx)
	if err := requireActiveUser(ctx, db, userID); err != nil {
		return nil, false, err
	}
	// Counting the report first takes the post's row lock on PostgreSQL, so
	// reports filed at the same moment are counted one after the other and
	// each weighs the reports before it.
	res, err := db.NewUpdate().Model((*Post)(nil)).Set("report_count = report_count + 1").Where("id = ?", postID).Exec(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("report post %d: %w", postID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return nil, false, fmt.Errorf("post %d: %w", postID, ErrNotFound)
	}
	r, err := s.insertReport(ctx, db, postID, userID, reason, comment)
	if err != nil {
		return nil, false, err
	}
	flagged, err := s.flagIfReported(ctx, db, postID)
	if err != nil {
		return nil, false, err
	}
	return r, flagged, nil
}

func (s *Store) insertReport(ctx context.Context, db bun.IDB, postID, userID int64, reason, comment string) (*PostReport, error) {
	open, err := db.NewSelect().Model((*PostReport)(nil)).
		Where("pr.post_id = ? AND pr.reporter_id = ? AND pr.status = ?", postID, userID, ReportOpen).Exists(ctx)
	if err != nil {
		return nil, fmt.Errorf("report post %d: %w", postID, err)
	}
	if open {
		return nil, ErrAlreadyReported
	}
	r := &PostReport{PostID: postID, ReporterID: userID, Reason: reason, Comment: comment, Status: ReportOpen, CreatedAt: s.now()}
	if _, err := db.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		if IsUniqueViolation(err) {
			return nil, ErrAlreadyReported // a report racing this one
		}
		return nil, fmt.Errorf("report post %d: %w", postID, err)
	}
	return r, nil
}

// flagIfReported flags a published post whose open reports' reporters
// weigh trust.AutoFlagWeight together, with its moderation record.
func (s *Store) flagIfReported(ctx context.Context, db bun.IDB, postID int64) (bool, error) {
	reporters, err := s.openReporters(ctx, db, postID)
	if err != nil {
		return false, err
	}
	weight := trust.Sum(reporters)
	if !trust.Flags(weight) {
		return false, nil
	}
	var title string
	var author int64
	err = db.NewUpdate().Model((*Post)(nil)).Set("status = ?", PostFlagged).
		Where("id = ? AND status = ?", postID, PostPublished).Returning("title, author_id").Scan(ctx, &title, &author)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // not published: a draft, or hidden or flagged already
	}
	if err != nil {
		return false, fmt.Errorf("flag post %d: %w", postID, err)
	}
	return true, s.recordAutoFlag(ctx, db, postID, author, title, len(reporters), weight)
}

// openReporters reads what weighs the word of each user holding an open
// report on the post: the account's age and the reporter's record.
func (s *Store) openReporters(ctx context.Context, db bun.IDB, postID int64) ([]trust.Reporter, error) {
	var rows []struct {
		CreatedAt time.Time
		Upheld    int
		Rejected  int
	}
	err := db.NewSelect().Model((*PostReport)(nil)).
		ColumnExpr("u.created_at, COALESCE(rs.upheld, 0) AS upheld, COALESCE(rs.rejected, 0) AS rejected").
		Join("JOIN users AS u ON u.id = pr.reporter_id").Join("LEFT JOIN reporter_stats AS rs ON rs.user_id = pr.reporter_id").
		Where("pr.post_id = ? AND pr.status = ?", postID, ReportOpen).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("weigh the reports of post %d: %w", postID, err)
	}
	now := s.now()
	out := make([]trust.Reporter, len(rows))
	for i, r := range rows {
		out[i] = trust.Reporter{Age: now.Sub(r.CreatedAt), Upheld: r.Upheld, Rejected: r.Rejected}
	}
	return out, nil
}

func (s *Store) recordAutoFlag(ctx context.Context, db bun.IDB, postID, author int64, title string, reporters int, weight float64) error {
	m := &ModerationAction{PostID: postID, PostTitle: title, Action: "flag", AuthorID: &author,
		Reason: fmt.Sprintf("Flagged automatically: %d users reported it, weighing %.1f of the %.0f needed",
			reporters, weight, trust.AutoFlagWeight),
		FromStatus: PostPublished, ToStatus: PostFlagged, CreatedAt: s.now()}
	if _, err := db.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("record flag of post %d: %w", postID, err)
	}
	return nil
}
