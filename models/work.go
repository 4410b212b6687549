package models

import (
	"context"
	"fmt"
	"sync"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
)

// Work is one request's unit of work (docs/architecture.md). Its first Change
// begins a transaction that stays open until Finish, which writes the
// request's audit entry with the outcome the caller reports and commits the
// changes and their entry together. A request's changes therefore land
// together with their record, or not at all; a failed change undoes the
// request's earlier changes too.
//
// Within a Work every Store query runs in the open transaction, so a handler
// reads its own writes and never waits on itself for SQLite's write lock.
// The queries of one request run one at a time, as handlers run them.
type Work struct {
	store *Store
	draft *audit.Draft

	mu sync.Mutex
	tx *bun.Tx
	// after runs once the pending changes commit (afterCommit).
	after []func()
	// begun runs as the first change begins (OnBegin).
	begun func()
}

// NewWork starts the unit of work of a request whose audit entry is d (nil
// for a request that is not audited).
func (s *Store) NewWork(d *audit.Draft) *Work {
	return &Work{store: s, draft: d}
}

type workKey struct{}

// WithWork makes ctx carry w, so that Change joins it.
func WithWork(ctx context.Context, w *Work) context.Context {
	return context.WithValue(ctx, workKey{}, w)
}

func workFrom(ctx context.Context) *Work {
	w, _ := ctx.Value(workKey{}).(*Work)
	return w
}

// Pending reports whether changes wait for Finish to commit them.
func (w *Work) Pending() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tx != nil
}

// OnBegin makes fn run as the Work's first change begins, before the
// change itself: what only matters once something is pending (a snapshot
// to undo a response by) is then never paid for by a request that changes
// nothing, the common case.
func (w *Work) OnBegin(fn func()) { w.begun = fn }

func (w *Work) current() *bun.Tx {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tx
}

func (w *Work) change(ctx context.Context, fn func(ctx context.Context) error) error {
	w.mu.Lock()
	if w.tx == nil {
		tx, err := w.store.DB.BeginTx(ctx, nil)
		if err != nil {
			w.mu.Unlock()
			return fmt.Errorf("begin change: %w", err)
		}
		w.tx = &tx
		if w.begun != nil {
			w.begun()
		}
	}
	w.mu.Unlock()
	if err := fn(ctx); err != nil {
		w.rollback()
		return err
	}
	return nil
}

func (w *Work) rollback() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tx != nil {
		w.tx.Rollback() //nolint:errcheck // a rollback's failure leaves nothing to undo
		w.tx = nil
	}
	w.after = nil
}

// Finish ends the unit of work. When changes are pending and the request
// succeeded, it appends the audit entry with status inside their
// transaction and commits; when the request failed, it rolls them back.
// It reports whether the audit entry was written; when it was not, the
// caller records the request some other way (AuditBatcher), unless the
// entry is an Optional one the handler did not keep.
func (w *Work) Finish(ctx context.Context, succeeded bool, status int) (written bool, err error) {
	tx := w.current()
	if tx == nil {
		return false, nil
	}
	if !succeeded {
		w.rollback()
		return false, nil
	}
	w.mu.Lock()
	w.tx = nil
	after := w.after
	w.after = nil
	w.mu.Unlock()
	audited := w.draft != nil && w.draft.Wanted()
	if audited {
		if err := w.store.Audit.AppendAudit(ctx, *tx, EntryOf(w.draft, status)); err != nil {
			tx.Rollback() //nolint:errcheck // the append's error is the one to report
			return false, fmt.Errorf("audit change: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("commit change: %w", err)
	}
	w.store.changed()
	runAll(after)
	return audited, nil
}

type txKey struct{}

// afterKey holds, in a change of its own (not a request's Work), what
// runs once it commits.
type afterKey struct{}

// Change runs fn as one change to the data. Inside a request's Work it
// joins the Work's transaction, committed with the audit entry when the
// request ends (Work.Finish); elsewhere (commands, jobs) it runs fn in a
// transaction of its own. Store methods called with fn's ctx run inside the
// transaction.
func (s *Store) Change(ctx context.Context, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{}).(*bun.Tx); ok {
		return fn(ctx) // already inside a change
	}
	if w := workFrom(ctx); w != nil {
		return w.change(ctx, fn)
	}
	var after []func()
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(context.WithValue(context.WithValue(ctx, txKey{}, &tx), afterKey{}, &after))
	})
	if err == nil {
		s.changed()
		runAll(after)
	}
	return err
}

// afterCommit runs fn once the change under way commits, and never if it
// rolls back; outside a change, at once. Only news for this instance
// goes this way (SQLite's moderation feed): other instances hear of a
// change through the database.
func (s *Store) afterCommit(ctx context.Context, fn func()) {
	if _, ok := ctx.Value(txKey{}).(*bun.Tx); ok {
		if after, ok := ctx.Value(afterKey{}).(*[]func()); ok {
			*after = append(*after, fn)
			return
		}
	}
	if w := workFrom(ctx); w != nil {
		w.mu.Lock()
		if w.tx != nil {
			w.after = append(w.after, fn)
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
	}
	fn()
}

func runAll(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

// ChangeLocked is Change for a write to a lockable resource: inside the
// transaction it first checks that no other user holds the resource's lock
// (*LockedError), then runs fn.
func (s *Store) ChangeLocked(ctx context.Context, typ, id string, userID int64, fn func(ctx context.Context) error) error {
	return s.Change(ctx, func(ctx context.Context) error {
		if err := s.Desk.CheckLock(ctx, typ, id, userID); err != nil {
			return err
		}
		return fn(ctx)
	})
}

// db is what a query runs on: the change under way, else the request's
// pending changes, else the replica for a read that may lag (mayLag),
// else the pool.
func (s *Store) db(ctx context.Context) bun.IDB {
	if tx, ok := ctx.Value(txKey{}).(*bun.Tx); ok {
		return tx
	}
	if w := workFrom(ctx); w != nil {
		if tx := w.current(); tx != nil {
			return tx
		}
	}
	if s.Replica != nil && ctx.Value(replicaKey{}) != nil {
		return s.Replica
	}
	return s.DB
}

func (s *Store) changed() {
	if s.Changed != nil {
		s.Changed()
	}
}
