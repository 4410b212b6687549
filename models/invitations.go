package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Invitation is a sign-up link staff hand out: its token is stored only
// as TokenHash (the token itself is shown once, when it is made), and it
// opens at most MaxUses accounts until ExpiresAt, unless revoked first.
// Email, when set, is the one address that may use it.
type Invitation struct {
	bun.BaseModel `bun:"table:invitations,alias:inv"`

	ID        int64      `bun:",pk,autoincrement"`
	TokenHash string     `bun:",notnull"`
	Note      string     `bun:",notnull"`
	Email     *string    `bun:""`
	MaxUses   int        `bun:",notnull"`
	Uses      int        `bun:",notnull"`
	ExpiresAt time.Time  `bun:",notnull"`
	CreatedBy *int64     `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
	RevokedAt *time.Time `bun:""`
	RevokedBy *int64     `bun:""`
}

// The states of an invitation, as lists show them and filter by.
const (
	InvitationActive  = "active"
	InvitationUsedUp  = "used_up"
	InvitationExpired = "expired"
	InvitationRevoked = "revoked"
)

// InvitationStates are the states, in the order lists offer them.
var InvitationStates = []string{InvitationActive, InvitationUsedUp, InvitationExpired, InvitationRevoked}

// State is the invitation's state at now: revoked first, then used up,
// then expired.
func (inv *Invitation) State(now time.Time) string {
	switch {
	case inv.RevokedAt != nil:
		return InvitationRevoked
	case inv.Uses >= inv.MaxUses:
		return InvitationUsedUp
	case !now.Before(inv.ExpiresAt):
		return InvitationExpired
	}
	return InvitationActive
}

// InvitationUse is one account an invitation opened. UserID is nil once
// that account is deleted; the use still counts.
type InvitationUse struct {
	bun.BaseModel `bun:"table:invitation_uses,alias:iu"`

	ID           int64     `bun:",pk,autoincrement"`
	InvitationID int64     `bun:",notnull"`
	UserID       *int64    `bun:""`
	UsedAt       time.Time `bun:",notnull"`
}

// stateWhere narrows a query of invitations to state at now.
func stateWhere(q *bun.SelectQuery, state string, now time.Time) *bun.SelectQuery {
	switch state {
	case InvitationRevoked:
		return q.Where("inv.revoked_at IS NOT NULL")
	case InvitationUsedUp:
		return q.Where("inv.revoked_at IS NULL AND inv.uses >= inv.max_uses")
	case InvitationExpired:
		return q.Where("inv.revoked_at IS NULL AND inv.uses < inv.max_uses AND inv.expires_at <= ?", now)
	case InvitationActive:
		return q.Where("inv.revoked_at IS NULL AND inv.uses < inv.max_uses AND inv.expires_at > ?", now)
	}
	return q
}

// Invitations lists invitations newest first, of one state unless state
// is empty, with the total.
func (s Invitations) Invitations(ctx context.Context, state string, limit, offset int) ([]Invitation, int, error) {
	rows := []Invitation{}
	q := s.db(ctx).NewSelect().Model(&rows).OrderExpr("inv.id DESC").Limit(int64(limit)).Offset(int64(offset))
	total, err := stateWhere(q, state, s.now()).ScanAndCount(ctx)
	return rows, int(total), err
}

// InvitationByID is invitation id; an unknown id is ErrNotFound.
func (s Invitations) InvitationByID(ctx context.Context, id int64) (*Invitation, error) {
	inv := new(Invitation)
	err := s.db(ctx).NewSelect().Model(inv).Where("inv.id = ?", id).Scan(ctx)
	return inv, notFound(err, "invitation")
}

// InvitationByToken is the invitation whose token hashes to tokenHash,
// whatever its state; an unknown token is ErrNotFound.
func (s Invitations) InvitationByToken(ctx context.Context, tokenHash string) (*Invitation, error) {
	inv := new(Invitation)
	err := s.db(ctx).NewSelect().Model(inv).Where("inv.token_hash = ?", tokenHash).Scan(ctx)
	return inv, notFound(err, "invitation")
}

// CreateInvitation stores inv, filling its id and creation time. Call it
// inside a change.
func (s Invitations) CreateInvitation(ctx context.Context, inv *Invitation) error {
	inv.CreatedAt, inv.Uses = s.now(), 0
	if _, err := s.db(ctx).NewInsert().Model(inv).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("create invitation: %w", err)
	}
	return nil
}

// RevokeInvitation revokes invitation id as by and returns it as it is
// now; an unknown id is ErrNotFound, one revoked already ErrConflict.
// Call it inside a change.
func (s Invitations) RevokeInvitation(ctx context.Context, id int64, by *int64) (*Invitation, error) {
	res, err := s.db(ctx).NewUpdate().Model((*Invitation)(nil)).Set("revoked_at = ?", s.now()).Set("revoked_by = ?", by).
		Where("id = ? AND revoked_at IS NULL", id).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("revoke invitation: %w", err)
	}
	inv, err := s.InvitationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, fmt.Errorf("invitation %d is revoked already: %w", id, ErrConflict)
	}
	return inv, nil
}

// ErrInvitationSpent says that an invitation could not be used: revoked,
// expired or used up by the time the use was to be spent.
var ErrInvitationSpent = errors.New("invitation revoked, expired or used up")

// UseInvitation spends one use of invitation id for account userID and
// records who used it. The use is spent by one conditional update (not
// revoked, not expired, uses < max_uses) whose row count says whether it
// was: of registrations racing for the last use, one gets it and the
// others ErrInvitationSpent, on either database. Call it inside the change
// that opens the account.
func (s Invitations) UseInvitation(ctx context.Context, id, userID int64) error {
	db, now := s.db(ctx), s.now()
	res, err := db.NewUpdate().Model((*Invitation)(nil)).Set("uses = uses + 1").
		Where("id = ? AND revoked_at IS NULL AND expires_at > ? AND uses < max_uses", id, now).Exec(ctx)
	if err != nil {
		return fmt.Errorf("use invitation: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrInvitationSpent
	}
	_, err = db.NewInsert().Model(&InvitationUse{InvitationID: id, UserID: &userID, UsedAt: now}).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record invitation use: %w", err)
	}
	return nil
}

// InvitationUser is one use of an invitation with the account it opened
// (Username empty once the account is deleted).
type InvitationUser struct {
	UserID   *int64
	Username string
	Email    string
	UsedAt   time.Time
}

// MaxInvitationUsesListed is how many uses of one invitation its page
// lists, the latest first; the count says how many there were in all.
const MaxInvitationUsesListed = 1000

// InvitationUsers are the uses of invitation id, latest first, with the
// accounts they opened.
func (s Invitations) InvitationUsers(ctx context.Context, id int64) ([]InvitationUser, error) {
	out := []InvitationUser{}
	err := s.db(ctx).NewSelect().TableExpr("invitation_uses AS iu").
		ColumnExpr("iu.user_id, iu.used_at, COALESCE(u.username, '') AS username, COALESCE(u.email, '') AS email").
		Join("LEFT JOIN users AS u ON u.id = iu.user_id").
		Where("iu.invitation_id = ?", id).OrderExpr("iu.id DESC").Limit(MaxInvitationUsesListed).Scan(ctx, &out)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return out, err
}
