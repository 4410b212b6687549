package models

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Account is a user with the names of its roles, as the request pipeline
// needs it to build a principal: one query per request.
type Account struct {
	User      `bun:",extend"`
	RoleNames string `bun:",scanonly"` // comma-separated
	// TwoFactor is whether the user has enrolled in TOTP sign-in (only
	// AccountByID reads it: token callers need no second factor).
	TwoFactor bool `bun:",scanonly"`
}

// Roles splits RoleNames.
func (a *Account) Roles() []string {
	if a.RoleNames == "" {
		return nil
	}
	return strings.Split(a.RoleNames, ",")
}

// AccountByID loads a user and its roles in one query.
func (s Users) AccountByID(ctx context.Context, id int64) (*Account, error) {
	a := new(Account)
	err := selectUsers(s.DB.NewSelect().Model(a), s.now()).
		ColumnExpr("(?) AS role_names", roleNamesQuery(s.DB)).
		ColumnExpr("EXISTS (SELECT 1 FROM user_two_factor AS tf WHERE tf.user_id = u.id AND tf.enabled_at IS NOT NULL) AS two_factor").
		Where("u.id = ?", id).Scan(ctx)
	return a, notFound(err, "user")
}

// roleNamesQuery is a correlated subquery giving a user's role names,
// comma-separated, in the syntax of the dialect.
func roleNamesQuery(db bun.IDB) *bun.SelectQuery {
	agg := "group_concat(r.name, ',')"
	if Dialect(db) == "postgres" {
		agg = "string_agg(r.name, ',' ORDER BY r.rank)"
	}
	return db.NewSelect().TableExpr("user_roles AS ur").
		Join("JOIN roles AS r ON r.id = ur.role_id").
		ColumnExpr(agg).Where("ur.user_id = u.id")
}

// TokenAccount is a token's record joined with its user and roles: what the
// pipeline checks for every bearer request, in one query.
type TokenAccount struct {
	Account          `bun:",extend"`
	TokenRevokedAt   *time.Time `bun:",scanonly"`
	TokenLastUsedAt  *time.Time `bun:",scanonly"`
	TokenExpiresAt   time.Time  `bun:",scanonly"`
	TokenPermissions string     `bun:",scanonly"` // comma-separated, as stored
}

// TokenPermissionList splits the token's stored permissions.
func (a *TokenAccount) TokenPermissionList() []string {
	if a.TokenPermissions == "" {
		return []string{}
	}
	return strings.Split(a.TokenPermissions, ",")
}

// TokenAccountByJTI loads a token's record with its user and roles.
func (s Users) TokenAccountByJTI(ctx context.Context, jti string) (*TokenAccount, error) {
	a := new(TokenAccount)
	err := selectUsers(s.DB.NewSelect().Model(a), s.now()).
		ColumnExpr("(?) AS role_names", roleNamesQuery(s.DB)).
		ColumnExpr("at.revoked_at AS token_revoked_at, at.last_used_at AS token_last_used_at").
		ColumnExpr("at.expires_at AS token_expires_at, at.permissions AS token_permissions").
		Join("JOIN api_tokens AS at ON at.user_id = u.id").
		Where("at.jti = ?", jti).Scan(ctx)
	return a, notFound(err, "token")
}
