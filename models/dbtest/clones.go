package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
)

// A test's PostgreSQL database is cloned before the test asks for it and
// dropped after the test, both in the background (spare, dropLater): with
// PostgreSQL 15 on a 2-core machine, a clone took 0.25–0.65 s under test
// load, most of it the kernel allocating inodes for its 700 files, and a
// drop 0.03–0.7 s (it checkpoints); both overlap tests, which mostly wait.
//
// A process that exits leaves its spares and its last drops undone. Every
// database is named after the process that made it (an owner number), and
// the process holds an advisory lock on that number for as long as it
// lives; the next test process on the server drops the databases whose
// owner's lock is gone. Test binaries that run at once, or other
// checkouts, never lose a database in use.

// ownerLockClass is the first key of the owner locks; the owner number is
// the second.
const ownerLockClass = 727275

// dropsAtOnce bounds the drops in flight: concurrent drops share their
// checkpoints, and more than a few would only queue on the server.
const dropsAtOnce = 3

var (
	ownerOnce sync.Once
	ownerNum  int32
	ownerConn *sql.Conn // holds the owner lock until the process exits
	ownerErr  error
	dropSlots = make(chan struct{}, dropsAtOnce)
)

// owner returns this process's owner number, taking its lock and dropping
// the databases of owners that are gone, the first time it is called.
func owner(t testing.TB, server string) int32 {
	t.Helper()
	ownerOnce.Do(func() { ownerErr = takeOwnership(server) })
	if ownerErr != nil {
		t.Fatalf("test databases' owner lock: %v", ownerErr)
	}
	return ownerNum
}

func takeOwnership(server string) error {
	var b [4]byte
	rand.Read(b[:])
	ownerNum = int32(binary.BigEndian.Uint32(b[:]) &^ (1 << 31))
	db, err := sql.Open("pgx", server)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if ownerConn, err = db.Conn(ctx); err != nil {
		return err
	}
	if _, err := ownerConn.ExecContext(ctx, `SELECT pg_advisory_lock($1, $2)`, ownerLockClass, ownerNum); err != nil {
		return err
	}
	left, err := orphans(ctx, ownerConn)
	for _, name := range left {
		dropLater(server, name)
	}
	return err
}

// testDatabaseName names a new test database after its owner.
func testDatabaseName(owner int32) string {
	return fmt.Sprintf("plaza_t_%d_%s", owner, randomHex(4))
}

// orphans are the test databases whose owner holds no lock: its process
// has exited.
func orphans(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `
		SELECT d.datname FROM pg_database AS d
		WHERE d.datname ~ '^plaza_t_[0-9]+_[0-9a-f]+$'
		  AND NOT EXISTS (SELECT 1 FROM pg_locks AS l
		                  WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objsubid = 2
		                    AND l.objid::bigint = split_part(d.datname, '_', 3)::bigint)`, ownerLockClass)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

// dropLater drops the database name in the background; what a failed drop
// leaves, the next process finds among the orphans.
func dropLater(server, name string) {
	go func() {
		dropSlots <- struct{}{}
		defer func() { <-dropSlots }()
		db, err := sql.Open("pgx", server)
		if err != nil {
			return
		}
		defer db.Close()
		db.ExecContext(context.Background(), dropStatement(name)) //nolint:errcheck // an orphan for the next process if it fails
	}()
}

// dropStatement drops a test database, forcing out its connections: a
// server under test may not have closed its pool yet.
func dropStatement(name string) string {
	return fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name)
}

// sparesAhead is how many clones of the migrated template are kept ready.
const sparesAhead = 2

type spareDB struct {
	name string
	err  error
}

var (
	sparesOnce     sync.Once
	sparesTemplate string
	spares         chan spareDB
)

// spare returns a database cloned from template ahead of the call, or ""
// when template is not the one the spares are cloned from (the first
// template asked for: a test process uses one migrated template, and
// template0 for empty databases). A clone that failed (its template dropped
// meanwhile) gives "" too, so that the caller clones afresh and reports
// what fails then.
func spare(server string, owner int32, template string) string {
	if template == "template0" {
		return ""
	}
	sparesOnce.Do(func() {
		sparesTemplate = template
		// One spare waits in the channel, the next in cloneAhead's send.
		spares = make(chan spareDB, sparesAhead-1)
		go cloneAhead(server, owner, template)
	})
	if template != sparesTemplate {
		return ""
	}
	if s := <-spares; s.err == nil {
		return s.name
	}
	return ""
}

// cloneAhead keeps spares full for the life of the process; the clones it
// leaves are dropped by the next process, as orphans.
func cloneAhead(server string, owner int32, template string) {
	for {
		name := testDatabaseName(owner)
		spares <- spareDB{name, createDatabase(server, name, template)}
	}
}
