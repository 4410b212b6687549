package models

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/auth"
)

// MintAPIToken signs an admin JWT for userID and records it by jti. The JWT
// is returned once and never stored.
func (s *Store) MintAPIToken(ctx context.Context, db bun.IDB, secret []byte, userID int64, perms []string, ttl time.Duration, name string, createdBy *int64) (string, *APIToken, error) {
	now := s.now()
	rec := &APIToken{JTI: rand.Text(), UserID: userID, Name: name, Permissions: strings.Join(perms, ","),
		CreatedBy: createdBy, CreatedAt: now, ExpiresAt: now.Add(ttl)}
	tok, err := auth.SignToken(secret, auth.TokenClaims{UserID: userID, Permissions: perms, IssuedAt: now, ExpiresAt: rec.ExpiresAt, ID: rec.JTI})
	if err != nil {
		return "", nil, err
	}
	if _, err := db.NewInsert().Model(rec).Exec(ctx); err != nil {
		return "", nil, err
	}
	return tok, rec, nil
}

// PermissionList splits the stored permissions.
func (t *APIToken) PermissionList() []string {
	if t.Permissions == "" {
		return []string{}
	}
	return strings.Split(t.Permissions, ",")
}
