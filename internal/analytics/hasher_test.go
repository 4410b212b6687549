package analytics

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

type fakeKeys struct {
	mu    sync.Mutex
	calls map[string]int
	err   error
}

func (k *fakeKeys) AnalyticsIPKey(_ context.Context, day time.Time) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return nil, k.err
	}
	if k.calls == nil {
		k.calls = map[string]int{}
	}
	d := day.Format(time.DateOnly)
	k.calls[d]++
	return []byte("secret of " + d), nil
}

func TestHasher(t *testing.T) {
	ctx := context.Background()
	keys := &fakeKeys{}
	h := NewHasher(keys)
	morning := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	hash := func(at time.Time, kind, v string) string {
		t.Helper()
		s, err := h.Hash(ctx, at, kind, v)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := hash(morning, "ip", "203.0.113.7")
	if len(a) != 32 || a == "203.0.113.7" {
		t.Errorf("hash %q: want 32 hex digits", a)
	}
	if b := hash(morning.Add(15*time.Hour), "ip", "203.0.113.7"); b != a {
		t.Errorf("same day, same address: %s != %s", b, a)
	}
	if b := hash(morning.Add(24*time.Hour), "ip", "203.0.113.7"); b == a {
		t.Error("the next day's hash equals today's: the key does not rotate")
	}
	if b := hash(morning, "session", "203.0.113.7"); b == a {
		t.Error("kinds share hashes")
	}
	if b := hash(morning, "ip", "203.0.113.8"); b == a {
		t.Error("different addresses share a hash")
	}
	// Requests straddling midnight, in any order, fetch each key once.
	for range 3 {
		hash(morning, "ip", "x")
		hash(morning.Add(24*time.Hour), "ip", "x")
	}
	for d, n := range keys.calls {
		if n != 1 {
			t.Errorf("key of %s fetched %d times, want once (cached)", d, n)
		}
	}
}

func TestHasherConcurrentFirstUse(t *testing.T) {
	keys := &fakeKeys{}
	h := NewHasher(keys)
	at := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if _, err := h.Hash(context.Background(), at, "ip", fmt.Sprint(i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if keys.calls["2026-11-22"] != 1 {
		t.Errorf("key fetched %d times by 50 concurrent first requests, want 1", keys.calls["2026-11-22"])
	}
}

func TestHasherKeyFailure(t *testing.T) {
	down := errors.New("down")
	h := NewHasher(&fakeKeys{err: down})
	if _, err := h.Hash(context.Background(), time.Now(), "ip", "x"); !errors.Is(err, down) {
		t.Errorf("got %v, want the key source's error", err)
	}
}
