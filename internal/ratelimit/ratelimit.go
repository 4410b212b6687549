// Package ratelimit counts requests per caller in fixed windows, in
// memory or in Redis so that instances share the counts; while Redis does
// not answer, each instance counts in its own memory instead. It
// wraps github.com/ulule/limiter, whose stores open a window at a key's first
// hit and reset it when the period has passed.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"
	redisstore "github.com/ulule/limiter/v3/drivers/store/redis"
)

// ErrLimited is matched by *LimitedError.
var ErrLimited = errors.New("rate limited")

// Rate is a number of hits per period.
type Rate struct {
	Limit  int64
	Period time.Duration
}

// PerHour and PerMinute build common rates.
func PerHour(n int) Rate   { return Rate{Limit: int64(n), Period: time.Hour} }
func PerMinute(n int) Rate { return Rate{Limit: int64(n), Period: time.Minute} }

// Result is the state of one caller's window after a hit.
type Result struct {
	Limit     int64
	Remaining int64
	Reset     time.Time
	Reached   bool
}

// LimitedError reports a refused hit with the window it fell in.
type LimitedError struct {
	Scope  string
	Result Result
}

func (e *LimitedError) Error() string {
	return fmt.Sprintf("%s: rate limit of %d reached until %s", e.Scope, e.Result.Limit, e.Result.Reset.Format(time.RFC3339))
}

func (e *LimitedError) Unwrap() error { return ErrLimited }

// Limiter counts hits per scope and key in one store.
type Limiter struct {
	store limiter.Store
	mu    sync.Mutex
	byKey map[Rate]*limiter.Limiter
	// fallback counts while the Redis store fails (nil for a memory
	// limiter): a throttle that lifted whenever Redis went away would
	// let sign-in guesses through unbounded.
	fallback *Limiter
	down     atomic.Bool
	log      atomic.Pointer[slog.Logger]
	// During an outage one request in probeEvery tries Redis; the others
	// go straight to the fallback instead of waiting on Redis's client
	// to fail (its dial and retries).
	probeEvery time.Duration
	lastProbe  atomic.Int64 // Unix nanoseconds
}

// What Status answers: counting in Redis, in memory by configuration, or
// in memory because Redis does not answer.
const (
	StatusRedis    = "redis"
	StatusMemory   = "memory"
	StatusFallback = "memory-fallback"
)

// NewMemory keeps counters in this process only.
func NewMemory() *Limiter {
	return newLimiter(newMemoryStore())
}

func newMemoryStore() limiter.Store {
	return memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "plaza", CleanUpInterval: time.Minute})
}

// NewRedis keeps counters in Redis under prefix (e.g. "plaza:rl"), shared
// by every instance using the same prefix.
func NewRedis(client *redis.Client, prefix string) (*Limiter, error) {
	st, err := redisstore.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: prefix, MaxRetry: 3})
	if err != nil {
		return nil, fmt.Errorf("redis rate-limit store: %w", err)
	}
	l := newLimiter(st)
	l.fallback, l.probeEvery = NewMemory(), time.Second
	return l, nil
}

func newLimiter(st limiter.Store) *Limiter {
	l := &Limiter{store: st, byKey: map[Rate]*limiter.Limiter{}}
	l.log.Store(slog.Default())
	return l
}

// SetLogger names where outages of Redis and its return are reported.
func (l *Limiter) SetLogger(log *slog.Logger) { l.log.Store(log) }

// Status says where the limiter counts now (StatusRedis, StatusMemory or
// StatusFallback).
func (l *Limiter) Status() string {
	switch {
	case l.fallback == nil:
		return StatusMemory
	case l.down.Load():
		return StatusFallback
	}
	return StatusRedis
}

// failed decides what a store error means: with a fallback, and unless the
// caller went away, Redis is down (reported once per outage) and the
// fallback answers.
func (l *Limiter) failed(ctx context.Context, err error) bool {
	if l.fallback == nil || ctx.Err() != nil {
		return false
	}
	l.lastProbe.Store(time.Now().UnixNano())
	if l.down.CompareAndSwap(false, true) {
		l.log.Load().Error("rate limiter: Redis unreachable; counting in this instance's memory until it answers", "error", err)
	}
	return true
}

// skip reports whether to go straight to the fallback: Redis is down and
// someone tried it less than probeEvery ago (or is trying it now).
func (l *Limiter) skip() bool {
	if l.fallback == nil || !l.down.Load() {
		return false
	}
	last, now := l.lastProbe.Load(), time.Now().UnixNano()
	return now-last < int64(l.probeEvery) || !l.lastProbe.CompareAndSwap(last, now)
}

// answered notes that Redis answered, ending an outage.
func (l *Limiter) answered() {
	if l.fallback != nil && l.down.CompareAndSwap(true, false) {
		l.log.Load().Info("rate limiter: Redis answers again; counting there")
	}
}

func (l *Limiter) limiterFor(r Rate) *limiter.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.byKey[r]
	if !ok {
		lim = limiter.New(l.store, limiter.Rate{Limit: r.Limit, Period: r.Period})
		l.byKey[r] = lim
	}
	return lim
}

// Take counts n hits for key in scope and reports the window. When the hits
// would pass the limit it returns a *LimitedError (the hits still count, so a
// caller hammering a closed window does not reopen it).
func (l *Limiter) Take(ctx context.Context, scope string, r Rate, key string, n int64) (Result, error) {
	if l.skip() {
		return l.fallback.Take(ctx, scope, r, key, n)
	}
	c, err := l.limiterFor(r).Increment(ctx, scope+":"+key, n)
	if err != nil {
		if l.failed(ctx, err) {
			return l.fallback.Take(ctx, scope, r, key, n)
		}
		return Result{}, fmt.Errorf("rate limit %s: %w", scope, err)
	}
	l.answered()
	res := Result{Limit: c.Limit, Remaining: c.Remaining, Reset: time.Unix(c.Reset, 0), Reached: c.Reached}
	if c.Reached {
		return res, &LimitedError{Scope: scope, Result: res}
	}
	return res, nil
}

// Peek reports the window without counting a hit.
func (l *Limiter) Peek(ctx context.Context, scope string, r Rate, key string) (Result, error) {
	if l.skip() {
		return l.fallback.Peek(ctx, scope, r, key)
	}
	c, err := l.limiterFor(r).Peek(ctx, scope+":"+key)
	if err != nil {
		if l.failed(ctx, err) {
			return l.fallback.Peek(ctx, scope, r, key)
		}
		return Result{}, fmt.Errorf("rate limit %s: %w", scope, err)
	}
	l.answered()
	return Result{Limit: c.Limit, Remaining: c.Remaining, Reset: time.Unix(c.Reset, 0), Reached: c.Reached}, nil
}

// Reset forgets key's hits in scope.
func (l *Limiter) Reset(ctx context.Context, scope string, r Rate, key string) error {
	_, err := l.limiterFor(r).Reset(ctx, scope+":"+key)
	if l.fallback != nil {
		l.fallback.Reset(ctx, scope, r, key) //nolint:errcheck // memory never fails
	}
	if err != nil && l.failed(ctx, err) {
		return nil
	}
	return err
}
