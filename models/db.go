// Package models holds Plaza's data: bun models, the schema history of both
// dialects and the queries the handlers and engines call through a Store.
package models

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/extra/bundebug"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/plazahq/plaza/internal/config"
)

// ErrNotFound is returned when a queried row does not exist.
var ErrNotFound = errors.New("not found")

// OpenOptions tunes Open.
type OpenOptions struct {
	// DebugSQL logs every query (BUNDEBUG=1); never on by default.
	DebugSQL bool
	// MaxConns caps the pool; zero picks a default for the dialect.
	MaxConns int
}

// Open connects to the database a DATABASE_URL names and checks that it
// answers. SQLite files (and their folder) are created when missing.
func Open(ctx context.Context, db config.Database, opts OpenOptions) (*bun.DB, error) {
	var bdb *bun.DB
	switch db.Dialect {
	case config.DialectPostgres:
		sqldb, err := sql.Open("pgx", db.DSN)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		n := cmp.Or(opts.MaxConns, 4*runtime.GOMAXPROCS(0))
		sqldb.SetMaxOpenConns(n)
		sqldb.SetMaxIdleConns(n)
		sqldb.SetConnMaxIdleTime(5 * time.Minute)
		bdb = bun.NewDB(sqldb, pgdialect.New())
	case config.DialectSQLite:
		sqldb, err := openSQLite(db.DSN, cmp.Or(opts.MaxConns, max(4, runtime.GOMAXPROCS(0))))
		if err != nil {
			return nil, err
		}
		bdb = bun.NewDB(sqldb, sqlitedialect.New())
	default:
		return nil, fmt.Errorf("unknown dialect %q", db.Dialect)
	}
	if opts.DebugSQL {
		bdb = bdb.WithQueryHook(bundebug.NewQueryHook(bundebug.WithVerbose(true)))
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := bdb.PingContext(pingCtx); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("connect to %s database: %w", db.Dialect, err)
	}
	return bdb, nil
}

// openSQLite opens a file database in WAL mode with foreign keys enforced.
// Write transactions start IMMEDIATE so that two writers queue on the busy
// timeout instead of failing when one upgrades from a read.
func openSQLite(path string, conns int) (*sql.DB, error) {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	sqldb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	sqldb.SetMaxOpenConns(conns)
	sqldb.SetMaxIdleConns(conns)
	return sqldb, nil
}

// Dialect names the database kind behind db: "postgres" or "sqlite".
func Dialect(db bun.IDB) string {
	if db.Dialect().Name() == dialect.PG {
		return config.DialectPostgres
	}
	return config.DialectSQLite
}

// RawPostgresConn runs fn with the pgx connection under a pooled database/sql
// connection, for COPY. It fails on SQLite.
func RawPostgresConn(ctx context.Context, db *bun.DB, fn func(conn *stdlib.Conn) error) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("not a pgx connection: %T", dc)
		}
		return fn(pc)
	})
}
