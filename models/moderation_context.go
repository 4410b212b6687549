package models

import (
	"context"
	"fmt"
	"time"
)

// PostContext is what a moderator reads before deciding on a post: the
// whole post, every open report with its reporter's record, and the
// author's standing.
type PostContext struct {
	Post     ListedPost
	Reports  []ContextReport
	Standing AuthorStanding
}

// ContextReport is one open report with its reporter's name and how many
// of the reporter's settled reports were upheld and rejected so far.
type ContextReport struct {
	PostReport       `bun:",extend"`
	ReporterUsername string `bun:",scanonly"`
	Upheld           int    `bun:",scanonly"`
	Rejected         int    `bun:",scanonly"`
}

// AuthorStanding is an author's record as moderation sees it.
type AuthorStanding struct {
	JoinedAt time.Time
	Bans     int // permanent bans
	Timeouts int // bans with an end
	// Moderations counts the decisions on the author's other posts
	// (undos left out), Hidden and Removed the hides and deletes among them.
	Moderations, Hidden, Removed int
	// ReportedPosts counts the author's other posts ever reported,
	// OpenReported those with reports open now.
	ReportedPosts, OpenReported int
}

// PostContextByID reads post id's context: five statements.
func (s Desk) PostContextByID(ctx context.Context, id int64) (*PostContext, error) {
	post, err := s.Posts.ListedPostByID(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &PostContext{Post: *post, Reports: []ContextReport{}}
	db := s.db(ctx)
	err = db.NewSelect().Model(&out.Reports).ColumnExpr("pr.*").ColumnExpr("u.username AS reporter_username").
		ColumnExpr("COALESCE(rs.upheld, 0) AS upheld, COALESCE(rs.rejected, 0) AS rejected").
		Join("JOIN users AS u ON u.id = pr.reporter_id").Join("LEFT JOIN reporter_stats AS rs ON rs.user_id = pr.reporter_id").
		Where("pr.post_id = ? AND pr.status = ?", id, ReportOpen).OrderExpr("pr.created_at, pr.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("reports of post %d: %w", id, err)
	}
	out.Standing, err = s.authorStanding(ctx, post.AuthorID, id)
	return out, err
}

// authorStanding reads author's record, leaving post except out of the
// counts of their posts.
func (s *Store) authorStanding(ctx context.Context, author, except int64) (AuthorStanding, error) {
	db := s.db(ctx)
	var st AuthorStanding
	err := db.NewSelect().TableExpr("users").Column("created_at").Where("id = ?", author).Scan(ctx, &st.JoinedAt)
	if err != nil {
		return st, notFound(err, "user")
	}
	err = db.NewSelect().TableExpr("bans").
		ColumnExpr("COALESCE(sum(CASE WHEN expires_at IS NULL THEN 1 ELSE 0 END), 0), COALESCE(sum(CASE WHEN expires_at IS NULL THEN 0 ELSE 1 END), 0)").
		Where("user_id = ?", author).Scan(ctx, &st.Bans, &st.Timeouts)
	if err != nil {
		return st, fmt.Errorf("bans of user %d: %w", author, err)
	}
	err = db.NewSelect().TableExpr("moderation_actions AS ma").
		ColumnExpr("count(*), COALESCE(sum(CASE WHEN ma.action = 'hide' THEN 1 ELSE 0 END), 0), COALESCE(sum(CASE WHEN ma.action = 'delete' THEN 1 ELSE 0 END), 0)").
		// SQLite hands a deleted post's id on to the next post: a delete is
		// never of the post at hand.
		Where("ma.author_id = ? AND ma.action <> 'undo' AND (ma.post_id <> ? OR ma.action = 'delete')", author, except).Scan(ctx, &st.Moderations, &st.Hidden, &st.Removed)
	if err != nil {
		return st, fmt.Errorf("moderations of user %d: %w", author, err)
	}
	err = db.NewSelect().TableExpr("posts AS p").
		ColumnExpr("COALESCE(sum(CASE WHEN p.report_count > 0 THEN 1 ELSE 0 END), 0), COALESCE(sum(CASE WHEN p.open_reports > 0 THEN 1 ELSE 0 END), 0)").
		Where("p.author_id = ? AND p.id <> ?", author, except).Scan(ctx, &st.ReportedPosts, &st.OpenReported)
	if err != nil {
		return st, fmt.Errorf("reported posts of user %d: %w", author, err)
	}
	return st, nil
}
