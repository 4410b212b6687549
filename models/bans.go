package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ErrNotBanned is an unban of a user no ban holds.
var ErrNotBanned = errors.New("user is not banned")

// A ban is in force while it has not been ended and has not expired. A
// user's status says banned from the ban on; once the user's temporary bans
// have run out, and none is left in force, the user is active again with
// nothing but time passing. Reads therefore use
// statusNow, and the sweep job (LiftExpiredBans) later writes the same
// answer into the rows. A status set to banned without any ban row (a bulk
// change) stays banned until an admin changes it.
const (
	banInForce = "b.ended_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > ?)"
	banRunOut  = "b.ended_at IS NULL AND b.expires_at <= ?"
	banLapsed  = "u.status = 'banned'" +
		" AND EXISTS (SELECT 1 FROM bans AS b WHERE b.user_id = u.id AND " + banRunOut + ")" +
		" AND NOT EXISTS (SELECT 1 FROM bans AS b WHERE b.user_id = u.id AND " + banInForce + ")"
)

// statusNow is the expression of u's status at now.
func statusNow(now time.Time) (string, []any) {
	return "CASE WHEN " + banLapsed + " THEN 'active' ELSE u.status END", []any{now, now}
}

// selectUsers selects every users column with the status as of now. The
// status column comes twice; the later one, read last, wins.
func selectUsers(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	expr, args := statusNow(now)
	return q.ColumnExpr("u.*").ColumnExpr(expr+" AS status", args...)
}

// BanInput is a ban to record. A zero Duration is permanent.
type BanInput struct {
	UserID   int64
	AdminID  int64
	Reason   string
	Notes    string
	Duration time.Duration
}

// BanUser bans a user: the user's status turns banned, a ban row keeps
// reason, notes, expiry and issuer, and the user's sessions end. A ban in force is ended by the new one,
// so a user has at most one. It runs inside the caller's change.
func (s Sanctions) BanUser(ctx context.Context, in BanInput) (*Ban, error) {
	now := s.now()
	db := s.db(ctx)
	if err := endBans(ctx, db, []int64{in.UserID}, in.AdminID, now); err != nil {
		return nil, err
	}
	b := &Ban{UserID: in.UserID, Reason: in.Reason, Notes: in.Notes, CreatedBy: &in.AdminID, CreatedAt: now}
	if in.Duration > 0 {
		exp := now.Add(in.Duration)
		b.ExpiresAt = &exp
	}
	if _, err := db.NewInsert().Model(b).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("ban user %d: %w", in.UserID, err)
	}
	res, err := db.NewUpdate().Model((*User)(nil)).Set("status = ?", UserBanned).Set("is_active = ?", true).
		Set("updated_at = ?", now).Where("id = ?", in.UserID).Exec(ctx)
	if err := oneRow(res, err, "user"); err != nil {
		return nil, err
	}
	if _, err := s.endSessions(ctx, "user_id = ?", in.UserID); err != nil {
		return nil, fmt.Errorf("end sessions of banned user %d: %w", in.UserID, err)
	}
	if err := endLocksOf(ctx, db, "?", in.UserID); err != nil {
		return nil, err
	}
	return b, nil
}

// UnbanUser ends the ban in force and makes the user active. A user no ban
// holds is ErrNotBanned.
func (s Sanctions) UnbanUser(ctx context.Context, userID, adminID int64) error {
	now := s.now()
	db := s.db(ctx)
	u, err := s.Users.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if u.Status != UserBanned {
		return fmt.Errorf("unban user %d: %w", userID, ErrNotBanned)
	}
	if err := endBans(ctx, db, []int64{userID}, adminID, now); err != nil {
		return err
	}
	_, err = db.NewUpdate().Model((*User)(nil)).Set("status = ?", UserActive).Set("is_active = ?", true).
		Set("updated_at = ?", now).Where("id = ?", userID).Exec(ctx)
	return err
}

// endBans ends the bans in force of the users of ids.
func endBans(ctx context.Context, db bun.IDB, ids []int64, adminID int64, now time.Time) error {
	_, err := db.NewUpdate().Model((*Ban)(nil)).Set("ended_at = ?", now).Set("ended_by = ?", adminID).
		Where("user_id IN (?)", bun.In(ids)).Where(banInForce, now).Exec(ctx)
	return err
}

// ActiveBan is the user's ban in force, or nil.
func (s Sanctions) ActiveBan(ctx context.Context, userID int64) (*Ban, error) {
	var bans []Ban
	err := s.db(ctx).NewSelect().Model(&bans).Where("b.user_id = ?", userID).Where(banInForce, s.now()).
		Order("b.created_at DESC").Limit(1).Scan(ctx)
	if err != nil || len(bans) == 0 {
		return nil, err
	}
	return &bans[0], nil
}

// LiftExpiredBans writes down what time has done: bans past their expiry
// are ended at that expiry, and their users, with no ban left in force,
// are active again.
func (s Sanctions) LiftExpiredBans(ctx context.Context) (int64, error) {
	now := s.now()
	var n int64
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*User)(nil)).Set("status = ?", UserActive).Set("updated_at = ?", now).
			Where(banLapsed, now, now).Exec(ctx)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.NewUpdate().Model((*Ban)(nil)).Set("ended_at = b.expires_at").
			Where(banRunOut, now).Exec(ctx)
		return err
	})
	return n, err
}

// UserByID loads a user, with its status as of now.
func (s Users) UserByID(ctx context.Context, id int64) (*User, error) {
	u := new(User)
	err := selectUsers(s.db(ctx).NewSelect().Model(u), s.now()).Where("u.id = ?", id).Scan(ctx)
	return u, notFound(err, "user")
}

// oneRow turns an update that touched no row into ErrNotFound.
func oneRow(res interface{ RowsAffected() (int64, error) }, err error, what string) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}
