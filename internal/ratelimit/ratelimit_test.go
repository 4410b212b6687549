package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plazahq/plaza/internal/redistest"
)

// stores runs fn with a memory limiter and, when Redis answers, with two
// limiters on one Redis (as two instances would have).
func stores(t *testing.T, fn func(t *testing.T, a, b *Limiter)) {
	t.Run("memory", func(t *testing.T) {
		l := NewMemory()
		fn(t, l, l)
	})
	t.Run("redis", func(t *testing.T) {
		client := redistest.Client(t)
		prefix := fmt.Sprintf("test:%d", time.Now().UnixNano())
		a, err := NewRedis(client, prefix)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewRedis(redis.NewClient(client.Options()), prefix)
		if err != nil {
			t.Fatal(err)
		}
		fn(t, a, b)
	})
}

func TestTakeUntilLimited(t *testing.T) {
	stores(t, func(t *testing.T, a, b *Limiter) {
		ctx := context.Background()
		key := fmt.Sprintf("user-%d", time.Now().UnixNano())
		rate := PerHour(3)
		for i, l := range []*Limiter{a, b, a} {
			res, err := l.Take(ctx, "api", rate, key, 1)
			if err != nil || res.Remaining != int64(2-i) || res.Limit != 3 {
				t.Fatalf("hit %d: %+v, %v", i+1, res, err)
			}
			if d := time.Until(res.Reset); d <= 59*time.Minute || d > time.Hour+time.Second {
				t.Errorf("reset in %v, want about an hour", d)
			}
		}
		_, err := b.Take(ctx, "api", rate, key, 1)
		var le *LimitedError
		if !errors.As(err, &le) || !errors.Is(err, ErrLimited) || le.Result.Remaining != 0 {
			t.Fatalf("4th hit: %v, want LimitedError", err)
		}
		if _, err := a.Take(ctx, "other-scope", rate, key, 1); err != nil {
			t.Errorf("another scope shares the count: %v", err)
		}
	})
}

func TestTakeCountsBatches(t *testing.T) {
	stores(t, func(t *testing.T, a, b *Limiter) {
		ctx := context.Background()
		key := fmt.Sprintf("events-%d", time.Now().UnixNano())
		rate := PerMinute(100)
		if res, err := a.Take(ctx, "events", rate, key, 60); err != nil || res.Remaining != 40 {
			t.Fatalf("batch of 60: %+v, %v", res, err)
		}
		if res, err := b.Take(ctx, "events", rate, key, 40); err != nil || res.Remaining != 0 {
			t.Fatalf("batch of 40: %+v, %v", res, err)
		}
		if _, err := a.Take(ctx, "events", rate, key, 1); !errors.Is(err, ErrLimited) {
			t.Errorf("event 101: %v, want ErrLimited", err)
		}
	})
}

func TestWindowResets(t *testing.T) {
	stores(t, func(t *testing.T, a, b *Limiter) {
		ctx := context.Background()
		key := fmt.Sprintf("w-%d", time.Now().UnixNano())
		rate := Rate{Limit: 1, Period: time.Second}
		a.Take(ctx, "s", rate, key, 1)
		if _, err := b.Take(ctx, "s", rate, key, 1); !errors.Is(err, ErrLimited) {
			t.Fatalf("second hit in the window: %v", err)
		}
		time.Sleep(1100 * time.Millisecond)
		if _, err := b.Take(ctx, "s", rate, key, 1); err != nil {
			t.Errorf("after the window: %v", err)
		}
	})
}
