package models

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// APITokenByJTI finds a token by its jti.
func (s *Store) APITokenByJTI(ctx context.Context, jti string) (*APIToken, error) {
	t := new(APIToken)
	err := s.DB.NewSelect().Model(t).Where("jti = ?", jti).Scan(ctx)
	return t, notFound(err, "token "+jti)
}

// ListAPITokens lists tokens that have not expired, newest first.
func (s *Store) ListAPITokens(ctx context.Context) ([]APIToken, error) {
	var ts []APIToken
	err := s.DB.NewSelect().Model(&ts).Where("expires_at > ?", s.now()).OrderExpr("created_at DESC").Scan(ctx)
	return ts, err
}

// RevokeAPIToken marks a token revoked; an unknown jti is ErrNotFound.
func (s *Store) RevokeAPIToken(ctx context.Context, db bun.IDB, jti string) error {
	res, err := db.NewUpdate().Model((*APIToken)(nil)).Set("revoked_at = ?", s.now()).
		Where("jti = ? AND revoked_at IS NULL", jti).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.APITokenByJTI(ctx, jti); err != nil {
			return err
		}
	}
	return nil
}

// TouchAPIToken records a token's use at most once a minute, so that busy
// clients do not turn every read into a write.
func (s *Store) TouchAPIToken(ctx context.Context, jti string) error {
	now := s.now()
	_, err := s.DB.NewUpdate().Model((*APIToken)(nil)).Set("last_used_at = ?", now).
		Where("jti = ? AND (last_used_at IS NULL OR last_used_at < ?)", jti, now.Add(-time.Minute)).Exec(ctx)
	return err
}

// DeleteExpiredAPITokens removes tokens past their expiry, for the periodic sweep.
func (s *Store) DeleteExpiredAPITokens(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*APIToken)(nil)).Where("expires_at <= ?", s.now()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
