package analytics

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeSink stores ints; fail decides per attempt whether a write fails.
type fakeSink struct {
	mu     sync.Mutex
	stored map[int]int // event → times stored
	writes [][]int
	delay  time.Duration
	gate   chan struct{} // when set, each write waits for a token
	atGate int           // events of the writes waiting for a token
	fail   func(events []int, attempt int) error
	tries  int
}

func newSink() *fakeSink { return &fakeSink{stored: map[int]int{}} }

func (s *fakeSink) InsertEvents(ctx context.Context, events []int) error {
	if s.gate != nil {
		s.mu.Lock()
		s.atGate += len(events)
		s.mu.Unlock()
		<-s.gate
		s.mu.Lock()
		s.atGate -= len(events)
		s.mu.Unlock()
	}
	time.Sleep(s.delay)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries++
	if s.fail != nil {
		if err := s.fail(events, s.tries); err != nil {
			return err
		}
	}
	s.writes = append(s.writes, slices.Clone(events))
	for _, e := range events {
		if s.stored[e] == 0 { // idempotent, as Sink requires
			s.stored[e] = 1
		}
	}
	return nil
}

func (s *fakeSink) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.atGate
}

func (s *fakeSink) has(e int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stored[e] > 0
}

func TestBatcherGroupsConcurrentRequests(t *testing.T) {
	sink := newSink()
	sink.delay = 5 * time.Millisecond // a commit's fsync
	var committed atomic.Int64
	b := NewBatcher[int](sink, Options{Writers: 1, Committed: func(n int) { committed.Add(int64(n)) }})
	defer b.Close()
	const requests = 200
	var wg sync.WaitGroup
	for i := range requests {
		wg.Go(func() {
			events := []int{2 * i, 2*i + 1}
			if err := b.Submit(context.Background(), events); err != nil {
				t.Errorf("submit %d: %v", i, err)
				return
			}
			for _, e := range events { // acknowledged means stored
				if !sink.has(e) {
					t.Errorf("event %d acknowledged before it was stored", e)
				}
			}
		})
	}
	wg.Wait()
	if got := committed.Load(); got != 2*requests {
		t.Errorf("Committed counted %d events, want %d", got, 2*requests)
	}
	if len(sink.writes) >= requests/4 {
		t.Errorf("%d writes for %d concurrent requests: no group commit", len(sink.writes), requests)
	}
	for _, w := range sink.writes {
		for i := 0; i < len(w); i += 2 {
			if w[i+1] != w[i]+1 {
				t.Fatalf("a request's events were split or reordered in write %v", w)
			}
		}
	}
}

func TestBatcherRespectsMaxBatch(t *testing.T) {
	const events, maxBatch = 40, 10
	sink := newSink()
	sink.gate = make(chan struct{})
	b := NewBatcher[int](sink, Options{Writers: 1, MaxBatch: maxBatch})
	var wg sync.WaitGroup
	for i := range events {
		wg.Go(func() {
			if err := b.Submit(context.Background(), []int{i}); err != nil {
				t.Errorf("submit %d: %v", i, err)
			}
		})
	}
	// Hold the writes until every event is either in the held write or
	// queued: from then on each write can gather a full batch, so only
	// MaxBatch can keep a write small.
	for sink.waiting()+len(b.queue) < events {
		time.Sleep(time.Millisecond)
	}
	close(sink.gate)
	wg.Wait()
	b.Close()
	written := 0
	for i, w := range sink.writes {
		written += len(w)
		switch {
		case len(w) > maxBatch:
			t.Errorf("write %d has %d events; MaxBatch is %d", i, len(w), maxBatch)
		case i > 0 && i < len(sink.writes)-1 && len(w) < maxBatch:
			t.Errorf("write %d has %d events with more queued; want full batches of %d", i, len(w), maxBatch)
		}
	}
	if written != events || len(sink.stored) != events {
		t.Errorf("wrote %d events, stored %d distinct; want all %d once: %v", written, len(sink.stored), events, sink.writes)
	}
	for i := range events {
		if !sink.has(i) {
			t.Errorf("event %d was not stored", i)
		}
	}
}

func TestBatcherLinger(t *testing.T) {
	sink := newSink()
	b := NewBatcher[int](sink, Options{Writers: 1, Linger: 200 * time.Millisecond})
	defer b.Close()
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			b.Submit(context.Background(), []int{i})
		})
	}
	wg.Wait()
	if len(sink.writes) != 1 {
		t.Errorf("%d writes, want the 5 requests within the linger in one: %v", len(sink.writes), sink.writes)
	}
}

func TestBatcherOverload(t *testing.T) {
	sink := newSink()
	sink.gate = make(chan struct{})
	b := NewBatcher[int](sink, Options{Writers: 1, MaxPending: 250})
	results := make(chan error, 10)
	for i := range 3 {
		go func() { results <- b.Submit(context.Background(), make100(i)) }()
	}
	// Two batches of 100 fit in 250; the third cannot and is refused at once.
	select {
	case err := <-results:
		if !errors.Is(err, ErrOverloaded) {
			t.Fatalf("first answer %v, want ErrOverloaded", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Submit waited instead of refusing")
	}
	if b.Pending() != 200 {
		t.Errorf("Pending = %d, want 200", b.Pending())
	}
	close(sink.gate)
	for range 2 {
		if err := <-results; err != nil {
			t.Errorf("queued request: %v", err)
		}
	}
	if b.Pending() != 0 {
		t.Errorf("Pending = %d after every answer, want 0", b.Pending())
	}
	b.Close()
}

func make100(seed int) []int {
	out := make([]int, 100)
	for i := range out {
		out[i] = seed*1000 + i
	}
	return out
}

func TestBatcherRetriesTransientErrors(t *testing.T) {
	sink := newSink()
	sink.fail = func(_ []int, attempt int) error {
		if attempt <= 3 {
			return errors.New("connection reset")
		}
		return nil
	}
	b := NewBatcher[int](sink, Options{Writers: 1})
	defer b.Close()
	if err := b.Submit(context.Background(), []int{1, 2}); err != nil {
		t.Fatalf("submit after 3 transient failures: %v", err)
	}
	if !sink.has(1) || !sink.has(2) || sink.tries != 4 {
		t.Errorf("stored %v after %d tries", sink.stored, sink.tries)
	}
}

func TestBatcherGivesUpWithoutAcknowledging(t *testing.T) {
	sink := newSink()
	down := errors.New("database is down")
	sink.fail = func([]int, int) error { return down }
	b := NewBatcher[int](sink, Options{Writers: 1, RetryFor: 100 * time.Millisecond})
	defer b.Close()
	start := time.Now()
	if err := b.Submit(context.Background(), []int{1}); !errors.Is(err, down) {
		t.Errorf("got %v, want the database's error", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > 2*time.Second {
		t.Errorf("gave up after %v; RetryFor is 100ms", d)
	}
	if sink.tries < 3 {
		t.Errorf("%d tries, want retries", sink.tries)
	}
}

// TestBatcherIsolatesABadRequest: a permanent error fails only the request
// that causes it, not the others sharing its group commit.
func TestBatcherIsolatesABadRequest(t *testing.T) {
	sink := newSink()
	sink.gate = make(chan struct{}, 100)
	bad := errors.New("invalid input syntax")
	sink.fail = func(events []int, _ int) error {
		if slices.Contains(events, 13) {
			return bad
		}
		return nil
	}
	b := NewBatcher[int](sink, Options{Writers: 1, Retryable: func(err error) bool { return !errors.Is(err, bad) }})
	defer b.Close()
	results := make(map[int]error)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 10; i < 20; i++ {
		wg.Go(func() {
			err := b.Submit(context.Background(), []int{i})
			mu.Lock()
			results[i] = err
			mu.Unlock()
		})
	}
	for b.Pending() < 10 {
		time.Sleep(time.Millisecond)
	}
	for range 100 {
		sink.gate <- struct{}{}
	}
	wg.Wait()
	for i, err := range results {
		if i == 13 && !errors.Is(err, bad) || i != 13 && err != nil {
			t.Errorf("request %d: %v", i, err)
		}
		if sink.has(i) != (i != 13) {
			t.Errorf("event %d stored = %v", i, sink.has(i))
		}
	}
}

func TestBatcherCloseDrains(t *testing.T) {
	sink := newSink()
	sink.delay = 2 * time.Millisecond
	b := NewBatcher[int](sink, Options{Writers: 2})
	var acked sync.Map
	var wg sync.WaitGroup
	for i := range 500 {
		wg.Go(func() {
			if err := b.Submit(context.Background(), []int{i}); err == nil {
				acked.Store(i, true)
			} else if !errors.Is(err, ErrClosed) {
				t.Errorf("submit %d: %v", i, err)
			}
		})
	}
	time.Sleep(5 * time.Millisecond)
	b.Close()
	wg.Wait()
	n := 0
	acked.Range(func(k, _ any) bool {
		n++
		if !sink.has(k.(int)) {
			t.Errorf("event %v acknowledged but not stored after Close", k)
		}
		return true
	})
	if n == 0 {
		t.Error("nothing was acknowledged")
	}
	if err := b.Submit(context.Background(), []int{-1}); !errors.Is(err, ErrClosed) {
		t.Errorf("Submit after Close: %v, want ErrClosed", err)
	}
	b.Close() // a second Close is harmless
}

func TestBatcherSubmitHonoursContext(t *testing.T) {
	sink := newSink()
	sink.gate = make(chan struct{})
	b := NewBatcher[int](sink, Options{Writers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Submit(ctx, []int{1}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's error", err)
	}
	close(sink.gate)
	b.Close()
	if !sink.has(1) {
		t.Error("an accepted event was dropped when its caller stopped waiting")
	}
}
