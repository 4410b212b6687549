package ratelimit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/redistest"
)

// syncBuffer is a log sink safe for the limiter's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRedisOutageFallsBackToMemory: while Redis does not answer, the
// limiter counts in this instance's memory instead of letting everything
// through, says so once in the log and in Status, and goes back to Redis
// when it answers again.
func TestRedisOutageFallsBackToMemory(t *testing.T) {
	proxy, client := redistest.NewProxy(t)
	l, err := NewRedis(client, fmt.Sprintf("test:%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	l.probeEvery = time.Hour // every hit during the outage after the first skips Redis
	var logs syncBuffer
	l.SetLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	ctx := context.Background()
	rate := Rate{Limit: 3, Period: time.Minute}
	if _, err := l.Take(ctx, "signin", rate, "ada", 1); err != nil || l.Status() != StatusRedis {
		t.Fatalf("with Redis up: %v, status %q", err, l.Status())
	}

	proxy.Down()
	for i := range 3 {
		if _, err := l.Take(ctx, "signin", rate, "ada", 1); err != nil {
			t.Fatalf("hit %d with Redis down: %v", i+1, err)
		}
	}
	if _, err := l.Take(ctx, "signin", rate, "ada", 1); !errors.Is(err, ErrLimited) {
		t.Errorf("4th hit with Redis down: %v, want ErrLimited (the memory fallback's count)", err)
	}
	if res, err := l.Peek(ctx, "signin", rate, "ada"); err != nil || res.Remaining != 0 {
		t.Errorf("peek with Redis down: %+v, %v", res, err)
	}
	if l.Status() != StatusFallback {
		t.Errorf("status with Redis down: %q, want %q", l.Status(), StatusFallback)
	}
	if n := strings.Count(logs.String(), "Redis unreachable"); n != 1 {
		t.Errorf("the outage was logged %d times, want once:\n%s", n, logs.String())
	}

	proxy.Up()
	l.probeEvery = 0 // the next hit tries Redis again
	if _, err := l.Take(ctx, "signin", rate, "ada", 1); err != nil || l.Status() != StatusRedis {
		t.Errorf("with Redis back: %v, status %q", err, l.Status())
	}
	if !strings.Contains(logs.String(), "Redis answers again") {
		t.Errorf("the recovery was not logged:\n%s", logs.String())
	}
	if NewMemory().Status() != StatusMemory {
		t.Errorf("a memory limiter's status: %q", NewMemory().Status())
	}
}
