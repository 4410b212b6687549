package models

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrUnavailable is matched by *UnavailableError.
var ErrUnavailable = errors.New("database unavailable")

// UnavailableError is a failure to reach the database: it refuses
// connections, is shutting down or starting up, or a connection broke
// mid-query. It says nothing of the request, which the client may send
// again once the database answers; the web layer answers it 503 with
// Retry-After in the caller's family.
type UnavailableError struct {
	Cause error
}

func (e *UnavailableError) Error() string { return "database unavailable: " + e.Cause.Error() }

// Unwrap gives both the sentinel and the driver's error, so that callers
// still see what the driver said (errors.Is(err, io.ErrUnexpectedEOF)).
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Cause} }

// Unavailable returns err as an *UnavailableError when it says the database
// could not be reached (see unreachable), and nil for any other error. It
// is the one place that tells an outage from a failure of ours.
func Unavailable(err error) *UnavailableError {
	if err == nil {
		return nil
	}
	var ue *UnavailableError
	if errors.As(err, &ue) {
		return ue
	}
	if !unreachable(err) {
		return nil
	}
	return &UnavailableError{Cause: err}
}

// unavailableState reports the SQLSTATEs of a server that cannot serve the
// connection, whatever the query: class 08 (connection exception), an
// administrator's or a crash's shutdown (57P01, 57P02), a server starting
// up or shutting down (57P03), and one whose connection slots are full
// (53300).
func unavailableState(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// unreachable reports whether err came from a database that could not be
// reached. A client that went away (context.Canceled) is not an outage,
// nor a query that ran out of time once connected (a deadline on connect
// is). pgx returns a socket's failure mid-query as it is (an EOF, a reset
// connection): a request reaches the network only through the database,
// Redis (whose failures the rate limiter absorbs) and outbound HTTP, whose
// errors are *url.Error, so a bare socket error that is not one of those
// is taken for the database's.
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	// Whatever stopped a connection from opening (refused, timed out, the
	// server starting up, a database not accepting connections) leaves
	// the request without a database.
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unavailableState(pgErr.Code)
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	var outbound *url.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &outbound) {
		return false // a query that outlived its deadline is slow, not away; an HTTP call is not the database
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// Raced reports whether err is a transaction that lost a race with
// another one for the same rows and was rolled back for it, rather than
// anything wrong with the request: a deadlock or serialization failure on
// PostgreSQL (SQLSTATE 40P01, 40001), a busy or locked database on SQLite.
// Such a request may run again as it is; the web layer does that inside
// the server, so that a race with Plaza's own background work (auto-flag,
// counters, live news) never reaches the caller as a 409 or a 500.
func Raced(err error) bool {
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		return pgErr.Code == "40P01" || pgErr.Code == "40001"
	}
	if liteErr, ok := errors.AsType[*sqlite.Error](err); ok {
		code := liteErr.Code() & 0xff // the primary code of an extended one
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}
