package models

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"
)

// TwoFactor is a user's TOTP enrolment: from setup on, enabled once a code
// from the person's app confirmed it. Secret is sealed (auth.SecretBox).
type TwoFactor struct {
	bun.BaseModel `bun:"table:user_two_factor,alias:tf"`

	UserID    int64      `bun:",pk"`
	Secret    string     `bun:",notnull"`
	EnabledAt *time.Time `bun:""`
	LastStep  int64      `bun:",notnull"`
	CreatedAt time.Time  `bun:",notnull"`
}

// RecoveryCode is one of a user's one-time recovery codes, by its digest.
type RecoveryCode struct {
	bun.BaseModel `bun:"table:user_recovery_codes,alias:rc"`

	ID       int64      `bun:",pk,autoincrement"`
	UserID   int64      `bun:",notnull"`
	CodeHash string     `bun:",notnull"`
	UsedAt   *time.Time `bun:""`
}

// TwoFactorOf returns the user's enrolment, enabled or pending; ErrNotFound
// when there is none.
func (s Auth) TwoFactorOf(ctx context.Context, userID int64) (*TwoFactor, error) {
	tf := new(TwoFactor)
	err := s.db(ctx).NewSelect().Model(tf).Where("user_id = ?", userID).Scan(ctx)
	return tf, notFound(err, "two-factor enrolment")
}

// StartTwoFactor stores a new, not yet enabled secret for the user,
// replacing a pending one. An enabled enrolment is ErrConflict: it must be
// disabled first. It is one upsert, so setups racing each other replace
// each other's pending secret in turn, as one after another would; the
// last to commit is the one the app's code must match.
func (s Auth) StartTwoFactor(ctx context.Context, userID int64, sealed string) error {
	return s.Change(ctx, func(ctx context.Context) error {
		res, err := s.db(ctx).NewInsert().Model(&TwoFactor{UserID: userID, Secret: sealed, CreatedAt: s.now()}).
			On("CONFLICT (user_id) DO UPDATE").
			Set("secret = EXCLUDED.secret, last_step = EXCLUDED.last_step, created_at = EXCLUDED.created_at").
			Where("tf.enabled_at IS NULL").Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrConflict // enabled: the update's condition held it back
		}
		return nil
	})
}

// EnableTwoFactor turns a pending enrolment on, records the step of the
// code that confirmed it (so it cannot be used again) and replaces the
// recovery codes with hashes. No pending enrolment: ErrNotFound.
func (s Auth) EnableTwoFactor(ctx context.Context, userID, step int64, hashes []string) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		res, err := db.NewUpdate().Model((*TwoFactor)(nil)).Set("enabled_at = ?", s.now()).Set("last_step = ?", step).
			Where("user_id = ? AND enabled_at IS NULL", userID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(sql.ErrNoRows, "pending two-factor enrolment")
		}
		if _, err := db.NewDelete().Model((*RecoveryCode)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
			return err
		}
		codes := make([]RecoveryCode, len(hashes))
		for i, h := range hashes {
			codes[i] = RecoveryCode{UserID: userID, CodeHash: h}
		}
		_, err = db.NewInsert().Model(&codes).Exec(ctx)
		return err
	})
}

// UseTOTPStep records step as the user's latest accepted code, only if it
// is later than the last one: false means the code was already used (by a
// concurrent request too, as the update is conditional).
func (s Auth) UseTOTPStep(ctx context.Context, userID, step int64) (bool, error) {
	res, err := s.db(ctx).NewUpdate().Model((*TwoFactor)(nil)).Set("last_step = ?", step).
		Where("user_id = ? AND last_step < ? AND enabled_at IS NOT NULL", userID, step).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UseRecoveryCode spends the user's unused recovery code with this digest:
// false when there is none. It returns how many unused codes remain.
func (s Auth) UseRecoveryCode(ctx context.Context, userID int64, hash string) (bool, int, error) {
	db := s.db(ctx)
	res, err := db.NewUpdate().Model((*RecoveryCode)(nil)).Set("used_at = ?", s.now()).
		Where("user_id = ? AND code_hash = ? AND used_at IS NULL", userID, hash).Exec(ctx)
	if err != nil {
		return false, 0, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, 0, err
	}
	left, err := db.NewSelect().Model((*RecoveryCode)(nil)).Where("user_id = ? AND used_at IS NULL", userID).Count(ctx)
	return true, int(left), err
}

// DisableTwoFactor removes the user's enrolment and recovery codes; false
// when there was nothing to remove.
func (s Auth) DisableTwoFactor(ctx context.Context, userID int64) (bool, error) {
	var removed bool
	err := s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		res, err := db.NewDelete().Model((*TwoFactor)(nil)).Where("user_id = ?", userID).Exec(ctx)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		removed = n > 0
		_, err = db.NewDelete().Model((*RecoveryCode)(nil)).Where("user_id = ?", userID).Exec(ctx)
		return err
	})
	return removed, err
}

// TwoFactorEnabled reports whether the user has an enabled enrolment.
func (s Auth) TwoFactorEnabled(ctx context.Context, userID int64) (bool, error) {
	tf, err := s.TwoFactorOf(ctx, userID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil && tf.EnabledAt != nil, err
}
