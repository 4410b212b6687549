package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// InboxKey names one message of an inbox: a notification, or (Broadcast)
// a broadcast, each by its own id.
type InboxKey struct {
	ID        int64
	Broadcast bool
}

// InboxItem is one message of a person's inbox: a notification of their
// own, or a broadcast addressed to them, whose CreatedAt is when it went
// out and whose ReadAt is their read mark. The inbox query's broadcast
// column (0 or 1) fills Broadcast.
type InboxItem struct {
	InboxKey
	Title     string
	Message   string
	Type      string
	CreatedAt time.Time
	ReadAt    *time.Time
}

// inbox is one reader's inbox as of now: their notifications, and the
// broadcasts sent to a target that names them from the moment their
// account was made (broadcasts sent earlier are not theirs) up to now.
type inbox struct {
	user    int64
	joined  time.Time
	targets []string // "all", the reader's role target and "user:<id>"
	now     time.Time
}

// inboxOf reads what decides user's inbox: when the account was made and
// the role target its highest role falls under, as the broadcast's
// recipients were counted.
func (s *Store) inboxOf(ctx context.Context, user int64) (inbox, error) {
	var r struct {
		CreatedAt time.Time
		Rank      int
	}
	err := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.created_at").
		ColumnExpr("COALESCE((?), 0) AS rank", topRank(s.db(ctx))).Where("u.id = ?", user).Scan(ctx, &r)
	if err != nil {
		return inbox{}, notFound(err, "user")
	}
	return inbox{user: user, joined: r.CreatedAt, now: s.now(),
		targets: []string{"all", roleTarget(r.Rank), "user:" + idText(user)}}, nil
}

// items selects the inbox's messages (id, broadcast 0 or 1, created_at,
// read_at) that its reader has not dismissed, or only the one only names. A reader's broadcasts come from the targets
// index, three short ranges, and their read marks by primary key: no
// broadcast outside the inbox is read.
func (in inbox) items(db bun.IDB, only *InboxKey) *bun.RawQuery {
	own := db.NewRaw("SELECT n.id, 0 AS broadcast, n.created_at, n.read_at FROM notifications AS n "+
		"WHERE n.user_id = ? AND n.dismissed_at IS NULL", in.user)
	shown := db.NewRaw("SELECT DISTINCT bt.broadcast_id AS id, bt.sent_at FROM broadcast_targets AS bt "+
		"WHERE bt.target IN (?) AND bt.sent_at >= ? AND bt.sent_at <= ?", bun.In(in.targets), in.joined, in.now)
	if only != nil && only.Broadcast {
		shown = db.NewRaw("? AND bt.broadcast_id = ?", shown, only.ID)
	}
	theirs := db.NewRaw("SELECT s.id, 1 AS broadcast, s.sent_at AS created_at, br.read_at FROM (?) AS s "+
		"LEFT JOIN broadcast_reads AS br ON br.user_id = ? AND br.broadcast_id = s.id "+
		"WHERE br.dismissed_at IS NULL", shown, in.user)
	switch {
	case only == nil:
		return db.NewRaw("? UNION ALL ?", own, theirs)
	case only.Broadcast:
		return theirs
	}
	return db.NewRaw("? AND n.id = ?", own, only.ID)
}

// inboxOrder is the inbox's order over items aliased a: unread first,
// then newest.
func inboxOrder(a string) string {
	return fmt.Sprintf("(CASE WHEN %[1]s.read_at IS NULL THEN 0 ELSE 1 END), %[1]s.created_at DESC, %[1]s.broadcast DESC, %[1]s.id DESC", a)
}

// withText decorates the items of page (aliased p) with their text, from
// the notification or the broadcast, which holds it once for everyone.
func withText(db bun.IDB, page any) *bun.RawQuery {
	return db.NewRaw("SELECT p.*, "+
		"COALESCE(n.title, bc.title) AS title, COALESCE(n.message, bc.message) AS message, COALESCE(n.type, bc.type) AS type "+
		"FROM (?) AS p "+
		"LEFT JOIN notifications AS n ON p.broadcast = 0 AND n.id = p.id "+
		"LEFT JOIN broadcasts AS bc ON p.broadcast = 1 AND bc.id = p.id "+
		"ORDER BY "+inboxOrder("p"), page)
}

// counted is an InboxItem with the counts of the whole inbox, which every
// row of a page carries.
type counted struct {
	InboxItem
	Total  int
	Unread int
}

// Inbox reads a page of user's inbox, unread first, then newest, with how
// many messages there are and how many are unread: one statement, which
// counts the inbox as it sorts it.
func (s Notices) Inbox(ctx context.Context, user int64, limit, offset int) (items []InboxItem, total, unread int, err error) {
	db := s.db(ctx)
	in, err := s.inboxOf(ctx, user)
	if err != nil {
		return nil, 0, 0, err
	}
	all := in.items(db, nil)
	page := db.NewRaw("SELECT i.*, count(*) OVER () AS total, "+
		"sum(CASE WHEN i.read_at IS NULL THEN 1 ELSE 0 END) OVER () AS unread "+
		"FROM (?) AS i ORDER BY "+inboxOrder("i")+" LIMIT ? OFFSET ?", all, limit, offset)
	var rows []counted
	if err := withText(db, page).Scan(ctx, &rows); err != nil {
		return nil, 0, 0, fmt.Errorf("inbox of %d: %w", user, err)
	}
	items = make([]InboxItem, len(rows))
	for i, r := range rows {
		items[i] = r.InboxItem
	}
	if len(rows) > 0 {
		return items, rows[0].Total, rows[0].Unread, nil
	}
	var counts struct{ Total, Unread int } // a page past the end: count alone
	err = db.NewRaw("SELECT count(*) AS total, COALESCE(sum(CASE WHEN i.read_at IS NULL THEN 1 ELSE 0 END), 0) AS unread FROM (?) AS i", all).
		Scan(ctx, &counts)
	return items, counts.Total, counts.Unread, err
}

// inboxItem reads one message of user's inbox; one that is not there
// (another's, a broadcast not addressed to them or not out yet) is
// ErrNotFound.
func (s *Store) inboxItem(ctx context.Context, in inbox, key InboxKey) (*InboxItem, error) {
	db := s.db(ctx)
	item := new(InboxItem)
	if err := withText(db, in.items(db, &key)).Scan(ctx, item); err != nil {
		return nil, notFound(err, "notification")
	}
	return item, nil
}

// MarkRead marks one message of user's inbox read (once: a second call
// keeps the first time): a notification in its row, a broadcast by a read
// mark of this reader. A message that is not in their inbox is
// ErrNotFound. Call it inside a change.
func (s Notices) MarkRead(ctx context.Context, user int64, key InboxKey) (*InboxItem, error) {
	db, now := s.db(ctx), s.now()
	in, err := s.inboxOf(ctx, user)
	if err != nil {
		return nil, err
	}
	if !key.Broadcast {
		if _, err := db.NewUpdate().Model((*Notification)(nil)).Set("read_at = ?", now).
			Where("id = ? AND user_id = ? AND read_at IS NULL", key.ID, user).Exec(ctx); err != nil {
			return nil, fmt.Errorf("mark notification %d read: %w", key.ID, err)
		}
		return s.inboxItem(ctx, in, key)
	}
	item, err := s.inboxItem(ctx, in, key)
	if err != nil || item.ReadAt != nil {
		return item, err
	}
	mark := &BroadcastRead{UserID: user, BroadcastID: key.ID, ReadAt: now}
	if _, err := db.NewInsert().Model(mark).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return nil, fmt.Errorf("mark broadcast %d read: %w", key.ID, err)
	}
	return s.inboxItem(ctx, in, key)
}

// Dismiss takes one message out of user's inbox for good, marking it read
// if it was not: a notification in its row, a broadcast in this reader's
// read mark, so that the broadcast's read count includes it. A message
// that is not in their inbox, dismissed ones included, is ErrNotFound.
// Call it inside a change.
func (s Notices) Dismiss(ctx context.Context, user int64, key InboxKey) error {
	db, now := s.db(ctx), s.now()
	if !key.Broadcast {
		res, err := db.NewUpdate().Model((*Notification)(nil)).Set("dismissed_at = ?", now).
			Set("read_at = COALESCE(read_at, ?)", now).
			Where("id = ? AND user_id = ? AND dismissed_at IS NULL", key.ID, user).Exec(ctx)
		if err != nil {
			return fmt.Errorf("dismiss notification %d: %w", key.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("notification %d: %w", key.ID, ErrNotFound)
		}
		return nil
	}
	in, err := s.inboxOf(ctx, user)
	if err != nil {
		return err
	}
	if _, err := s.inboxItem(ctx, in, key); err != nil {
		return err
	}
	mark := &BroadcastRead{UserID: user, BroadcastID: key.ID, ReadAt: now, DismissedAt: &now}
	_, err = db.NewInsert().Model(mark).On("CONFLICT (user_id, broadcast_id) DO UPDATE").
		Set("dismissed_at = EXCLUDED.dismissed_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("dismiss broadcast %d: %w", key.ID, err)
	}
	return nil
}
