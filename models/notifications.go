package models

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// inboxSelect reads notifications n with their text: a broadcast's rows
// hold none of their own (a million copies of one message would be a
// million copies), so it comes from the broadcast.
func inboxSelect(db bun.IDB, notes any) *bun.SelectQuery {
	return db.NewSelect().Model(notes).
		ColumnExpr("n.id, n.user_id, n.broadcast_id, n.type, n.created_at, n.read_at").
		ColumnExpr("COALESCE(bc.title, n.title) AS title, COALESCE(bc.message, n.message) AS message").
		Join("LEFT JOIN broadcasts AS bc ON bc.id = n.broadcast_id")
}

// Inbox reads a page of user's notifications, unread first, then newest,
// with how many there are and how many are unread.
func (s *Store) Inbox(ctx context.Context, user int64, limit, offset int) (notes []Notification, total, unread int, err error) {
	db := s.db(ctx)
	notes = []Notification{}
	err = inboxSelect(db, &notes).Where("n.user_id = ?", user).
		OrderExpr("(CASE WHEN n.read_at IS NULL THEN 0 ELSE 1 END), n.created_at DESC, n.id DESC").
		Limit(int64(limit)).Offset(int64(offset)).Scan(ctx)
	if err != nil {
		return nil, 0, 0, err
	}
	var counts struct{ Total, Unread int }
	err = db.NewSelect().Model((*Notification)(nil)).Where("n.user_id = ?", user).
		ColumnExpr("count(*) AS total").ColumnExpr("count(*) FILTER (WHERE n.read_at IS NULL) AS unread").Scan(ctx, &counts)
	return notes, counts.Total, counts.Unread, err
}

// MarkRead marks user's notification id read (once: a second call keeps
// the first time); another user's or an unknown id is ErrNotFound. Call it
// inside a change.
func (s *Store) MarkRead(ctx context.Context, user, id int64) (*Notification, error) {
	db := s.db(ctx)
	if _, err := db.NewUpdate().Model((*Notification)(nil)).Set("read_at = ?", s.now()).
		Where("id = ? AND user_id = ? AND read_at IS NULL", id, user).Exec(ctx); err != nil {
		return nil, fmt.Errorf("mark notification %d read: %w", id, err)
	}
	n := new(Notification)
	err := inboxSelect(db, n).Where("n.id = ? AND n.user_id = ?", id, user).Scan(ctx)
	return n, notFound(err, "notification")
}
