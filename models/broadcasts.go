package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/plazahq/plaza/internal/webhook"
)

// Broadcast statuses: scheduled until its time, sent from then on (its
// delivery to inboxes may still be under way: see Delivered).
const (
	BroadcastScheduled = "scheduled"
	BroadcastSent      = "sent"
)

// broadcastStep is how many user ids one delivery step covers. Each step
// is a transaction of its own that also moves the broadcast's cursor, so a
// broadcast to a million users holds no giant transaction, and a job that
// is retried after a crash resumes where the last step committed.
const broadcastStep = 50_000

// JobQueue queues background work inside a change's transaction, so that
// the job exists if and only if the change commits. A zero at means now.
type JobQueue interface {
	QueueBroadcast(ctx context.Context, tx *sql.Tx, id int64, at time.Time) error
	QueueMaintenance(ctx context.Context, tx *sql.Tx, id, keepKey string) error
	QueueWebhook(ctx context.Context, tx *sql.Tx, deliveryID int64) error
}

// ErrNoJobQueue is returned by writes that need the job queue when the
// Store has none (a command that opened the database without it).
var ErrNoJobQueue = errors.New("no job queue")

// SendBroadcast stores b, sent at once when at is nil, else scheduled for
// at, and queues its delivery. A sent broadcast counts its recipients now:
// the users its targets name, up to the newest account. Call it inside a
// change.
func (s *Store) SendBroadcast(ctx context.Context, b *Broadcast, at *time.Time) error {
	if s.Queue == nil {
		return ErrNoJobQueue
	}
	db, now := s.db(ctx), s.now()
	b.CreatedAt, b.Status, b.ScheduledAt = now, BroadcastScheduled, at
	if _, err := db.NewInsert().Model(b).Exec(ctx); err != nil {
		return fmt.Errorf("insert broadcast: %w", err)
	}
	var due time.Time // zero: at once
	if at == nil {
		if err := s.startBroadcast(ctx, b); err != nil {
			return err
		}
	} else {
		due = *at
	}
	tx, ok := db.(*bun.Tx)
	if !ok {
		return errors.New("send broadcast: call it inside a change")
	}
	return s.Queue.QueueBroadcast(ctx, tx.Tx, b.ID, due)
}

// startBroadcast marks b sent: it fixes its audience to the accounts that
// exist now (ids up to the newest) and counts them.
func (s *Store) startBroadcast(ctx context.Context, b *Broadcast) error {
	db, now := s.db(ctx), s.now()
	var last sql.NullInt64
	if err := db.NewSelect().Model((*User)(nil)).ColumnExpr("max(u.id)").Scan(ctx, &last); err != nil {
		return fmt.Errorf("newest user: %w", err)
	}
	n, err := s.countAudience(ctx, b.Targets, last.Int64)
	if err != nil {
		return err
	}
	b.Status, b.SentAt, b.Recipients, b.LastUserID = BroadcastSent, &now, n, last.Int64
	_, err = db.NewUpdate().Model(b).Column("status", "sent_at", "recipients", "last_user_id").WherePK().Exec(ctx)
	return err
}

func (s *Store) countAudience(ctx context.Context, targets []string, last int64) (int, error) {
	if isEveryone(targets) {
		return s.userCount(ctx) // every account exists up to the newest
	}
	q := s.db(ctx).NewSelect().Model((*User)(nil)).Where("u.id <= ?", last)
	n, err := audience(q, targets).Count(ctx)
	return int(n), err
}

func isEveryone(targets []string) bool {
	for _, t := range targets {
		if t == "all" {
			return true
		}
	}
	return false
}

// audience limits a select of users u to those targets name: "all", or
// the users whose highest role is user, moderator or admin (with super
// admin), and "user:<id>" for one user.
func audience(q *bun.SelectQuery, targets []string) *bun.SelectQuery {
	if isEveryone(targets) {
		return q
	}
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		var ids []int64
		for _, t := range targets {
			if cond := targetRoleCondition(q.DB(), t); cond != nil {
				q = q.WhereOr("?", cond)
			} else if id, err := strconv.ParseInt(strings.TrimPrefix(t, "user:"), 10, 64); err == nil {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			q = q.WhereOr("u.id IN (?)", bun.In(ids))
		}
		return q
	})
}

// targetRoleCondition is the condition of a role target on users u, nil
// for a user target. Each is a semi- or anti-join, so that a count over a
// million users is one pass.
func targetRoleCondition(db bun.IDB, target string) schema.QueryAppender {
	staff := func(cmp string, rank int) schema.QueryAppender {
		return db.NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
			ColumnExpr("1").Where("ur.user_id = u.id").Where("r.rank "+cmp+" ?", rank)
	}
	switch target {
	case "users":
		return bun.SafeQuery("NOT EXISTS (?)", staff(">=", 1))
	case "moderators":
		return bun.SafeQuery("EXISTS (?) AND NOT EXISTS (?)", staff("=", 1), staff(">=", 2))
	case "admins":
		return bun.SafeQuery("EXISTS (?)", staff(">=", 2))
	}
	return nil
}

// MissingUsers lists the ids of ids that no user has.
func (s *Store) MissingUsers(ctx context.Context, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var found []int64
	err := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.id").Where("u.id IN (?)", bun.In(ids)).Scan(ctx, &found)
	if err != nil {
		return nil, err
	}
	have := make(map[int64]bool, len(found))
	for _, id := range found {
		have[id] = true
	}
	var missing []int64
	for _, id := range ids {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	return missing, nil
}

// DeliverBroadcast puts broadcast id in its recipients' inboxes and says
// how many hold it, one DeliverBroadcastStep after another. A broadcast
// already delivered costs a read.
func (s *Store) DeliverBroadcast(ctx context.Context, id int64) (int, error) {
	for {
		b, err := s.DeliverBroadcastStep(ctx, id)
		if err != nil || b.DeliveredAt != nil {
			return b.Delivered, err
		}
	}
}

// DeliverBroadcastStep takes broadcast id one step further, in one
// transaction: it sends a scheduled one, or delivers the next step of user
// ids, or, past the newest recipient, marks it delivered and tells the
// admin who sent it. It returns the broadcast as the step left it.
func (s *Store) DeliverBroadcastStep(ctx context.Context, id int64) (b *Broadcast, err error) {
	err = s.Change(ctx, func(ctx context.Context) error {
		if b, err = s.lockBroadcast(ctx, id); err != nil {
			return err
		}
		switch {
		case b.DeliveredAt != nil:
			return nil
		case b.Status == BroadcastScheduled:
			return s.startBroadcast(ctx, b)
		case b.DeliveredThrough >= b.LastUserID:
			return s.finishBroadcast(ctx, b)
		}
		return s.deliverStep(ctx, b)
	})
	if err != nil {
		return &Broadcast{}, err
	}
	return b, nil
}

// deliverStep delivers b to the next step of user ids and moves its cursor.
func (s *Store) deliverStep(ctx context.Context, b *Broadcast) error {
	upto := min(b.DeliveredThrough+s.broadcastStep(), b.LastUserID)
	n, err := s.insertInboxes(ctx, b, upto)
	if err != nil {
		return err
	}
	b.DeliveredThrough, b.Delivered = upto, b.Delivered+n
	_, err = s.db(ctx).NewUpdate().Model(b).Column("delivered_through", "delivered").WherePK().Exec(ctx)
	return err
}

// finishBroadcast marks b delivered and tells its sender.
func (s *Store) finishBroadcast(ctx context.Context, b *Broadcast) error {
	now := s.now()
	b.DeliveredAt = &now
	if _, err := s.db(ctx).NewUpdate().Model(b).Column("delivered_at").WherePK().Exec(ctx); err != nil {
		return err
	}
	err := s.EmitWebhookEvent(ctx, webhook.EventBroadcastSent, map[string]any{"broadcastId": idText(b.ID),
		"title": b.Title, "type": b.Type, "targets": b.Targets, "recipients": b.Recipients, "delivered": b.Delivered,
		"sentAt": timeText(b.SentAt), "deliveredAt": timeText(b.DeliveredAt)})
	if err != nil {
		return err
	}
	return s.tellSender(ctx, b)
}

// broadcastStep is the delivery step; tests shrink it with BroadcastStep.
func (s *Store) broadcastStep() int64 {
	if s.BroadcastStep > 0 {
		return s.BroadcastStep
	}
	return broadcastStep
}

// insertInboxes adds b to the inbox of every recipient with an id after
// its cursor and up to upto, in one INSERT … SELECT. The row holds no copy
// of the text: the inbox reads it from the broadcast.
func (s *Store) insertInboxes(ctx context.Context, b *Broadcast, upto int64) (int, error) {
	db := s.db(ctx)
	recipients := audience(db.NewSelect().Model((*User)(nil)).
		ColumnExpr("u.id, ?, '', '', ?, ?", b.ID, b.Type, *b.SentAt).
		Where("u.id > ? AND u.id <= ?", b.DeliveredThrough, upto), b.Targets)
	res, err := db.NewRaw("INSERT INTO notifications (user_id, broadcast_id, title, message, type, created_at) ?", recipients).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("deliver broadcast %d: %w", b.ID, err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// tellSender puts a note of b's delivery in its sender's inbox.
func (s *Store) tellSender(ctx context.Context, b *Broadcast) error {
	if b.CreatedBy == nil {
		return nil
	}
	note := &Notification{UserID: *b.CreatedBy, Type: "success", CreatedAt: s.now(),
		Title:   "Broadcast delivered",
		Message: fmt.Sprintf("%q reached %d inboxes.", b.Title, b.Delivered)}
	_, err := s.db(ctx).NewInsert().Model(note).Exec(ctx)
	return err
}

// lockBroadcast reads broadcast id, locked until the change ends, so that
// two workers of one broadcast (which River never runs, but a restore or a
// stray job might) take turns and see each other's cursor.
func (s *Store) lockBroadcast(ctx context.Context, id int64) (*Broadcast, error) {
	b := new(Broadcast)
	q := s.db(ctx).NewSelect().Model(b).Where("bc.id = ?", id)
	if s.Dialect() == "postgres" {
		q = q.For("UPDATE")
	} // a SQLite write transaction starts IMMEDIATE: it holds the database already
	return b, notFound(q.Scan(ctx), "broadcast")
}

// BroadcastRow is a broadcast with how many recipients have read it.
type BroadcastRow struct {
	Broadcast `bun:",extend"`
	ReadCount int `bun:",scanonly"`
}

// Broadcasts lists a page of broadcasts, newest first, with the total.
func (s *Store) Broadcasts(ctx context.Context, limit, offset int) ([]BroadcastRow, int, error) {
	db := s.db(ctx)
	rows := []BroadcastRow{}
	read := db.NewSelect().Model((*Notification)(nil)).ColumnExpr("count(*)").
		Where("n.broadcast_id = bc.id").Where("n.read_at IS NOT NULL")
	total, err := db.NewSelect().Model(&rows).ColumnExpr("bc.*").ColumnExpr("(?) AS read_count", read).
		OrderExpr("bc.id DESC").Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	return rows, int(total), err
}
