package quotes

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor polls cond until it holds or a second passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// While the network is slow, Next answers at once with a built-in quote;
// once a fetch lands, Next hands it out.
func TestPoolNeverWaits(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			jsonBody(zenOK)(w, r)
		case <-r.Context().Done():
		}
	})
	p := NewPool(Config{ZenQuotesURL: f.URL, Timeout: 5 * time.Second, Interval: time.Millisecond}, 2, nil)
	p.Start(context.Background())
	defer p.Close()
	waitFor(t, "the first fetch to start", func() bool { return f.hits.Load() > 0 })

	t0 := time.Now()
	q := p.Next(context.Background())
	if el := time.Since(t0); el > 50*time.Millisecond {
		t.Errorf("Next took %v with the network stalled", el)
	}
	if !slices.Contains(Builtin(), q) {
		t.Errorf("Next = %+v with an empty pool, want a built-in quote", q)
	}

	close(release)
	waitFor(t, "the pool to fill", func() bool { return p.Len() > 0 })
	if q := p.Next(context.Background()); q.Text != "Zen quote." {
		t.Errorf("Next = %+v, want the fetched quote", q)
	}
}

// The pool fetches until it holds size quotes, then waits; taking one
// wakes it up. Once everything fresh is taken, Next reuses a quote handed
// out before rather than a built-in one.
func TestPoolRefills(t *testing.T) {
	var n atomic.Int64
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		jsonBody(`{"quote":"Quote `+string(rune('A'+k%26))+`.","author":"X"}`)(w, r)
	})
	p := NewPool(Config{DummyJSONURL: f.URL, Timeout: testTimeout, Interval: time.Millisecond}, 3, nil)
	p.Start(context.Background())
	defer p.Close()
	waitFor(t, "3 fresh quotes", func() bool { return p.Len() == 3 })
	time.Sleep(50 * time.Millisecond)
	if h := f.hits.Load(); h != 3 {
		t.Errorf("%d fetches for a pool of 3", h)
	}
	first := p.Next(context.Background())
	waitFor(t, "a refill", func() bool { return f.hits.Load() == 4 && p.Len() == 3 })

	p.Close()
	for range 3 {
		p.Next(context.Background())
	}
	if p.Len() != 0 {
		t.Fatalf("%d fresh quotes left", p.Len())
	}
	q := p.Next(context.Background())
	if slices.Contains(Builtin(), q) || q.Author != "X" {
		t.Errorf("Next = %+v after the fresh ones ran out, want one handed out before (like %+v)", q, first)
	}
}

// Close cancels a fetch in flight and returns promptly; it can be called
// again, and Run after Close returns at once.
func TestPoolClose(t *testing.T) {
	f := newFake(t, slow(time.Minute, zenOK))
	p := NewPool(Config{ZenQuotesURL: f.URL, Timeout: time.Minute}, 4, nil)
	p.Start(context.Background())
	waitFor(t, "a fetch in flight", func() bool { return f.hits.Load() > 0 })
	t0 := time.Now()
	p.Close()
	if el := time.Since(t0); el > time.Second {
		t.Errorf("Close took %v", el)
	}
	p.Close()
	done := make(chan struct{})
	go func() { p.Run(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Error("Run after Close did not return")
	}
}

// Cancelling Run's context stops it too.
func TestPoolContext(t *testing.T) {
	f := newFake(t, slow(time.Minute, zenOK))
	p := NewPool(Config{ZenQuotesURL: f.URL, Timeout: time.Minute}, 4, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	waitFor(t, "a fetch in flight", func() bool { return f.hits.Load() > 0 })
	cancel()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Error("Run did not return after its context ended")
	}
}

// A pool with no source serves built-in quotes and its Run returns.
func TestPoolWithoutSources(t *testing.T) {
	p := NewPool(Config{}, 3, nil)
	done := make(chan struct{})
	go func() { p.Run(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("Run without sources did not return")
	}
	if q := p.Next(context.Background()); !slices.Contains(Builtin(), q) {
		t.Errorf("Next = %+v, want a built-in quote", q)
	}
	p.Close()
}

// Failing sources back off instead of spinning.
func TestPoolBacksOff(t *testing.T) {
	f := newFake(t, status(http.StatusInternalServerError, ""))
	p := NewPool(Config{ZenQuotesURL: f.URL, Timeout: testTimeout, Interval: 20 * time.Millisecond}, 3, nil)
	p.Start(context.Background())
	time.Sleep(300 * time.Millisecond)
	p.Close()
	// 20, 40, 80, 160 ms pauses: about 5 calls in 300 ms, never dozens.
	if h := f.hits.Load(); h < 2 || h > 8 {
		t.Errorf("%d calls in 300ms to a failing source", h)
	}
}

// A host without the quote services warns once, not on every retry, and
// says when they answer again.
func TestPoolWarnsOnce(t *testing.T) {
	var up atomic.Bool
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if up.Load() {
			jsonBody(zenOK)(w, r)
			return
		}
		status(http.StatusBadGateway, "")(w, r)
	})
	var logs recordedLogs
	p := NewPool(Config{ZenQuotesURL: f.URL, Timeout: testTimeout, Interval: 5 * time.Millisecond}, 50, slog.New(&logs))
	p.Start(context.Background())
	defer p.Close()
	waitFor(t, "three failed fetches", func() bool { return f.hits.Load() >= 3 })
	up.Store(true)
	waitFor(t, "a quote", func() bool { return p.Len() > 0 })
	p.Close()
	got := logs.levels()
	if got[slog.LevelWarn] != 1 || got[slog.LevelDebug] < 2 || got[slog.LevelInfo] != 1 {
		t.Errorf("log records by level: %v; want one warning, the repeats at debug, one recovery", got)
	}
}

type recordedLogs struct {
	mu   sync.Mutex
	seen []slog.Level
}

func (r *recordedLogs) Enabled(context.Context, slog.Level) bool { return true }
func (r *recordedLogs) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, rec.Level)
	return nil
}
func (r *recordedLogs) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recordedLogs) WithGroup(string) slog.Handler      { return r }

func (r *recordedLogs) levels() map[slog.Level]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[slog.Level]int{}
	for _, l := range r.seen {
		out[l]++
	}
	return out
}
