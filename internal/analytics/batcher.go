package analytics

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of Submit. Neither means the events were stored.
var (
	// ErrOverloaded: the queue is full; the caller should answer 503 with
	// Retry-After rather than wait.
	ErrOverloaded = errors.New("analytics: too many events waiting to be written")
	// ErrClosed: the batcher is shutting down.
	ErrClosed = errors.New("analytics: collector is closed")
)

// Sink stores events. InsertEvents must be atomic (all or none) and
// idempotent (writing events that are already stored succeeds and stores
// them once), so that a write whose commit outcome was lost can be retried.
type Sink[E any] interface {
	InsertEvents(ctx context.Context, events []E) error
}

// Options tune a Batcher; zero values pick the defaults.
type Options struct {
	// MaxBatch is the number of events at which a writer stops gathering
	// and writes. A submission is never split, so a write may exceed it by
	// one submission's events. Default 1000.
	MaxBatch int
	// MaxPending bounds the events accepted but not yet answered (queued or
	// being written); past it Submit returns ErrOverloaded. Default 10000.
	MaxPending int
	// Linger is how long a writer waits for more events after the first
	// before writing a batch smaller than MaxBatch. Default 0: under load a
	// batch forms while the previous one commits, so waiting only adds latency.
	Linger time.Duration
	// Writers is the number of writes in flight at once. Default 2: one
	// gathers and copies while the other waits for its commit's fsync.
	Writers int
	// Retryable tells transient errors (connection lost, serialization
	// failure, busy database) from permanent ones; nil retries every error.
	Retryable func(error) bool
	// RetryFor bounds the retries of one write. Default 5 s.
	RetryFor time.Duration
	// AttemptTimeout bounds one write attempt. Default 10 s.
	AttemptTimeout time.Duration
	// Committed is told how many events each acknowledged submission stored.
	Committed func(events int)
	Logger    *slog.Logger
}

// Batcher is a group-commit writer: events submitted by many concurrent
// requests are written together in one atomic write, and each Submit
// returns only once its own events are committed. It never acknowledges an
// event that is not stored: a write that fails after its retries fails
// every Submit it carried.
type Batcher[E any] struct {
	sink    Sink[E]
	opts    Options
	queue   chan *submission[E]
	pending atomic.Int64

	mu     sync.RWMutex // guards closed against sends on a closed queue
	closed bool
	wg     sync.WaitGroup
}

type submission[E any] struct {
	events []E
	done   chan error
}

// NewBatcher starts the writers. Close stops them after writing everything
// accepted.
func NewBatcher[E any](sink Sink[E], opts Options) *Batcher[E] {
	opts.MaxBatch = cmp.Or(opts.MaxBatch, 1000)
	opts.MaxPending = max(cmp.Or(opts.MaxPending, 10000), MaxBatch)
	opts.Writers = cmp.Or(opts.Writers, 2)
	opts.RetryFor = cmp.Or(opts.RetryFor, 5*time.Second)
	opts.AttemptTimeout = cmp.Or(opts.AttemptTimeout, 10*time.Second)
	if opts.Retryable == nil {
		opts.Retryable = func(error) bool { return true }
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// Every submission holds at least one event, so a queue of MaxPending
	// slots never blocks a Submit that passed the pending check.
	b := &Batcher[E]{sink: sink, opts: opts, queue: make(chan *submission[E], opts.MaxPending)}
	for range opts.Writers {
		b.wg.Add(1)
		go b.run()
	}
	return b
}

// Submit queues events and waits until they are committed. It returns
// ErrOverloaded at once when MaxPending events are already waiting, and
// ErrClosed after Close. If ctx ends first Submit returns ctx.Err(); the
// events may still be written, but the caller must not report them stored.
func (b *Batcher[E]) Submit(ctx context.Context, events []E) error {
	if len(events) == 0 {
		return nil
	}
	n := int64(len(events))
	s := &submission[E]{events: events, done: make(chan error, 1)}
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return ErrClosed
	}
	if b.pending.Add(n) > int64(b.opts.MaxPending) {
		b.pending.Add(-n)
		b.mu.RUnlock()
		return ErrOverloaded
	}
	b.queue <- s
	b.mu.RUnlock()
	select {
	case err := <-s.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Pending is the number of events accepted and not yet answered.
func (b *Batcher[E]) Pending() int { return int(b.pending.Load()) }

// Close refuses new events, writes every accepted one and returns when the
// writers have stopped. Call it after the HTTP server has shut down and
// before the database closes.
func (b *Batcher[E]) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

func (b *Batcher[E]) run() {
	defer b.wg.Done()
	var timer *time.Timer
	if b.opts.Linger > 0 {
		timer = time.NewTimer(time.Hour)
		timer.Stop()
	}
	var buf []E
	for first := range b.queue {
		batch := []*submission[E]{first}
		n := len(first.events)
		if timer != nil {
			timer.Reset(b.opts.Linger)
		}
	gather:
		for n < b.opts.MaxBatch {
			if timer == nil {
				select {
				case s, ok := <-b.queue:
					if !ok {
						break gather
					}
					batch, n = append(batch, s), n+len(s.events)
				default:
					break gather
				}
				continue
			}
			select {
			case s, ok := <-b.queue:
				if !ok {
					break gather
				}
				batch, n = append(batch, s), n+len(s.events)
			case <-timer.C:
				break gather
			}
		}
		if timer != nil {
			timer.Stop()
		}
		buf = b.write(batch, buf[:0])
	}
}

// write stores a batch and answers its submissions. When the whole batch
// fails with a permanent error, each submission is written on its own, so
// that one bad submission fails alone.
func (b *Batcher[E]) write(batch []*submission[E], buf []E) []E {
	for _, s := range batch {
		buf = append(buf, s.events...)
	}
	err := b.insert(buf)
	if err != nil && len(batch) > 1 && !b.opts.Retryable(err) {
		b.opts.Logger.Warn("analytics batch refused; writing its requests one by one", "error", err, "events", len(buf), "requests", len(batch))
		for _, s := range batch {
			b.answer(s, b.insert(s.events))
		}
		return buf
	}
	for _, s := range batch {
		b.answer(s, err)
	}
	return buf
}

func (b *Batcher[E]) answer(s *submission[E], err error) {
	if err == nil && b.opts.Committed != nil {
		b.opts.Committed(len(s.events))
	}
	b.pending.Add(-int64(len(s.events)))
	s.done <- err
}

// insert writes events, retrying transient failures with exponential
// backoff for up to RetryFor. The sink is idempotent, so retrying a write
// whose commit did happen stores nothing twice.
func (b *Batcher[E]) insert(events []E) error {
	start := time.Now()
	wait := 5 * time.Millisecond
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), b.opts.AttemptTimeout)
		err := b.sink.InsertEvents(ctx, events)
		cancel()
		if err == nil {
			return nil
		}
		if !b.opts.Retryable(err) || time.Since(start)+wait > b.opts.RetryFor {
			b.opts.Logger.Error("write analytics events", "error", err, "events", len(events), "attempts", attempt)
			return err
		}
		b.opts.Logger.Warn("write analytics events; retrying", "error", err, "events", len(events), "attempt", attempt)
		time.Sleep(wait)
		wait = min(2*wait, 500*time.Millisecond)
	}
}
