package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// PasswordReset is an account's one open password reset: the token's
// hash (the token itself is only in the mail) and when it stops working.
type PasswordReset struct {
	bun.BaseModel `bun:"table:password_resets,alias:pr"`

	UserID    int64     `bun:",pk"`
	TokenHash string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
	ExpiresAt time.Time `bun:",notnull"`
}

// OpenPasswordReset stores the reset of account userID, whose token hashes
// to tokenHash, valid for validFor; it replaces the account's earlier
// reset, whose link stops working, and returns when the new one expires.
// Call it inside a change.
func (s Auth) OpenPasswordReset(ctx context.Context, userID int64, tokenHash string, validFor time.Duration) (time.Time, error) {
	db := s.db(ctx)
	if _, err := db.NewDelete().Model((*PasswordReset)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return time.Time{}, fmt.Errorf("replace password reset: %w", err)
	}
	now := s.now()
	r := &PasswordReset{UserID: userID, TokenHash: tokenHash, CreatedAt: now, ExpiresAt: now.Add(validFor)}
	if _, err := db.NewInsert().Model(r).Exec(ctx); err != nil {
		return time.Time{}, fmt.Errorf("open password reset: %w", err)
	}
	return r.ExpiresAt, nil
}

// PasswordResetUser is the account whose open reset's token hashes to
// tokenHash; a token unknown, replaced, used or expired is ErrNotFound.
func (s Auth) PasswordResetUser(ctx context.Context, tokenHash string) (int64, error) {
	r := new(PasswordReset)
	err := s.db(ctx).NewSelect().Model(r).Where("pr.token_hash = ? AND pr.expires_at > ?", tokenHash, s.now()).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("password reset: %w", ErrNotFound)
	}
	return r.UserID, err
}

// UsePasswordReset spends the reset whose token hashes to tokenHash, once:
// of two uses racing, one finds it gone (ErrNotFound). Call it inside the
// change that sets the new password.
func (s Auth) UsePasswordReset(ctx context.Context, tokenHash string) error {
	res, err := s.db(ctx).NewDelete().Model((*PasswordReset)(nil)).
		Where("token_hash = ? AND expires_at > ?", tokenHash, s.now()).Exec(ctx)
	return oneRow(res, err, "password reset")
}
