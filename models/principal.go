package models

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// Account is a user with the names of its roles, as the request pipeline
// needs it to build a principal: one query per request.
type Account struct {
	User      `bun:",extend"`
	RoleNames string `bun:",scanonly"` // comma-separated
}

// Roles splits RoleNames.
func (a *Account) Roles() []string {
	if a.RoleNames == "" {
		return nil
	}
	return strings.Split(a.RoleNames, ",")
}

// AccountByID loads a user and its roles in one query.
func (s *Store) AccountByID(ctx context.Context, id int64) (*Account, error) {
	a := new(Account)
	err := s.DB.NewSelect().Model(a).
		ColumnExpr("u.*").
		ColumnExpr("(?) AS role_names", roleNamesQuery(s.DB)).
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
