// Package fresh is a bounded cache that is only as fresh as the news its
// owner feeds it: whoever turns it on must forget an entry (or purge all)
// whenever what it copies changes, and turn it off whenever that news may be
// missed. A TTL bounds how stale an entry can get should news be lost
// unseen. A nil or disabled cache misses every time.
//
// A reader that missed reads the source, then stores what it read with the
// generation it saw before reading: if anything was forgotten or purged in
// between, the store is dropped, so a read that raced a change can never
// put the old value back.
package fresh

import (
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Cache holds up to a fixed number of values of type V by string key.
type Cache[V any] struct {
	entries *lru.Cache[string, entry[V]]
	ttl     time.Duration
	on      atomic.Bool
	// gen counts forgets and purges.
	gen atomic.Uint64
}

type entry[V any] struct {
	v     V
	until time.Time
}

// New holds up to size values for ttl each; it starts disabled.
func New[V any](size int, ttl time.Duration) *Cache[V] {
	entries, err := lru.New[string, entry[V]](size)
	if err != nil {
		panic(err) // size <= 0 is a programming error
	}
	return &Cache[V]{entries: entries, ttl: ttl}
}

// Generation is the count to hand back to Put.
func (c *Cache[V]) Generation() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}

// Get returns the value under key if it is still good at now.
func (c *Cache[V]) Get(key string, now time.Time) (V, bool) {
	var zero V
	if c == nil || !c.on.Load() {
		return zero, false
	}
	e, ok := c.entries.Get(key)
	if !ok || !now.Before(e.until) {
		return zero, false
	}
	return e.v, true
}

// Put stores v under key until now+TTL or expires (zero: no limit of its
// own), whichever is first, unless anything was forgotten since gen was read.
func (c *Cache[V]) Put(key string, v V, gen uint64, now, expires time.Time) {
	if c == nil || !c.on.Load() {
		return
	}
	until := now.Add(c.ttl)
	if !expires.IsZero() && expires.Before(until) {
		until = expires
	}
	c.entries.Add(key, entry[V]{v: v, until: until})
	if c.gen.Load() != gen {
		c.entries.Remove(key)
	}
}

// Forget drops the values under keys.
func (c *Cache[V]) Forget(keys ...string) {
	if c == nil {
		return
	}
	c.gen.Add(1)
	for _, k := range keys {
		c.entries.Remove(k)
	}
}

// Purge drops every value.
func (c *Cache[V]) Purge() {
	if c == nil {
		return
	}
	c.gen.Add(1)
	c.entries.Purge()
}

// Enabled reports whether the cache is in use.
func (c *Cache[V]) Enabled() bool { return c != nil && c.on.Load() }

// SetEnabled turns the cache on or off; both purge it, since news may have
// been missed while it was off.
func (c *Cache[V]) SetEnabled(on bool) {
	if c == nil {
		return
	}
	c.on.Store(false)
	c.Purge()
	c.on.Store(on)
}
