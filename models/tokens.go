package models

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/plazahq/plaza/internal/auth"
)

// NewAPIToken is the record of a minted token: its claims, a name to know
// it by and who made it (nil for the command line).
func NewAPIToken(c auth.TokenClaims, name string, createdBy *int64) *APIToken {
	return &APIToken{JTI: c.ID, UserID: c.UserID, Name: name, Permissions: strings.Join(c.Permissions, ","),
		CreatedBy: createdBy, CreatedAt: c.IssuedAt, ExpiresAt: c.ExpiresAt}
}

// RecordAPIToken stores a minted token's record by its jti; the JWT itself
// is never stored. A zero CreatedAt is now.
func (s Auth) RecordAPIToken(ctx context.Context, t *APIToken) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = s.now()
	}
	_, err := s.db(ctx).NewInsert().Model(t).Exec(ctx)
	return err
}

// PermissionList splits the stored permissions.
func (t *APIToken) PermissionList() []string {
	if t.Permissions == "" {
		return []string{}
	}
	return strings.Split(t.Permissions, ",")
}

// APITokenByJTI finds a token by its jti.
func (s Auth) APITokenByJTI(ctx context.Context, jti string) (*APIToken, error) {
	t := new(APIToken)
	err := s.db(ctx).NewSelect().Model(t).Where("jti = ?", jti).Scan(ctx)
	return t, notFound(err, "token "+jti)
}

// ListAPITokens lists tokens that have not expired, newest first.
func (s Auth) ListAPITokens(ctx context.Context) ([]APIToken, error) {
	var ts []APIToken
	err := s.db(ctx).NewSelect().Model(&ts).Where("expires_at > ?", s.now()).OrderExpr("created_at DESC").Scan(ctx)
	return ts, err
}

// RevokeAPIToken marks a token revoked; an unknown jti is ErrNotFound.
func (s Auth) RevokeAPIToken(ctx context.Context, jti string) error {
	res, err := s.db(ctx).NewUpdate().Model((*APIToken)(nil)).Set("revoked_at = ?", s.now()).
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

// RevokeUserAPITokens revokes every live token of the user's and reports
// how many.
func (s Auth) RevokeUserAPITokens(ctx context.Context, userID int64) (int, error) {
	now := s.now()
	res, err := s.db(ctx).NewUpdate().Model((*APIToken)(nil)).Set("revoked_at = ?", now).
		Where("user_id = ? AND revoked_at IS NULL AND expires_at > ?", userID, now).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("revoke tokens of user %d: %w", userID, err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// TouchAPIToken records a token's use at most once a minute, so that busy
// clients do not turn every read into a write.
func (s Auth) TouchAPIToken(ctx context.Context, jti string) error {
	now := s.now()
	_, err := s.DB.NewUpdate().Model((*APIToken)(nil)).Set("last_used_at = ?", now).
		Where("jti = ? AND (last_used_at IS NULL OR last_used_at < ?)", jti, now.Add(-time.Minute)).Exec(ctx)
	return err
}

// DeleteExpiredAPITokens removes tokens past their expiry, for the periodic sweep.
func (s Auth) DeleteExpiredAPITokens(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*APIToken)(nil)).Where("expires_at <= ?", s.now()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
