package models_test

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/tcpproxy"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestUnavailableTellsOutagesFromFailures: the errors of a database that
// cannot be reached are Unavailable, wrapped or not; a client that went
// away, a slow query, a constraint, a conflict and an outbound HTTP call's
// network error are not.
func TestUnavailableTellsOutagesFromFailures(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("list users: %w", err) }
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"a plain error", errors.New("boom"), false},
		{"admin shutdown 57P01", wrap(&pgconn.PgError{Code: "57P01"}), true},
		{"crash shutdown 57P02", wrap(&pgconn.PgError{Code: "57P02"}), true},
		{"cannot connect now 57P03", wrap(&pgconn.PgError{Code: "57P03"}), true},
		{"connection failure 08006", wrap(&pgconn.PgError{Code: "08006"}), true},
		{"too many connections 53300", wrap(&pgconn.PgError{Code: "53300"}), true},
		{"unique violation 23505", wrap(&pgconn.PgError{Code: "23505"}), false},
		{"serialization failure 40001", wrap(&pgconn.PgError{Code: "40001"}), false},
		{"query canceled 57014", wrap(&pgconn.PgError{Code: "57014"}), false},
		{"a bad connection", wrap(driver.ErrBadConn), true},
		{"a connection already returned", wrap(sql.ErrConnDone), true},
		{"a closed pgconn", wrap(pgconn.ErrConnClosed), true},
		{"the client went away", wrap(context.Canceled), false},
		{"a deadline", wrap(context.DeadlineExceeded), false},
		{"a connection cut mid-query (pgx returns the bare EOF)", wrap(io.ErrUnexpectedEOF), true},
		{"a connection reset mid-query", wrap(&net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}), true},
		{"an outbound HTTP call", wrap(&url.Error{Op: "Get", URL: "https://example.com/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}), false},
		{"not found", wrap(models.ErrNotFound), false},
		{"already typed", wrap(&models.UnavailableError{Cause: errors.New("x")}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := models.Unavailable(tt.err)
			if (got != nil) != tt.want {
				t.Fatalf("Unavailable(%v) = %v, want unavailable %v", tt.err, got, tt.want)
			}
			if got != nil && !errors.Is(got, models.ErrUnavailable) {
				t.Errorf("%v does not match ErrUnavailable", got)
			}
		})
	}
}

// TestUnavailableFromRealDrivers: what pgx really returns for a port
// nobody listens on, a connection cut mid-query, and a backend an admin
// terminated mid-query is Unavailable, through database/sql as the store
// uses it and through pgx as the listeners do.
func TestUnavailableFromRealDrivers(t *testing.T) {
	server := dbtest.PostgresServerURL(t)
	ctx := context.Background()
	check := func(t *testing.T, what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		if models.Unavailable(err) == nil {
			t.Errorf("%s: %v (%T) is not Unavailable", what, err, err)
		}
	}

	t.Run("refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nobody listens there now
		u := through(t, server, addr)
		db, err := sql.Open("pgx", u)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		check(t, "database/sql ping", db.PingContext(ctx))
		_, err = pgx.Connect(ctx, u)
		check(t, "pgx connect", err)
	})

	t.Run("cut mid-query", func(t *testing.T) {
		host, _ := url.Parse(server)
		p, err := tcpproxy.New(host.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		db, err := sql.Open("pgx", through(t, server, p.Addr()))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.PingContext(ctx); err != nil {
			t.Fatal(err)
		}
		sleep := sleepQuery()
		errc := make(chan error, 1)
		started := make(chan struct{})
		go func() {
			conn, err := db.Conn(ctx)
			if err != nil {
				errc <- err
				return
			}
			defer conn.Close()
			close(started)
			_, err = conn.ExecContext(ctx, sleep)
			errc <- err
		}()
		<-started
		waitForQuery(t, server, sleep)
		p.Down()
		check(t, "query cut by the proxy", <-errc)
		check(t, "a new connection while down", db.PingContext(ctx))
	})

	t.Run("terminated by an admin", func(t *testing.T) {
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		pid := conn.PgConn().PID()
		sleep := sleepQuery()
		errc := make(chan error, 1)
		go func() {
			_, err := conn.Exec(ctx, sleep)
			errc <- err
		}()
		admin, err := sql.Open("pgx", server)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		waitForQuery(t, server, sleep)
		if _, err := admin.ExecContext(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Fatal(err)
		}
		check(t, "query of a terminated backend", <-errc)
	})
}

// sleepQuery is a long query whose text no other test on the server runs.
func sleepQuery() string {
	return fmt.Sprintf("SELECT pg_sleep(30) -- unavailable test %d", time.Now().UnixNano())
}

// through is server's URL with its host and port replaced by addr.
func through(t *testing.T, server, addr string) string {
	t.Helper()
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return u.String()
}

// waitForQuery waits until the server runs a statement of that text, so
// that a cut lands mid-query rather than before it.
func waitForQuery(t *testing.T, server, query string) {
	t.Helper()
	db, err := sql.Open("pgx", server)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE query = $1 AND state = 'active'`, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never started", query)
		}
	}
}

// TestRacedErrors: the errors of a transaction that lost a race for its
// rows, as the real drivers return them, are Raced: SQLite's busy file
// (a second writer that may not wait) and PostgreSQL's deadlock. A
// uniqueness refusal is a real conflict, not a race to run again.
func TestRacedErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite busy", func(t *testing.T) {
		path := t.TempDir() + "/busy.db"
		open := func() *sql.DB {
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		a, b := open(), open()
		if _, err := a.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		holder, err := a.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		_, err = b.ExecContext(ctx, "INSERT INTO t (id) VALUES (1)")
		if err == nil || !models.Raced(fmt.Errorf("wrapped: %w", err)) {
			t.Errorf("a second writer: %v (%T), want a Raced error", err, err)
		}
		holder.ExecContext(ctx, "ROLLBACK") //nolint:errcheck // the test ends here
	})
	t.Run("postgres deadlock", func(t *testing.T) {
		db := dbtest.Open(t, "postgres")
		if _, err := db.ExecContext(ctx, "CREATE TABLE raced (id int PRIMARY KEY); INSERT INTO raced VALUES (1), (2)"); err != nil {
			t.Fatal(err)
		}
		first, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer first.Rollback() //nolint:errcheck // either may have lost
		second, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer second.Rollback() //nolint:errcheck // either may have lost
		lock := func(tx bun.Tx, id int) error {
			_, err := tx.ExecContext(ctx, "UPDATE raced SET id = id WHERE id = ?", id)
			return err
		}
		if err := lock(first, 1); err != nil {
			t.Fatal(err)
		}
		if err := lock(second, 2); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		go func() { errs <- lock(first, 2) }()
		go func() { errs <- lock(second, 1) }()
		// The loser's locks go with its error, so the winner's update
		// then ends too: one error and one success, in either order.
		a, b := <-errs, <-errs
		if (a == nil) == (b == nil) || !models.Raced(cmp.Or(a, b)) {
			t.Errorf("the two sides of a deadlock: %v and %v, want one Raced error and one success", a, b)
		}
	})
	unique := &pgconn.PgError{Code: "23505"}
	if models.Raced(unique) || models.Raced(nil) || models.Raced(errors.New("database is locked")) {
		t.Error("a uniqueness refusal, no error or a bare message counted as Raced")
	}
}
