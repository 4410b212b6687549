package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Moderation is one moderation decision to apply.
type Moderation struct {
	PostID  int64
	AdminID int64
	Action  string // approve, hide, delete, flag or dismiss
	Reason  string
	Notes   string
}

// ErrDraftNotApproved is an approve of a draft, which only its author
// publishes.
var ErrDraftNotApproved = errors.New("a draft is published by its author, not approved")

// reportOutcome is what each settling decision does to the post's open
// reports: hide and delete uphold them (resolved), approve and dismiss
// find them unfounded (dismissed). A flag is missing: it keeps them open.
var reportOutcome = map[string]string{"approve": ReportDismissed, "dismiss": ReportDismissed, "hide": ReportResolved, "delete": ReportResolved}

// moderationTarget is the status action leaves a post of status from in:
// a dismiss finds the reports unfounded, so a flagged post is published
// again and any other stays as it is.
func moderationTarget(action, from string) string {
	switch action {
	case "approve":
		return PostPublished
	case "hide":
		return PostHidden
	case "flag":
		return PostFlagged
	case "delete":
		return "deleted"
	}
	if from == PostFlagged {
		return PostPublished
	}
	return from
}

// ModeratePost applies m and records it (admin, action, reason, notes,
// from-status, to-status, time, reports settled). Every decision says what
// happens to the post's open reports: approve and dismiss dismiss them
// (not upheld), hide and delete resolve them (upheld), each with this
// moderator, the time and the decision; a flag keeps them open, the post
// in review, the record naming who looked. Delete settles the reports,
// then removes the row, the record and the settled reports
// (settled_reports) staying. It tells nobody: the action that decided
// asks for the notices it wants (Store.Notify). It returns what the
// decision did. Call it inside a change.
func (s Desk) ModeratePost(ctx context.Context, m Moderation) (Decided, error) {
	db, now := s.db(ctx), s.now()
	p, err := s.lockPost(ctx, m.PostID)
	if err != nil {
		return Decided{}, err
	}
	if m.Action == "approve" && p.Status == PostDraft {
		return Decided{}, fmt.Errorf("post %d: %w", p.ID, ErrDraftNotApproved)
	}
	to := moderationTarget(m.Action, p.Status)
	rec := &ModerationAction{PostID: p.ID, PostTitle: p.Title, AdminID: &m.AdminID, Action: m.Action, Reason: m.Reason,
		Notes: m.Notes, FromStatus: p.Status, ToStatus: to, CreatedAt: now, AuthorID: &p.AuthorID}
	if _, err := db.NewInsert().Model(rec).Returning("id").Exec(ctx); err != nil {
		return Decided{}, fmt.Errorf("record moderation of post %d: %w", p.ID, err)
	}
	if err := endClaim(ctx, db, p.ID); err != nil {
		return Decided{}, err
	}
	reporters, err := s.settleReports(ctx, p.ID, rec)
	if err != nil {
		return Decided{}, err
	}
	if err := s.applyModeration(ctx, p, m.Action, to); err != nil {
		return Decided{}, err
	}
	return Decided{From: p.Status, Title: p.Title, AuthorID: p.AuthorID, Reporters: reporters}, nil
}

// lockPost reads post id, holding its row on PostgreSQL so that two
// admins' decisions on one post take turns.
func (s *Store) lockPost(ctx context.Context, id int64) (*Post, error) {
	db := s.db(ctx)
	var p Post
	q := db.NewSelect().Model(&p).Where("p.id = ?", id)
	if Dialect(db) == "postgres" {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, notFound(err, "post")
	}
	return &p, nil
}

// settleReports gives the post's open reports the outcome of rec's
// decision, if it settles them, and returns their reporters. The
// triggers keep settled_reports and reporter_stats in step.
func (s *Store) settleReports(ctx context.Context, postID int64, rec *ModerationAction) ([]int64, error) {
	outcome, ok := reportOutcome[rec.Action]
	if !ok {
		return nil, nil
	}
	db := s.db(ctx)
	var reporters []int64
	err := db.NewSelect().Model((*PostReport)(nil)).Column("reporter_id").
		Where("post_id = ? AND status = ?", postID, ReportOpen).Order("reporter_id").Scan(ctx, &reporters)
	if err != nil || len(reporters) == 0 {
		return nil, err
	}
	_, err = db.NewUpdate().Model((*PostReport)(nil)).Set("status = ?", outcome).Set("resolved_at = ?", rec.CreatedAt).
		Set("resolved_by = ?", rec.AdminID).Set("action_id = ?", rec.ID).Where("post_id = ? AND status = ?", postID, ReportOpen).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("settle the reports of post %d: %w", postID, err)
	}
	rec.ReportsSettled = len(reporters)
	_, err = db.NewUpdate().Model(rec).Column("reports_settled").WherePK().Exec(ctx)
	return reporters, err
}

func (s *Store) applyModeration(ctx context.Context, p *Post, action, to string) error {
	var err error
	if action == "delete" {
		_, err = s.db(ctx).NewDelete().Model((*Post)(nil)).Where("id = ?", p.ID).Exec(ctx)
		if err == nil {
			// As RemovePost does: the author's post_count counts its rows.
			err = addPostCount(ctx, s.db(ctx), p.AuthorID, -1)
		}
	} else if to != p.Status {
		err = s.setPostStatus(ctx, p, to)
	}
	if err != nil {
		return fmt.Errorf("moderate post %d: %w", p.ID, err)
	}
	return nil
}

func (s *Store) setPostStatus(ctx context.Context, p *Post, to string) error {
	q := s.db(ctx).NewUpdate().Model((*Post)(nil)).Set("status = ?", to).Set("updated_at = ?", s.now()).Where("id = ?", p.ID)
	if to == PostPublished && p.PublishedAt == nil {
		q = q.Set("published_at = ?", s.now())
	}
	_, err := q.Exec(ctx)
	return err
}

// Decided is what one moderation decision did: the status the post had,
// its title and author, and who filed the reports it settled.
type Decided struct {
	From      string
	Title     string
	AuthorID  int64
	Reporters []int64
}

// Notify writes notes to their users' inboxes, in one statement: the
// notices an action asks for. Call it inside a change.
func (s Notices) Notify(ctx context.Context, notes []Notification) error {
	if len(notes) == 0 {
		return nil
	}
	now := s.now()
	for i := range notes {
		notes[i].CreatedAt = now
	}
	if _, err := s.db(ctx).NewInsert().Model(&notes).Exec(ctx); err != nil {
		return fmt.Errorf("notify %d users: %w", len(notes), err)
	}
	return nil
}

// ReportSettled reports whether action resolves (upholds) the reports it
// settles, rather than dismissing them.
func ReportSettled(action string) bool { return reportOutcome[action] == ReportResolved }

// UndoWindow is how long after a decision its moderator may undo it.
const UndoWindow = 10 * time.Minute

// ErrNothingToUndo is an undo with no decision of the caller's to undo:
// the post's last decision is someone else's, a delete or an undo, older
// than UndoWindow, or the post has changed since.
var ErrNothingToUndo = errors.New("no decision of yours on this post to undo")

// ErrReportedAgain is an undo that would reopen a report whose reporter
// has reported the post again since: one open report per reporter.
var ErrReportedAgain = errors.New("a reporter has reported this post again since the decision")

// Undone is what an undo did.
type Undone struct {
	Action   string // the decision undone
	Status   string // the post's status again
	Reopened int    // the reports opened again
	Title    string // the post's
}

// UndoModeration undoes admin's last decision on post postID, if it is
// theirs, within UndoWindow, not a delete, and the post's status is still
// what it left: the post gets its previous status back and exactly the
// reports that decision settled open again (settled_reports and the
// reporters' tallies following, by trigger). The undo is recorded as a
// moderation action of its own ("undo", naming the decision it undoes).
// Notifications already sent stay. Call it inside a change.
func (s Desk) UndoModeration(ctx context.Context, postID, adminID int64) (*Undone, error) {
	db, now := s.db(ctx), s.now()
	p, err := s.lockPost(ctx, postID)
	if err != nil {
		return nil, err
	}
	var last ModerationAction
	err = db.NewSelect().Model(&last).Where("ma.post_id = ?", postID).OrderExpr("ma.id DESC").Limit(1).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("post %d: %w", postID, ErrNothingToUndo)
	}
	// A decision older than the post was on another post that had its id
	// (SQLite hands a deleted post's id on).
	if last.AdminID == nil || *last.AdminID != adminID || last.Action == "undo" || last.Action == "delete" ||
		now.Sub(last.CreatedAt) > UndoWindow || p.Status != last.ToStatus || last.CreatedAt.Before(p.CreatedAt) {
		return nil, fmt.Errorf("post %d: %w", postID, ErrNothingToUndo)
	}
	res, err := db.NewUpdate().Model((*PostReport)(nil)).Set("status = ?", ReportOpen).Set("resolved_at = NULL").
		Set("resolved_by = NULL").Set("action_id = NULL").Where("action_id = ?", last.ID).Exec(ctx)
	if IsUniqueViolation(err) {
		return nil, fmt.Errorf("post %d: %w", postID, ErrReportedAgain)
	}
	if err != nil {
		return nil, fmt.Errorf("reopen the reports of post %d: %w", postID, err)
	}
	reopened, _ := res.RowsAffected()
	if last.FromStatus != p.Status {
		if err := s.setPostStatus(ctx, p, last.FromStatus); err != nil {
			return nil, err
		}
	}
	rec := &ModerationAction{PostID: p.ID, PostTitle: p.Title, AdminID: &adminID, Action: "undo",
		Reason: "Undid " + last.Action, FromStatus: p.Status, ToStatus: last.FromStatus, CreatedAt: now, Undoes: &last.ID, AuthorID: &p.AuthorID}
	if _, err := db.NewInsert().Model(rec).Exec(ctx); err != nil {
		return nil, fmt.Errorf("record the undo on post %d: %w", postID, err)
	}
	if err := endClaim(ctx, db, p.ID); err != nil {
		return nil, err
	}
	return &Undone{Action: last.Action, Status: last.FromStatus, Reopened: int(reopened), Title: p.Title}, nil
}

// ModerationTarget is the status a decision of action leaves a post of
// status from in ("deleted" for a delete).
func ModerationTarget(action, from string) string { return moderationTarget(action, from) }

// StandingDecider is who made the decision that left post postID in its
// status now: the moderator of its latest record that ended in status,
// nil when none did (the auto-flag of reports, a post never moderated) or
// when its moderator's account is gone.
func (s Desk) StandingDecider(ctx context.Context, postID int64, status string) (*int64, error) {
	var rec ModerationAction
	err := s.db(ctx).NewSelect().Model(&rec).Column("ma.admin_id", "ma.to_status").
		Where("ma.post_id = ?", postID).
		Where("ma.created_at >= (SELECT p.created_at FROM posts AS p WHERE p.id = ?)", postID).
		OrderExpr("ma.id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("standing decision on post %d: %w", postID, err)
	}
	if rec.ToStatus != status {
		return nil, nil // the status came from elsewhere since (the author, the auto-flag)
	}
	return rec.AdminID, nil
}
