// Package ratelimit counts requests per caller in fixed windows, in
// memory or in Redis so that instances share the counts. It
// wraps github.com/ulule/limiter, whose stores open a window at a key's first
// hit and reset it when the period has passed.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
}

// NewMemory keeps counters in this process only.
func NewMemory() *Limiter {
	return newLimiter(memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "plaza", CleanUpInterval: time.Minute}))
}

// NewRedis keeps counters in Redis under prefix (e.g. "plaza:rl"), shared
// by every instance using the same prefix.
func NewRedis(client *redis.Client, prefix string) (*Limiter, error) {
	st, err := redisstore.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: prefix, MaxRetry: 3})
	if err != nil {
		return nil, fmt.Errorf("redis rate-limit store: %w", err)
	}
	return newLimiter(st), nil
}

func newLimiter(st limiter.Store) *Limiter {
	return &Limiter{store: st, byKey: map[Rate]*limiter.Limiter{}}
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
	c, err := l.limiterFor(r).Increment(ctx, scope+":"+key, n)
	if err != nil {
		return Result{}, fmt.Errorf("rate limit %s: %w", scope, err)
	}
	res := Result{Limit: c.Limit, Remaining: c.Remaining, Reset: time.Unix(c.Reset, 0), Reached: c.Reached}
	if c.Reached {
		return res, &LimitedError{Scope: scope, Result: res}
	}
	return res, nil
}

// Peek reports the window without counting a hit.
func (l *Limiter) Peek(ctx context.Context, scope string, r Rate, key string) (Result, error) {
	c, err := l.limiterFor(r).Peek(ctx, scope+":"+key)
	if err != nil {
		return Result{}, fmt.Errorf("rate limit %s: %w", scope, err)
	}
	return Result{Limit: c.Limit, Remaining: c.Remaining, Reset: time.Unix(c.Reset, 0), Reached: c.Reached}, nil
}

// Reset forgets key's hits in scope.
func (l *Limiter) Reset(ctx context.Context, scope string, r Rate, key string) error {
	_, err := l.limiterFor(r).Reset(ctx, scope+":"+key)
	return err
}
