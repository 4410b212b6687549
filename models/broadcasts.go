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
)

// Broadcast statuses: scheduled until its time, sent from then on. A
// broadcast is one row: no inbox holds a copy, each reads it (Inbox), so
// it is in every inbox of its audience the moment it is sent.
const (
	BroadcastScheduled = "scheduled"
	BroadcastSent      = "sent"
)

// The ranks of the roles the role targets name (roles.rank).
const (
	rankModerator = 1
	rankAdmin     = 2
)

// JobQueue queues background work inside a change's transaction, so that
// the job exists if and only if the change commits. A zero at means now.
type JobQueue interface {
	QueueBroadcast(ctx context.Context, tx *sql.Tx, id int64, at time.Time) error
	QueueMaintenance(ctx context.Context, tx *sql.Tx, id, keepKey string) error
	QueueWebhook(ctx context.Context, tx *sql.Tx, deliveryID int64) error
	QueueMail(ctx context.Context, tx *sql.Tx, messageID int64) error
}

// ErrNoJobQueue is returned by writes that need the job queue when the
// Store has none (a command that opened the database without it).
var ErrNoJobQueue = errors.New("no job queue")

// SendBroadcast stores b, sent at once when at is nil, else scheduled for
// at. Either way its time (SentAt) is fixed now, so inboxes show it from
// that moment on without further writes. A broadcast sent now counts its
// recipients at once (its caller tells of it); a scheduled one queues the
// job that does so at its time. Call it inside a change.
func (s Notices) SendBroadcast(ctx context.Context, b *Broadcast, at *time.Time) error {
	now := s.now()
	b.CreatedAt, b.Status, b.ScheduledAt, b.SentAt, b.Recipients = now, BroadcastScheduled, nil, now, 0
	if at == nil {
		if err := s.insertBroadcast(ctx, b); err != nil {
			return err
		}
		return s.markSent(ctx, b)
	}
	if s.Queue == nil {
		return ErrNoJobQueue
	}
	due := at.UTC().Truncate(time.Microsecond) // as precise as both databases keep it
	b.ScheduledAt, b.SentAt = &due, due
	if err := s.insertBroadcast(ctx, b); err != nil {
		return err
	}
	tx, ok := s.db(ctx).(*bun.Tx)
	if !ok {
		return errors.New("send broadcast: call it inside a change")
	}
	return s.Queue.QueueBroadcast(ctx, tx.Tx, b.ID, due)
}

// insertBroadcast stores b and a row per target, which inboxes look up by
// index.
func (s *Store) insertBroadcast(ctx context.Context, b *Broadcast) error {
	db := s.db(ctx)
	if _, err := db.NewInsert().Model(b).Exec(ctx); err != nil {
		return fmt.Errorf("insert broadcast: %w", err)
	}
	targets := make([]BroadcastTarget, 0, len(b.Targets))
	seen := map[string]bool{}
	for _, t := range b.Targets {
		if !seen[t] {
			seen[t] = true
			targets = append(targets, BroadcastTarget{BroadcastID: b.ID, Target: t, SentAt: b.SentAt})
		}
	}
	if _, err := db.NewInsert().Model(&targets).Exec(ctx); err != nil {
		return fmt.Errorf("insert broadcast targets: %w", err)
	}
	return nil
}

// SendScheduledBroadcast marks scheduled broadcast id sent, once: it
// counts its recipients and calls sent (the job's action: it tells its
// sender and queues broadcast.sent) in the same change. The
// broadcast's row is locked for the change, so two workers that reach it
// together (which River's unique job rules out, but a restore or a stray
// job might not) take turns, and the second finds it sent. Run early (a
// clock ahead of the database's), it changes nothing and says how long
// until its time.
func (s Notices) SendScheduledBroadcast(ctx context.Context, id int64, sent func(context.Context, *Broadcast) error) (wait time.Duration, err error) {
	err = s.Change(ctx, func(ctx context.Context) error {
		b, err := s.lockBroadcast(ctx, id)
		if err != nil || b.Status != BroadcastScheduled {
			return err
		}
		if wait = b.SentAt.Sub(s.now()); wait > 0 {
			return nil
		}
		wait = 0
		if err := s.markSent(ctx, b); err != nil {
			return err
		}
		return sent(ctx, b)
	})
	return wait, err
}

// markSent records that b is sent, with its recipients.
func (s *Store) markSent(ctx context.Context, b *Broadcast) error {
	n, err := s.countAudience(ctx, b.Targets, b.SentAt)
	if err != nil {
		return err
	}
	b.Status, b.Recipients = BroadcastSent, n
	if _, err := s.db(ctx).NewUpdate().Model(b).Column("status", "recipients").WherePK().Exec(ctx); err != nil {
		return err
	}
	return nil
}

// countAudience counts the accounts targets name among those made up to
// at: the people whose inboxes show a broadcast sent at at.
func (s *Store) countAudience(ctx context.Context, targets []string, at time.Time) (int, error) {
	db := s.db(ctx)
	if isEveryone(targets) {
		all, err := s.userCount(ctx) // a counter: no pass over a million users
		if err != nil {
			return 0, err
		}
		later, err := db.NewSelect().Model((*User)(nil)).Where("u.created_at > ?", at).Count(ctx)
		return all - int(later), err
	}
	q := db.NewSelect().Model((*User)(nil)).Where("u.created_at <= ?", at)
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
// admin), and "user:<id>" for one user. Inboxes apply the same rule to
// their one reader (readerOf).
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
		return bun.SafeQuery("NOT EXISTS (?)", staff(">=", rankModerator))
	case "moderators":
		return bun.SafeQuery("EXISTS (?) AND NOT EXISTS (?)", staff("=", rankModerator), staff(">=", rankAdmin))
	case "admins":
		return bun.SafeQuery("EXISTS (?)", staff(">=", rankAdmin))
	}
	return nil
}

// roleTarget is the role target that names a person whose highest role
// has rank, as targetRoleCondition draws the line.
func roleTarget(rank int) string {
	switch {
	case rank >= rankAdmin:
		return "admins"
	case rank == rankModerator:
		return "moderators"
	}
	return "users"
}

// MissingUsers lists the ids of ids that no user has.
func (s Notices) MissingUsers(ctx context.Context, ids []int64) ([]int64, error) {
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

// lockBroadcast reads broadcast id, locked until the change ends.
func (s *Store) lockBroadcast(ctx context.Context, id int64) (*Broadcast, error) {
	b := new(Broadcast)
	q := s.db(ctx).NewSelect().Model(b).Where("bc.id = ?", id)
	if s.Dialect() == "postgres" {
		q = q.For("UPDATE")
	} // a SQLite write transaction starts IMMEDIATE: it holds the database already
	return b, notFound(q.Scan(ctx), "broadcast")
}

// BroadcastRow is a broadcast as it stands now, with how many people have
// read it (their read marks).
type BroadcastRow struct {
	Broadcast `bun:",extend"`
	ReadCount int `bun:",scanonly"`
}

// Broadcasts lists a page of broadcasts, newest first, with the total.
// Each is as it stands at the Store's now: a scheduled broadcast whose time
// has come is sent, with its recipients, even while the job that records
// it has not run yet.
func (s Notices) Broadcasts(ctx context.Context, limit, offset int) ([]BroadcastRow, int, error) {
	db := s.db(ctx)
	rows := []BroadcastRow{}
	read := db.NewSelect().Model((*BroadcastRead)(nil)).ColumnExpr("count(*)").Where("br.broadcast_id = bc.id")
	total, err := db.NewSelect().Model(&rows).ColumnExpr("bc.*").ColumnExpr("(?) AS read_count", read).
		OrderExpr("bc.id DESC").Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	for i := range rows {
		b := &rows[i].Broadcast
		if b.Status == BroadcastScheduled && !b.SentAt.After(now) {
			if b.Recipients, err = s.countAudience(ctx, b.Targets, b.SentAt); err != nil {
				return nil, 0, err
			}
			b.Status = BroadcastSent
		}
	}
	return rows, int(total), nil
}
