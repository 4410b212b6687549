package models

import (
	"context"
	"fmt"
	"time"
)

// Kinds of user notes.
const (
	NoteNote    = "note"
	NoteWarning = "warning"
)

// ListedNote is a note with its author's username.
type ListedNote struct {
	UserNote       `bun:",extend"`
	AuthorUsername *string `bun:",scanonly"`
}

// UserNotes lists the notes on user id, newest first; an unknown user is
// ErrNotFound.
func (s Sanctions) UserNotes(ctx context.Context, id int64) ([]ListedNote, error) {
	if _, err := s.Users.ListedUserByID(ctx, id); err != nil {
		return nil, err
	}
	notes := []ListedNote{}
	err := s.db(ctx).NewSelect().Model(&notes).ColumnExpr("un.*").ColumnExpr("au.username AS author_username").
		Join("LEFT JOIN users AS au ON au.id = un.author_id").Where("un.user_id = ?", id).
		OrderExpr("un.created_at DESC, un.id DESC").Scan(ctx)
	return notes, err
}

// AddUserNote appends a note by author on user id. Call it inside a change.
func (s Sanctions) AddUserNote(ctx context.Context, id, author int64, kind, body string) (*UserNote, error) {
	n := &UserNote{UserID: id, AuthorID: &author, Kind: kind, Body: body, CreatedAt: s.now()}
	if _, err := s.db(ctx).NewInsert().Model(n).Exec(ctx); err != nil {
		return nil, fmt.Errorf("note on user %d: %w", id, err)
	}
	return n, nil
}

// Strike is one mark in a user's history: a ban, a warning, or a
// decision against one of the user's posts that still stands (see
// standingStrike).
type Strike struct {
	Kind   string // ban, warning or moderation
	Reason string
	At     time.Time
	Staff  *string // the staff member's username
}

// UserStrikes lists user id's strikes, newest first.
func (s Sanctions) UserStrikes(ctx context.Context, id int64) ([]Strike, error) {
	strikes := []Strike{}
	err := s.db(ctx).NewRaw(`SELECT kind, reason, at, staff FROM (
		SELECT 'ban' AS kind, b.reason AS reason, b.created_at AS at, ab.username AS staff
			FROM bans AS b LEFT JOIN users AS ab ON ab.id = b.created_by WHERE b.user_id = ?
		UNION ALL
		SELECT 'warning', un.body, un.created_at, au.username
			FROM user_notes AS un LEFT JOIN users AS au ON au.id = un.author_id WHERE un.user_id = ? AND un.kind = ?
		UNION ALL
		SELECT 'moderation', ma.reason, ma.created_at, am.username
			FROM moderation_actions AS ma LEFT JOIN users AS am ON am.id = ma.admin_id
			WHERE ma.author_id = ? AND `+standingStrike+`
	) AS s ORDER BY at DESC`, id, id, NoteWarning, id).Scan(ctx, &strikes)
	return strikes, err
}

// standingStrike holds for a moderation record ma that is a strike: a hide
// or a delete (a dismissal finds the reports unfounded, a flag decides
// nothing yet) that still stands, that is, neither undone nor followed on
// its post by a decision that replaces it (an approve, flag, hide or
// delete not itself undone). A dismissal leaves the post as it was, so it
// replaces nothing.
const standingStrike = `ma.action IN ('hide', 'delete') AND NOT EXISTS (
	SELECT 1 FROM moderation_actions AS later WHERE later.post_id = ma.post_id AND later.id > ma.id AND (
		later.undoes = ma.id OR (later.action NOT IN ('undo', 'dismiss') AND NOT EXISTS (
			SELECT 1 FROM moderation_actions AS un WHERE un.post_id = later.post_id AND un.undoes = later.id))))`
