package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// EmailVerification is an account's one open verification link: the
// address it verifies (the account's own, or the new one of a change),
// the token's hash (the token itself is only in the mail) and when it
// stops working.
type EmailVerification struct {
	bun.BaseModel `bun:"table:email_verifications,alias:ev"`

	UserID    int64     `bun:",pk"`
	Email     string    `bun:",notnull"`
	TokenHash string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
	ExpiresAt time.Time `bun:",notnull"`
}

// OpenEmailVerification stores the verification of email for account
// userID, whose token hashes to tokenHash, valid for validFor; it replaces
// the account's earlier one, whose link stops working, and returns when
// the new one expires. Call it inside a change.
func (s Auth) OpenEmailVerification(ctx context.Context, userID int64, email, tokenHash string, validFor time.Duration) (time.Time, error) {
	db := s.db(ctx)
	if _, err := db.NewDelete().Model((*EmailVerification)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return time.Time{}, fmt.Errorf("replace email verification: %w", err)
	}
	now := s.now()
	v := &EmailVerification{UserID: userID, Email: NormalizeEmail(email), TokenHash: tokenHash, CreatedAt: now, ExpiresAt: now.Add(validFor)}
	if _, err := db.NewInsert().Model(v).Exec(ctx); err != nil {
		return time.Time{}, fmt.Errorf("open email verification: %w", err)
	}
	return v.ExpiresAt, nil
}

// EmailVerificationByToken is the open verification whose token hashes to
// tokenHash; a token unknown, replaced, used or expired is ErrNotFound.
func (s Auth) EmailVerificationByToken(ctx context.Context, tokenHash string) (*EmailVerification, error) {
	v := new(EmailVerification)
	err := s.db(ctx).NewSelect().Model(v).Where("ev.token_hash = ? AND ev.expires_at > ?", tokenHash, s.now()).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("email verification: %w", ErrNotFound)
	}
	return v, err
}

// UseEmailVerification spends the verification whose token hashes to
// tokenHash, once: of two uses racing, one finds it gone (ErrNotFound).
// Call it inside the change that verifies the address.
func (s Auth) UseEmailVerification(ctx context.Context, tokenHash string) error {
	res, err := s.db(ctx).NewDelete().Model((*EmailVerification)(nil)).
		Where("token_hash = ? AND expires_at > ?", tokenHash, s.now()).Exec(ctx)
	return oneRow(res, err, "email verification")
}

// ConfirmEmail makes email user id's address, verified now: the account's
// own address confirmed, or the new one of a change. An address another
// account has is ErrEmailTaken. Call it inside a change.
func (s Users) ConfirmEmail(ctx context.Context, id int64, email string) (*User, error) {
	taken, err := s.EmailTaken(ctx, id, email)
	if err != nil {
		return nil, fmt.Errorf("confirm email: %w", err)
	}
	if taken {
		return nil, ErrEmailTaken
	}
	if err := s.ChangeEmail(ctx, id, email); err != nil {
		return nil, err // ErrEmailTaken when an account took it since the look above
	}
	_, err = s.db(ctx).NewUpdate().Model((*User)(nil)).Set("email_verified = ?", s.now()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("confirm email: %w", err)
	}
	return s.UserByID(ctx, id)
}

// EmailTaken reports whether an account other than id has email
// (ignoring case).
func (s Users) EmailTaken(ctx context.Context, id int64, email string) (bool, error) {
	return s.db(ctx).NewSelect().Model((*User)(nil)).Where("lower(u.email) = ? AND u.id <> ?", NormalizeEmail(email), id).Exists(ctx)
}
