package models

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"

	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/logging"
	"github.com/plazahq/plaza/models/migrations"
)

// MigrateResult says what Migrate applied.
type MigrateResult struct {
	Applied      []string // Plaza's own migrations applied now
	RiverApplied int      // job-queue migrations applied now
}

// sqliteMigrateMu serialises migrations within one process on SQLite, where
// Plaza runs as a single instance (several instances need PostgreSQL).
var sqliteMigrateMu sync.Mutex

// Migrate brings the schema up to date: Plaza's tables first, then the job
// queue's (River) tables. On PostgreSQL it holds an advisory lock for the
// whole run, so instances starting together migrate once, one after another,
// and a crash releases the lock with its connection.
func Migrate(ctx context.Context, db *bun.DB, log *slog.Logger) (MigrateResult, error) {
	if Dialect(db) == config.DialectSQLite {
		sqliteMigrateMu.Lock()
		defer sqliteMigrateMu.Unlock()
		return migrateLocked(ctx, db, log)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return MigrateResult{}, err
	}
	defer conn.Close()
	key := advisoryKey("plaza:migrate")
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", key); err != nil {
		return MigrateResult{}, fmt.Errorf("take migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", key) //nolint:errcheck // released with the connection anyway
	return migrateLocked(ctx, db, log)
}

func migrateLocked(ctx context.Context, db *bun.DB, log *slog.Logger) (MigrateResult, error) {
	var res MigrateResult
	m, err := migrator(db)
	if err != nil {
		return res, err
	}
	if err := m.Init(ctx); err != nil {
		return res, fmt.Errorf("init migrations: %w", err)
	}
	group, err := m.Migrate(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate: %w", err)
	}
	for _, mig := range group.Migrations {
		res.Applied = append(res.Applied, mig.Name+"_"+mig.Comment)
	}
	n, err := migrateRiver(ctx, db, log)
	if err != nil {
		return res, fmt.Errorf("migrate job queue: %w", err)
	}
	res.RiverApplied = n
	return res, nil
}

func migrator(db *bun.DB) (*migrate.Migrator, error) {
	files, err := migrations.For(Dialect(db))
	if err != nil {
		return nil, err
	}
	set := migrate.NewMigrations()
	if err := set.Discover(files); err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	return migrate.NewMigrator(db, set, migrate.WithMarkAppliedOnSuccess(true)), nil
}

// PendingMigrations lists Plaza's migrations not yet applied.
func PendingMigrations(ctx context.Context, db *bun.DB) ([]string, error) {
	m, err := migrator(db)
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, mig := range ms.Unapplied() {
		names = append(names, mig.Name)
	}
	return names, nil
}

func migrateRiver(ctx context.Context, db *bun.DB, log *slog.Logger) (int, error) {
	cfg := &rivermigrate.Config{Logger: logging.Demote(log, slog.LevelWarn)} // a line per step would bury the first start's banner
	var (
		res *rivermigrate.MigrateResult
		err error
	)
	if Dialect(db) == config.DialectSQLite {
		m, merr := rivermigrate.New(riversqlite.New(db.DB), cfg)
		if merr != nil {
			return 0, merr
		}
		res, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	} else {
		m, merr := rivermigrate.New(riverdatabasesql.New(db.DB), cfg)
		if merr != nil {
			return 0, merr
		}
		res, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	}
	if err != nil {
		return 0, err
	}
	return len(res.Versions), nil
}

func advisoryKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}

// Rollback undoes every applied migration group of Plaza's own schema, newest
// first (the job queue's tables stay). It exists for tests and for operators
// downgrading by hand.
func Rollback(ctx context.Context, db *bun.DB) error {
	m, err := migrator(db)
	if err != nil {
		return err
	}
	for {
		group, err := m.Rollback(ctx)
		if err != nil {
			return fmt.Errorf("rollback: %w", err)
		}
		if group.IsZero() {
			return nil
		}
	}
}
