package models

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// AnalyzeAll brings the query planner's statistics up to date for every
// table, as a bulk load (seed, restore) leaves them behind: without them
// PostgreSQL guesses at row counts and walks whole tables where an index
// would do. SQLite's optimize analyzes the tables whose statistics are
// missing or far off.
func AnalyzeAll(ctx context.Context, db bun.IDB) error {
	stmt := "ANALYZE"
	if Dialect(db) == "sqlite" {
		stmt = sqliteOptimize
	}
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("planner statistics: %w", err)
	}
	return nil
}

// sqliteOptimize looks at every table, not only those this connection has
// queried (0x10000), and analyzes those that need it (0x02).
const sqliteOptimize = "PRAGMA optimize=0x10002"

// staleTables are the tables whose statistics are missing, or older than
// a tenth of their rows' changes (autovacuum's own default rule), so that
// the periodic refresh skips tables that did not move.
const staleTables = `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) FROM pg_stat_user_tables
	WHERE schemaname = current_schema()
	AND ((last_analyze IS NULL AND last_autoanalyze IS NULL) OR n_mod_since_analyze > 50 + n_live_tup / 10)`

// RefreshPlannerStats analyzes the tables whose statistics have gone
// stale, for the periodic job: a database whose autovacuum is off (or
// behind) still plans from current figures. It returns how many tables it
// analyzed on PostgreSQL; SQLite's optimize does not tell, and counts 0.
func (s Maintenance) RefreshPlannerStats(ctx context.Context) (int64, error) {
	if s.Dialect() == "sqlite" {
		return 0, AnalyzeAll(ctx, s.DB)
	}
	var tables []string
	if err := s.DB.NewRaw(staleTables).Scan(ctx, &tables); err != nil {
		return 0, fmt.Errorf("stale statistics: %w", err)
	}
	for _, t := range tables {
		if _, err := s.DB.ExecContext(ctx, "ANALYZE "+t); err != nil {
			return 0, fmt.Errorf("analyze %s: %w", t, err)
		}
	}
	return int64(len(tables)), nil
}
