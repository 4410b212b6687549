// Package dbtest gives tests real, isolated, migrated databases: a fresh
// SQLite file per test and, when a PostgreSQL server answers, a fresh
// PostgreSQL database per test, cloned from a migrated template.
package dbtest

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/migrations"
)

// DefaultPostgresURL is the server tried when TEST_DATABASE_URL is unset.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Dialects run by ForEach.
var Dialects = []string{config.DialectSQLite, config.DialectPostgres}

// ForEach runs fn once per dialect, each with its own fresh migrated database.
func ForEach(t *testing.T, fn func(t *testing.T, db *bun.DB)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(d, func(t *testing.T) {
			fn(t, Open(t, d))
		})
	}
}

// Open returns a fresh migrated database of the dialect, closed and removed
// when the test ends.
func Open(t testing.TB, dialect string) *bun.DB {
	t.Helper()
	db, _ := OpenURL(t, dialect)
	return db
}

// OpenURL is Open that also returns the DATABASE_URL of the database, for
// tests that start Plaza the way an operator does.
func OpenURL(t testing.TB, dialect string) (*bun.DB, string) {
	t.Helper()
	if dialect == config.DialectSQLite {
		path := filepath.Join(t.TempDir(), "plaza.db")
		copySQLiteTemplate(t, path)
		u := "sqlite://" + path
		return connect(t, u), u
	}
	u := createPostgres(t, templateName(t))
	return connect(t, u), u
}

// copySQLiteTemplate writes a migrated SQLite database to path, a copy of
// the template for the current migrations (sqliteTemplate): a test's
// database opened this way took about 10 ms here, against about a tenth of
// a second for running every migration.
func copySQLiteTemplate(t testing.TB, path string) {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err == nil {
		err = copyFile(tmpl, path)
		if errors.Is(err, fs.ErrNotExist) { // removed as stale by a test binary of other migrations
			if tmpl, err = buildSQLiteTemplate(); err == nil {
				err = copyFile(tmpl, path)
			}
		}
	}
	if err != nil {
		t.Fatalf("sqlite template: %v", err)
	}
}

// sqliteTemplate is buildSQLiteTemplate, once per test binary.
var sqliteTemplate = sync.OnceValues(buildSQLiteTemplate)

// buildSQLiteTemplate returns the path of a migrated SQLite database for
// the current migrations, kept in the temporary directory under their hash
// as the PostgreSQL template is kept on its server, and built there when
// missing. It is written aside and renamed into place, so that test
// binaries running at once never read half of one.
func buildSQLiteTemplate() (string, error) {
	hash, err := hashMigrations(config.DialectSQLite)
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), sqliteTemplatePrefix+hash+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	dir, err := os.MkdirTemp("", "plaza-sqlite-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	parsed, err := config.ParseDatabaseURL("sqlite://" + filepath.Join(dir, "build.db"))
	if err != nil {
		return "", err
	}
	db, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 1})
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "template.db")
	_, err = models.Migrate(context.Background(), db, quiet())
	if err == nil {
		// One file, whole: nothing left in a write-ahead log beside it.
		_, err = db.ExecContext(context.Background(), "VACUUM INTO ?", out)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	// Templates of other migrations go; the current one is only ever
	// replaced, atomically, so that no test binary finds it missing.
	stale, _ := filepath.Glob(filepath.Join(os.TempDir(), sqliteTemplatePrefix+"*.db"))
	for _, f := range stale {
		if f != path {
			os.Remove(f) // best effort, like dropStaleTemplates
		}
	}
	return path, os.Rename(out, path)
}

const sqliteTemplatePrefix = "plaza-sqlite-tmpl-"

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// OpenEmpty returns a fresh database of the dialect with no schema at all.
func OpenEmpty(t testing.TB, dialect string) (*bun.DB, string) {
	t.Helper()
	if dialect == config.DialectSQLite {
		u := "sqlite://" + filepath.Join(t.TempDir(), "plaza.db")
		return connect(t, u), u
	}
	u := createPostgres(t, "template0")
	return connect(t, u), u
}

// PostgresServerURL is the PostgreSQL server tests use. When none answers the
// test is skipped loudly, or fails when REQUIRE_POSTGRES=1 (as in CI).
func PostgresServerURL(t testing.TB) string {
	t.Helper()
	u := cmp.Or(os.Getenv("TEST_DATABASE_URL"), DefaultPostgresURL)
	serverOnce.Do(func() { serverErr = ping(u) })
	if serverErr != nil {
		if os.Getenv("REQUIRE_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL is required (REQUIRE_POSTGRES=1) but %s does not answer: %v", redact(u), serverErr)
		}
		t.Skipf("SKIPPING PostgreSQL test: %s does not answer (%v); set TEST_DATABASE_URL or start PostgreSQL", redact(u), serverErr)
	}
	return u
}

var (
	serverOnce sync.Once
	serverErr  error
)

// Available reports whether tests can run on the dialect: SQLite always,
// PostgreSQL when a server answers. When none does it logs so loudly, or
// fails the test when REQUIRE_POSTGRES=1 (as in CI); for tests that run on
// what there is, like a fuzz target, where a skip would skip SQLite too.
func Available(t testing.TB, dialect string) bool {
	t.Helper()
	if dialect != config.DialectPostgres {
		return true
	}
	u := cmp.Or(os.Getenv("TEST_DATABASE_URL"), DefaultPostgresURL)
	serverOnce.Do(func() { serverErr = ping(u) })
	if serverErr == nil {
		return true
	}
	if os.Getenv("REQUIRE_POSTGRES") == "1" {
		t.Fatalf("PostgreSQL is required (REQUIRE_POSTGRES=1) but %s does not answer: %v", redact(u), serverErr)
	}
	t.Logf("SKIPPING PostgreSQL here: %s does not answer (%v)", redact(u), serverErr)
	return false
}

func ping(u string) error {
	db, err := sql.Open("pgx", u)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}

// URL is the DATABASE_URL of a database this package opened.
func URL(t testing.TB, db *bun.DB) string {
	t.Helper()
	u, ok := urls.Load(db)
	if !ok {
		t.Fatal("dbtest.URL: database not opened by dbtest")
	}
	return u.(string)
}

var urls sync.Map // *bun.DB → its URL

// Through opens db's PostgreSQL database again by way of addr (host:port),
// a proxy in front of the server such as tcpproxy's, so that a test can cut
// the connection between them; URL gives the proxied address. Closed when
// the test ends.
func Through(t testing.TB, db *bun.DB, addr string) *bun.DB {
	t.Helper()
	u, err := url.Parse(URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return connect(t, u.String())
}

// ServerAddr is the host:port of the PostgreSQL server tests use.
func ServerAddr(t testing.TB) string {
	t.Helper()
	u, err := url.Parse(PostgresServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func connect(t testing.TB, u string) *bun.DB {
	t.Helper()
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	db, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 8})
	if err != nil {
		t.Fatalf("open %s: %v", parsed.Dialect, err)
	}
	urls.Store(db, u)
	t.Cleanup(func() { urls.Delete(db); db.Close() })
	return db
}

// createPostgres creates a database from a template, to be dropped once
// the test ends. A clone of the migrated template is taken from the spares
// cloned ahead (spare).
func createPostgres(t testing.TB, template string) string {
	t.Helper()
	server := PostgresServerURL(t)
	own := owner(t, server)
	name := spare(server, own, template)
	if name == "" {
		name = testDatabaseName(own)
		if err := createDatabase(server, name, template); err != nil {
			t.Fatalf("create test database: %v", err)
		}
	}
	t.Cleanup(func() { dropLater(server, name) })
	return withDatabase(server, name)
}

// createDatabase clones template as name.
func createDatabase(server, name, template string) error {
	admin, err := sql.Open("pgx", server)
	if err != nil {
		return err
	}
	defer admin.Close()
	for range 20 { // a template being cloned by another test is briefly busy
		_, err = admin.ExecContext(context.Background(), fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, template))
		if err == nil || !strings.Contains(err.Error(), "being accessed by other users") {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// templateName returns a migrated template database for the current
// migrations, building it once (under an advisory lock, so parallel test
// binaries build it once between them).
func templateName(t testing.TB) string {
	t.Helper()
	server := PostgresServerURL(t)
	name := "plaza_tmpl_" + migrationsHash(t)
	admin := adminDB(t, server)
	defer admin.Close()
	ctx := context.Background()
	conn, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(727274)`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock(727274)`) //nolint:errcheck
	var exists bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		return name
	}
	building := name + "_building"
	stmts := []string{
		dropStatement(building),
		fmt.Sprintf(`CREATE DATABASE %s TEMPLATE template0`, building),
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("build template: %v", err)
		}
	}
	db := connectRaw(t, withDatabase(server, building))
	if _, err := models.Migrate(ctx, db, quiet()); err != nil {
		db.Close()
		t.Fatalf("migrate template: %v", err)
	}
	db.Close()
	dropStaleTemplates(t, conn)
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`ALTER DATABASE %s RENAME TO %s`, building, name)); err != nil {
		t.Fatalf("publish template: %v", err)
	}
	return name
}

func connectRaw(t testing.TB, u string) *bun.DB {
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	db, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func dropStaleTemplates(t testing.TB, conn *sql.Conn) {
	rows, err := conn.QueryContext(context.Background(), `SELECT datname FROM pg_database WHERE datname LIKE 'plaza_tmpl_%' AND datname NOT LIKE '%_building'`)
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err == nil {
			stale = append(stale, n)
		}
	}
	rows.Close()
	for _, n := range stale {
		conn.ExecContext(context.Background(), dropStatement(n)) //nolint:errcheck // best effort
	}
}

func adminDB(t testing.TB, server string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", server)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func migrationsHash(t testing.TB) string {
	h, err := hashMigrations(config.DialectPostgres)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// hashMigrations names the dialect's migrations by their files' names and
// contents.
func hashMigrations(dialect string) (string, error) {
	h := sha256.New()
	files, err := migrations.For(dialect)
	if err != nil {
		return "", err
	}
	err = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		h.Write([]byte(p))
		h.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func withDatabase(server, name string) string {
	u, _ := url.Parse(server)
	u.Path = "/" + name
	return u.String()
}

func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "the configured server"
	}
	return p.Redacted()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }
