package models_test

import (
	"errors"
	"log/slog"
	"reflect"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func bunType(m any) reflect.Type { return reflect.TypeOf(m).Elem() }

// isCheckViolation reports whether err is the database refusing a row under
// the CHECK constraint named constraint (SQLSTATE 23514 on PostgreSQL,
// SQLITE_CONSTRAINT_CHECK on SQLite), so that a test expecting that refusal
// is not satisfied by some other error, such as a typo in its own SQL.
func isCheckViolation(err error, constraint string) bool {
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		return pgErr.Code == "23514" && pgErr.ConstraintName == constraint
	}
	if liteErr, ok := errors.AsType[*sqlite.Error](err); ok {
		return liteErr.Code() == sqlite3.SQLITE_CONSTRAINT_CHECK &&
			strings.Contains(liteErr.Error(), "CHECK constraint failed: "+constraint)
	}
	return false
}
