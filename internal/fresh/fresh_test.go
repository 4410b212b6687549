package fresh

import (
	"sync"
	"testing"
	"time"
)

func TestForgetDropsOneKeyAndRacingReads(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	c := New[string](10, 5*time.Second)
	c.SetEnabled(true)
	c.Put("a", "A", c.Generation(), now, time.Time{})
	c.Put("b", "B", c.Generation(), now, now.Add(time.Second))

	gen := c.Generation() // a read of "a" starts
	c.Forget("a")         // "a" changes meanwhile
	if _, ok := c.Get("a", now); ok {
		t.Error("a forgotten key is still there")
	}
	if v, ok := c.Get("b", now); !ok || v != "B" {
		t.Errorf("forgetting a dropped b: %q %v", v, ok)
	}
	c.Put("a", "old A", gen, now, time.Time{}) // the read ends with what it read before the change
	if _, ok := c.Get("a", now); ok {
		t.Error("a read older than a forget was stored")
	}
	if _, ok := c.Get("b", now.Add(time.Second)); ok {
		t.Error("an entry outlived its own expiry")
	}
}

func TestDisabledAndNil(t *testing.T) {
	now := time.Now()
	c := New[int](1, time.Minute)
	c.Put("k", 1, c.Generation(), now, time.Time{})
	if _, ok := c.Get("k", now); ok {
		t.Error("a disabled cache remembered")
	}
	var none *Cache[int]
	none.Put("k", 1, none.Generation(), now, time.Time{})
	none.Forget("k")
	none.Purge()
	none.SetEnabled(true)
	if _, ok := none.Get("k", now); ok || none.Enabled() {
		t.Error("a nil cache remembers nothing")
	}
}

// TestConcurrentUse is for -race: readers, writers and forgets at once
// never store a value read before the forget that followed it.
func TestConcurrentUse(t *testing.T) {
	c := New[int](64, time.Minute)
	c.SetEnabled(true)
	var mu sync.Mutex
	version := 0 // the source of truth; a forget follows every change
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 2000 {
				now := time.Now()
				if _, ok := c.Get("k", now); ok {
					continue
				}
				gen := c.Generation()
				mu.Lock()
				v := version
				mu.Unlock()
				c.Put("k", v, gen, now, time.Time{})
			}
		})
	}
	wg.Go(func() {
		for range 2000 {
			mu.Lock()
			version++
			mu.Unlock()
			c.Forget("k")
		}
	})
	wg.Wait()
	if v, ok := c.Get("k", time.Now()); ok && v != version {
		t.Errorf("cached %d after the last change made %d", v, version)
	}
}
