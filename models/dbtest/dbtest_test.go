package dbtest

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

// A SQLite test database is a copy of the template, and the copy is as
// migrated as running every migration makes it: migrating it again
// applies nothing, and a write to it stays in it.
func TestSQLiteCopyIsMigrated(t *testing.T) {
	a := Open(t, config.DialectSQLite)
	res, err := models.Migrate(context.Background(), a, quiet())
	if err != nil || len(res.Applied) != 0 || res.RiverApplied != 0 {
		t.Fatalf("migrating a copy again applied %v and %d job-queue migrations (err %v), want none", res.Applied, res.RiverApplied, err)
	}
	if _, err := a.ExecContext(context.Background(), "INSERT INTO settings (key, value, created_at) VALUES ('dbtest', '1', CURRENT_TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	b := Open(t, config.DialectSQLite)
	var n int
	if err := b.QueryRowContext(context.Background(), "SELECT count(*) FROM settings WHERE key = 'dbtest'").Scan(&n); err != nil || n != 0 {
		t.Errorf("another test's copy holds the first copy's row (%d, err %v)", n, err)
	}
}

// A template that goes missing (removed as stale by a test binary of other
// migrations) is built again.
func TestSQLiteTemplateRebuilt(t *testing.T) {
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(tmpl); err != nil {
		t.Fatal(err)
	}
	db := Open(t, config.DialectSQLite)
	if _, err := os.Stat(tmpl); err != nil {
		t.Fatalf("the template was not built again: %v", err)
	}
	if _, err := models.Migrate(context.Background(), db, quiet()); err != nil {
		t.Fatal(err)
	}
}

// A test database outlives its test only until the next test process
// starts, and only when the process that made it has gone: a database whose
// owner still holds its lock is no orphan.
func TestOrphansAreOnlyThoseOfExitedProcesses(t *testing.T) {
	server := PostgresServerURL(t)
	mine := owner(t, server)
	admin := adminDB(t, server)
	t.Cleanup(func() { admin.Close() }) // after the drops below
	ctx := context.Background()
	orphan, kept := testDatabaseName(mine^1), testDatabaseName(mine)
	for _, name := range []string{orphan, kept} {
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.ExecContext(ctx, dropStatement(name)) }) //nolint:errcheck
	}
	conn, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	found, err := orphans(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(found, orphan) || slices.Contains(found, kept) {
		t.Errorf("orphans %v: want %s among them and not %s", found, orphan, kept)
	}
}
