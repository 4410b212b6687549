package models_test

import (
	"context"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/models/migrations"
)

func TestMigrateFromEmpty(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db, _ := dbtest.OpenEmpty(t, dialect)
			first, err := models.Migrate(ctx, db, discard())
			if err != nil {
				t.Fatalf("first migrate: %v", err)
			}
			if got, want := len(first.Applied), len(migrationNames(t, dialect)); got != want {
				t.Errorf("applied %d migrations, want %d", got, want)
			}
			if first.RiverApplied == 0 {
				t.Error("job-queue migrations were not applied")
			}
			second, err := models.Migrate(ctx, db, discard())
			if err != nil {
				t.Fatalf("second migrate: %v", err)
			}
			if len(second.Applied) != 0 || second.RiverApplied != 0 {
				t.Errorf("second start applied %v and %d river migrations, want nothing", second.Applied, second.RiverApplied)
			}
			pending, err := models.PendingMigrations(ctx, db)
			if err != nil || len(pending) != 0 {
				t.Errorf("pending after migrate = %v, %v; want none", pending, err)
			}
		})
	}
}

func TestMigrationsSameStepsOnBothDialects(t *testing.T) {
	pg, lite := migrationNames(t, config.DialectPostgres), migrationNames(t, config.DialectSQLite)
	if !slices.Equal(pg, lite) {
		t.Errorf("postgres steps %v\nsqlite steps   %v", pg, lite)
	}
	for _, n := range pg {
		if !strings.HasSuffix(n, ".tx.up.sql") && !strings.HasSuffix(n, ".tx.down.sql") {
			t.Errorf("%s: every step runs in a transaction (.tx.up.sql / .tx.down.sql)", n)
		}
	}
}

func TestMigrationsRollBackAndReapply(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db := dbtest.Open(t, dialect)
			if err := models.Rollback(ctx, db); err != nil {
				t.Fatalf("rollback: %v", err)
			}
			if n := countTables(t, db, "users"); n != 0 {
				t.Fatalf("users table survived the rollback")
			}
			res, err := models.Migrate(ctx, db, discard())
			if err != nil || len(res.Applied) == 0 {
				t.Fatalf("re-apply = %v, %v", res.Applied, err)
			}
		})
	}
}

// TestSchemaMatchesModels compares every model's fields with its table's
// columns, so a migration and a model cannot drift apart unnoticed.
func TestSchemaMatchesModels(t *testing.T) {
	// Columns the database maintains for search; no model reads them.
	dbOnly := map[string]bool{"posts.search_vector": true}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		for _, m := range models.All() {
			table := db.Table(bunType(m))
			var want []string
			for _, f := range table.Fields {
				want = append(want, f.Name)
			}
			got := columns(t, db, table.Name)
			got = slices.DeleteFunc(got, func(c string) bool { return dbOnly[table.Name+"."+c] })
			sort.Strings(want)
			sort.Strings(got)
			if !slices.Equal(got, want) {
				t.Errorf("table %s\n columns %v\n model   %v", table.Name, got, want)
			}
		}
	})
}

func migrationNames(t *testing.T, dialect string) []string {
	t.Helper()
	files, err := migrations.For(dialect)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".up.sql") {
			names = append(names, e.Name())
		}
	}
	return names
}

func columns(t *testing.T, db *bun.DB, table string) []string {
	t.Helper()
	var cols []string
	var err error
	if models.Dialect(db) == config.DialectPostgres {
		err = db.NewRaw(`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`, table).Scan(context.Background(), &cols)
	} else {
		err = db.NewRaw(`SELECT name FROM pragma_table_info(?)`, table).Scan(context.Background(), &cols)
	}
	if err != nil {
		t.Fatalf("columns of %s: %v", table, err)
	}
	if len(cols) == 0 {
		t.Errorf("table %s does not exist", table)
	}
	return cols
}

func countTables(t *testing.T, db *bun.DB, name string) int {
	t.Helper()
	var n int
	q := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if models.Dialect(db) == config.DialectPostgres {
		q = `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`
	}
	if err := db.NewRaw(q, name).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSessionKeyMigration runs the step that keys sessions by hash over a
// database holding a session and a maintenance job by raw token: PostgreSQL
// converts both in place (the session still opens with its cookie), SQLite
// ends the session.
func TestSessionKeyMigration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ss := s.Auth.Sessions(0, nil)
		const token = "an-old-raw-token"
		_, err := db.NewInsert().Model(&models.Session{Token: token, Data: []byte("x"), Expiry: time.Now().Add(time.Hour)}).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
		postgres := models.Dialect(db) == config.DialectPostgres
		if postgres {
			_, err := db.ExecContext(ctx, `INSERT INTO river_job (args, kind, max_attempts, state, queue, priority)
				VALUES ('{"id":"j1","keepSession":"`+token+`"}', 'maintenance', 1, 'available', 'default', 1)`)
			if err != nil {
				t.Fatal(err)
			}
		}
		files, err := migrations.For(models.Dialect(db))
		if err != nil {
			t.Fatal(err)
		}
		up, err := fs.ReadFile(files, "20261126510000_session_keys.tx.up.sql")
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range strings.Split(string(up), "--bun:split") {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		found := sessionOpens(t, ss, token)
		if postgres != found {
			t.Errorf("after the migration the old session opens: %t (postgres: %t)", found, postgres)
		}
		raw, _ := db.NewSelect().Model((*models.Session)(nil)).Where("token = ?", token).Count(ctx)
		if raw != 0 {
			t.Error("a raw token is still stored")
		}
		if postgres {
			var args string
			db.QueryRowContext(ctx, "SELECT args::text FROM river_job WHERE kind = 'maintenance'").Scan(&args)
			if strings.Contains(args, token) || !strings.Contains(args, models.SessionKey(token)) {
				t.Errorf("job arguments after the migration: %s", args)
			}
		}
	})
}

func sessionOpens(t *testing.T, ss models.SessionStore, token string) bool {
	t.Helper()
	_, ok, err := ss.FindCtx(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}
