package config

import (
	"errors"
	"net/url"
	"strings"
)

// Database dialects Plaza runs on.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// Database is a parsed DATABASE_URL.
type Database struct {
	Dialect string
	// DSN is what the driver receives: the URL itself for PostgreSQL, the
	// file path for SQLite.
	DSN string
}

// ParseDatabaseURL accepts postgres://…, postgresql://…, sqlite://PATH and
// file:PATH.
func ParseDatabaseURL(raw string) (Database, error) {
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return Database{}, errors.New("expected postgres://user@host:port/dbname")
		}
		return Database{Dialect: DialectPostgres, DSN: raw}, nil
	case strings.HasPrefix(raw, "sqlite://"):
		return sqlitePath(strings.TrimPrefix(raw, "sqlite://"))
	case strings.HasPrefix(raw, "file:"):
		return sqlitePath(strings.TrimPrefix(raw, "file:"))
	}
	return Database{}, errors.New("expected postgres://…, sqlite://PATH or file:PATH")
}

func sqlitePath(p string) (Database, error) {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if p == "" {
		return Database{}, errors.New("expected a file path after sqlite:// or file: (e.g. sqlite://data/plaza.db)")
	}
	return Database{Dialect: DialectSQLite, DSN: p}, nil
}
