package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ErrLocked is matched by *LockedError.
var ErrLocked = errors.New("resource locked")

// LockedError says who holds a lock on the resource a write wanted.
type LockedError struct {
	ByUserID int64
	By       string // username
	At       time.Time
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("locked by %s since %s", e.By, e.At.Format(time.RFC3339))
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// LockLease is how long a lock lasts unless renewed.
const LockLease = 5 * time.Minute

// AcquireLock takes or renews userID's lease on a resource in one statement,
// so two admins racing for it cannot both win. A lock another admin holds
// and has not let expire is a *LockedError. Renewal keeps LockedAt.
func (s Desk) AcquireLock(ctx context.Context, typ, id string, userID int64) (*Lock, error) {
	now := s.now()
	l := &Lock{ResourceType: typ, ResourceID: id, LockedBy: userID, LockedAt: now, ExpiresAt: now.Add(LockLease)}
	var got []Lock
	err := s.db(ctx).NewInsert().Model(l).
		On("CONFLICT (resource_type, resource_id) DO UPDATE").
		Set("locked_at = CASE WHEN lk.locked_by = EXCLUDED.locked_by AND lk.expires_at > ? THEN lk.locked_at ELSE EXCLUDED.locked_at END", now).
		Set("locked_by = EXCLUDED.locked_by").
		Set("expires_at = EXCLUDED.expires_at").
		Where("lk.locked_by = EXCLUDED.locked_by OR lk.expires_at <= ?", now).
		Returning("*").Scan(ctx, &got)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("acquire lock %s %s: %w", typ, id, err)
	}
	if len(got) == 1 {
		return &got[0], nil
	}
	return nil, s.CheckLock(ctx, typ, id, userID)
}

// ReleaseLock ends userID's lock on a resource. Releasing a lock someone
// else holds is a *LockedError; releasing a lock nobody holds is a no-op.
func (s Desk) ReleaseLock(ctx context.Context, typ, id string, userID int64) error {
	if err := s.CheckLock(ctx, typ, id, userID); err != nil {
		return err
	}
	_, err := s.db(ctx).NewDelete().Model((*Lock)(nil)).
		Where("resource_type = ? AND resource_id = ? AND locked_by = ?", typ, id, userID).Exec(ctx)
	return err
}

// CheckLock fails with *LockedError when another user holds an unexpired
// lock on the resource. Writes call it inside their change (ChangeLocked).
func (s Desk) CheckLock(ctx context.Context, typ, id string, userID int64) error {
	return s.CheckLocks(ctx, typ, []string{id}, userID)
}

// CheckLocks is CheckLock for several resources of one type at once: it
// fails with the first lock another user holds on any of them.
func (s Desk) CheckLocks(ctx context.Context, typ string, ids []string, userID int64) error {
	var row struct {
		LockedBy int64
		LockedAt time.Time
		Username string
	}
	err := s.db(ctx).NewSelect().Model((*Lock)(nil)).
		ColumnExpr("lk.locked_by, lk.locked_at, u.username").
		Join("JOIN users AS u ON u.id = lk.locked_by").
		Where("lk.resource_type = ? AND lk.resource_id IN (?)", typ, bun.In(ids)).
		Where("lk.expires_at > ?", s.now()).
		Where("lk.locked_by <> ?", userID).
		OrderExpr("lk.resource_id").Limit(1).
		Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check locks on %s %v: %w", typ, ids, err)
	}
	return &LockedError{ByUserID: row.LockedBy, By: row.Username, At: row.LockedAt}
}

// LockHolder is who holds the unexpired lock on a resource, or nil when
// nobody does.
func (s Desk) LockHolder(ctx context.Context, typ, id string) (*Lock, error) {
	var l Lock
	err := s.db(ctx).NewSelect().Model(&l).Where("lk.resource_type = ? AND lk.resource_id = ?", typ, id).
		Where("lk.expires_at > ?", s.now()).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock on %s %s: %w", typ, id, err)
	}
	return &l, nil
}

// BreakLock ends the lock on a resource whoever holds it.
func (s Desk) BreakLock(ctx context.Context, typ, id string) error {
	_, err := s.db(ctx).NewDelete().Model((*Lock)(nil)).Where("resource_type = ? AND resource_id = ?", typ, id).Exec(ctx)
	return err
}

// endLocksOf ends every lock the users where says hold (a subquery over
// users' ids), in the change that bans, deactivates or demotes them: a
// lock outlives neither the power to take it nor the person's standing.
func endLocksOf(ctx context.Context, db bun.IDB, where string, args ...any) error {
	_, err := db.NewDelete().Model((*Lock)(nil)).Where("locked_by IN ("+where+")", args...).Exec(ctx)
	if err != nil {
		return fmt.Errorf("end locks: %w", err)
	}
	return nil
}

// DeleteExpiredLocks removes leases that ran out, for the periodic sweep.
func (s Desk) DeleteExpiredLocks(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*Lock)(nil)).Where("expires_at <= ?", s.now()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
