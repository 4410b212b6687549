package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/fresh"
)

// ErrConflict is returned when a write would break a uniqueness rule.
var ErrConflict = errors.New("conflict")

// Store runs Plaza's queries. Now is the clock every timestamp comes from,
// so tests can move time.
type Store struct {
	DB *bun.DB
	// Replica, when set (DATABASE_REPLICA_URL), is a read-only copy of DB
	// that answers the reads which may lag: lists, reports, analytics and
	// exports (mayLag). nil reads everything from DB.
	Replica *bun.DB
	Now     func() time.Time
	// Secrets seals the webhook signing secrets the store keeps (set once
	// the JWT secret is known, before serving); nil keeps them as they are.
	Secrets SecretSealer
	// AuditKey keys the audit chain (audit.ChainKey of a secret kept
	// outside the database; set before anything is audited).
	AuditKey []byte
	// Changed, when set, runs after every committed Change: the request
	// pipeline purges the callers it remembers, so an admin's ban, role
	// change or revocation holds from this instance's next request on.
	Changed func()
	// SessionCache, when on, holds sessions read by token key (the
	// request pipeline turns it on while PostgreSQL's news of changed
	// sessions reaches this instance; SessionStore forgets what this
	// instance ends or writes). nil reads every session from the table.
	SessionCache *fresh.Cache[[]byte]
	// Heard, when set, hears the moderation queue's news on SQLite, after
	// the change it tells of commits (on PostgreSQL the news goes through
	// the database to every instance: ListenModeration).
	Heard func(ModerationNews)
	// SearchWindow is how many of the newest ids a search walks before it
	// asks the index for older matches (the general search on
	// PostgreSQL); zero means the defaults. Tests lower it
	// to reach later windows with a few rows.
	SearchWindow int64
	// Queue queues background jobs in a change's transaction (the job
	// queue sets it once built).
	Queue JobQueue
	// SearchBatch is how many rows one batch of a SQLite search index
	// rebuild loads; zero means the default. Tests lower it.
	SearchBatch int
	// JobFailed, when set, runs inside the change that records a
	// maintenance job (a backup too) as failed: the staff alerts queue
	// their mail there, so that it exists if and only if the failure is
	// recorded.
	JobFailed func(ctx context.Context, j *MaintenanceJob) error
	// Progressed, when set, hears every progress a maintenance job
	// records, after it is stored; tests watch a job move with it.
	Progressed func(job string, pct int)

	// rollupCache keeps decoded activity roll-ups (activity_rollups.go).
	rollupOnce  sync.Once
	rollupCache *lru.Cache[rollupKey, *roaring64.Bitmap]

	// indexes are the users indexes of the primary and the replica
	// (user_index.go).
	indexOnce sync.Once
	indexMu   sync.Mutex
	indexes   map[*bun.DB]*indexedUsers

	// The domain parts (domains.go), each pointing back at this Store.
	Users       Users
	Sanctions   Sanctions
	Blocklist   Blocklist
	Auth        Auth
	Posts       Posts
	Desk        Desk
	Analytics   Analytics
	Audit       Audit
	Hooks       Hooks
	Mail        Mail
	Alerts      Alerts
	Invitations Invitations
	Notices     Notices
	Settings    Settings
	Maintenance Maintenance
	Search      Search
}

// NewStore returns a Store on db with the wall clock in UTC.
func NewStore(db *bun.DB) *Store {
	s := &Store{DB: db, Now: func() time.Time { return time.Now().UTC() }}
	s.parts()
	return s
}

// now is the current time, rounded to the microsecond that both databases
// keep, so a value written and read back compares equal.
func (s *Store) now() time.Time {
	return s.Now().UTC().Truncate(time.Microsecond)
}

// Timestamp is the time a write made now would store: the Store's clock in
// UTC, rounded to the microsecond that both databases keep. Code that
// writes rows outside the Store's queries (package seed) takes its
// timestamps from it, so they follow a test's clock too.
func (s *Store) Timestamp() time.Time { return s.now() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return s.DB.PingContext(ctx)
}

// Dialect names the database kind: "postgres" or "sqlite".
func (s *Store) Dialect() string { return Dialect(s.DB) }

// IsUniqueViolation recognises a unique-constraint failure on either
// dialect, for code that inserts rows itself and reports ErrConflict.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return err
}
