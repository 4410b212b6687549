package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/config"
)

// AuditBatcher appends audit entries that record no change (reads, refusals,
// failures) in group commits: whatever entries are waiting are linked and
// inserted in one transaction, so one commit's fsync is shared by many
// requests instead of serialising them one commit at a time. Entries of
// changes are not batched: they are written in the change's own transaction
// (Store.Change).
type AuditBatcher struct {
	store *Store
	log   *slog.Logger
	in    chan batchItem
	wg    sync.WaitGroup
	once  sync.Once
	// closing ends the unbounded retries of an outage: Close must return.
	closing atomic.Bool
}

type batchItem struct {
	entry *AuditEntry
	done  chan error // nil for fire-and-forget
}

// auditBatchMax bounds one group commit; auditQueue bounds the backlog, past
// which Enqueue waits (backpressure rather than unbounded memory).
const (
	auditBatchMax = 500
	auditQueue    = 10000
)

// auditRetries bounds the attempts at a batch that failed for a reason
// other than an outage; auditRetryMax is the longest wait between two.
const (
	auditRetries  = 8
	auditRetryMax = 2 * time.Second
)

// NewAuditBatcher starts the batcher's writer; Close stops it after writing
// everything queued.
func (s Audit) NewAuditBatcher(log *slog.Logger) *AuditBatcher {
	b := &AuditBatcher{store: s.Store, log: log, in: make(chan batchItem, auditQueue)}
	b.wg.Add(1)
	go b.run()
	return b
}

// Enqueue queues an entry and returns at once; it is written within
// milliseconds, and before Close returns.
func (b *AuditBatcher) Enqueue(e *AuditEntry) {
	b.stamp(e)
	b.in <- batchItem{entry: e}
}

// Append queues an entry and waits until it is committed.
func (b *AuditBatcher) Append(ctx context.Context, e *AuditEntry) error {
	b.stamp(e)
	done := make(chan error, 1)
	select {
	case b.in <- batchItem{entry: e, done: done}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Flush waits until everything queued before the call is committed.
func (b *AuditBatcher) Flush(ctx context.Context) error {
	done := make(chan error, 1)
	b.in <- batchItem{done: done}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close writes what is queued and stops the writer.
func (b *AuditBatcher) Close() {
	b.closing.Store(true)
	b.once.Do(func() { close(b.in) })
	b.wg.Wait()
}

// stamp dates e, and replaces details that cannot be stored with a note
// saying so: one bad entry must not hold back the batch it is written in.
func (b *AuditBatcher) stamp(e *AuditEntry) {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = b.store.now()
	}
	if _, err := json.Marshal(e.Details); err != nil {
		b.log.Error("audit entry details cannot be stored; recording the entry without them", "action", e.Action, "error", err)
		e.Details = map[string]any{"detailsError": "details could not be recorded"}
	}
}

func (b *AuditBatcher) run() {
	defer b.wg.Done()
	for first := range b.in {
		batch := []batchItem{first}
	drain:
		for len(batch) < auditBatchMax {
			select {
			case it, ok := <-b.in:
				if !ok {
					break drain
				}
				batch = append(batch, it)
			default:
				break drain
			}
		}
		b.write(batch)
	}
}

// write commits a batch, retrying with backoff: an entry is never dropped
// while the database is away, however long, until Close; any other failure
// is retried auditRetries times.
func (b *AuditBatcher) write(batch []batchItem) {
	var entries []*AuditEntry
	for _, it := range batch {
		if it.entry != nil {
			entries = append(entries, it.entry)
		}
	}
	var err error
	for attempt := 0; ; attempt++ {
		if err = b.store.appendBatch(context.Background(), entries); err == nil {
			break
		}
		if attempt >= auditRetries-1 && (Unavailable(err) == nil || b.closing.Load()) {
			b.log.Error("write audit batch; giving up", "error", err, "entries", len(entries), "attempts", attempt+1)
			break
		}
		b.log.Error("write audit batch; retrying", "error", err, "entries", len(entries), "attempt", attempt+1)
		time.Sleep(min(time.Duration(50<<min(attempt, 6))*time.Millisecond, auditRetryMax))
	}
	for _, it := range batch {
		if it.done != nil {
			it.done <- err
		}
	}
}

// appendBatch links entries to the chain in order and inserts them in one
// transaction under the chain lock.
func (s *Store) appendBatch(ctx context.Context, entries []*AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	if s.Dialect() == config.DialectPostgres {
		return s.copyAuditBatch(ctx, entries)
	}
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		prev, err := lastAuditHash(ctx, tx)
		if err != nil {
			return err
		}
		if err := link(s.AuditKey, entries, prev); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&entries).Exec(ctx)
		return err
	})
}

// copyAuditBatch is appendBatch on PostgreSQL: COPY in a transaction of
// the connection's own, which costs the server far less per row than a
// multi-row INSERT returning ids, at the rate every admin request adds one.
func (s *Store) copyAuditBatch(ctx context.Context, entries []*AuditEntry) error {
	return RawPostgresConn(ctx, s.DB, func(c *stdlib.Conn) error {
		return pgx.BeginFunc(ctx, c.Conn(), func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", auditLockKey); err != nil {
				return fmt.Errorf("lock audit chain: %w", err)
			}
			prev := audit.Genesis
			err := tx.QueryRow(ctx, "SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1").Scan(&prev)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			if err := link(s.AuditKey, entries, prev); err != nil {
				return err
			}
			rows, err := auditRows(entries)
			if err != nil {
				return err
			}
			_, err = tx.CopyFrom(ctx, pgx.Identifier{"audit_log"}, auditColumns, pgx.CopyFromRows(rows))
			return err
		})
	})
}

// link chains entries after the hash prev, in order, keyed with key.
func link(key []byte, entries []*AuditEntry, prev string) error {
	h := audit.NewHasher(key)
	for _, e := range entries {
		e.CreatedAt = e.CreatedAt.UTC().Truncate(audit.Precision)
		capEntry(e)
		if e.Details == nil {
			e.Details = map[string]any{}
		}
		e.PrevHash = prev
		var err error
		if e.Hash, err = h.Hash(chainEntry(e)); err != nil {
			return err
		}
		prev = e.Hash
	}
	return nil
}

// capEntry clips what a client could make long (audit caps, docs/security.md)
// before the entry is hashed, so every entry is stored as hashed.
func capEntry(e *AuditEntry) {
	e.AdminUsername = audit.Clip(e.AdminUsername, audit.MaxField)
	e.TargetType = audit.Clip(e.TargetType, audit.MaxField)
	e.TargetID = audit.Clip(e.TargetID, audit.MaxField)
	e.IPAddress = audit.Clip(e.IPAddress, audit.MaxIPAddress)
	e.UserAgent = audit.Clip(e.UserAgent, audit.MaxUserAgent)
	e.Details = audit.ClipDetails(e.Details)
}

// auditColumns are the columns COPY fills, in the order of auditRows.
var auditColumns = []string{"created_at", "admin_id", "admin_username", "action", "target_type", "target_id",
	"ip_address", "user_agent", "status", "details", "prev_hash", "hash"}

func auditRows(entries []*AuditEntry) ([][]any, error) {
	rows := make([][]any, len(entries))
	for i, e := range entries {
		details, err := json.Marshal(e.Details)
		if err != nil {
			return nil, fmt.Errorf("audit details: %w", err)
		}
		var admin any
		if e.AdminID != nil {
			admin = *e.AdminID
		}
		rows[i] = []any{e.CreatedAt, admin, e.AdminUsername, e.Action, e.TargetType, e.TargetID,
			e.IPAddress, e.UserAgent, e.Status, details, e.PrevHash, e.Hash}
	}
	return rows, nil
}
