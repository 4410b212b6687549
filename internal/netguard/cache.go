package netguard

import (
	"context"
	"sync"
	"time"
)

// MemoryCache is an in-memory Cache with expiry, enough for one instance's
// refusals. It holds at most a fixed number of entries; when full it drops
// expired entries, then an arbitrary one.
type MemoryCache struct {
	mu      sync.Mutex
	max     int
	now     func() time.Time
	entries map[string]memoryEntry
}

type memoryEntry struct {
	value   []byte
	expires time.Time
}

// NewMemoryCache returns a MemoryCache of at most max entries (1024 if max
// <= 0). now is the clock (time.Now if nil).
func NewMemoryCache(max int, now func() time.Time) *MemoryCache {
	if max <= 0 {
		max = 1024
	}
	if now == nil {
		now = time.Now
	}
	return &MemoryCache{max: max, now: now, entries: make(map[string]memoryEntry)}
}

// Get returns the value stored under key unless it has expired.
func (c *MemoryCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false, nil
	}
	if !c.now().Before(e.expires) {
		delete(c.entries, key)
		return nil, false, nil
	}
	return e.value, true, nil
}

// Set stores value under key for ttl.
func (c *MemoryCache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < c.max {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[key] = memoryEntry{value: value, expires: now.Add(ttl)}
	return nil
}
