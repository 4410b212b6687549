package auth

import (
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// PrincipalCache remembers callers the pipeline has checked against the
// database, so that a busy client costs no query per request. It is only
// as fresh as its invalidation: whoever enables it must purge it whenever a
// user, role or token changes (the PostgreSQL listener and Store.Change do)
// and disable it whenever that news may be missed. A nil or disabled cache
// misses every time. The TTL bounds staleness should news be lost unseen.
type PrincipalCache struct {
	entries *lru.Cache[string, cacheEntry]
	ttl     time.Duration
	on      atomic.Bool
	// gen counts purges, so that a lookup that started before a purge
	// cannot store what it read after the purge.
	gen atomic.Uint64
}

type cacheEntry struct {
	p     Principal
	until time.Time
}

// NewPrincipalCache holds up to size callers for ttl each; it starts disabled.
func NewPrincipalCache(size int, ttl time.Duration) *PrincipalCache {
	entries, err := lru.New[string, cacheEntry](size)
	if err != nil {
		panic(err) // size <= 0 is a programming error
	}
	return &PrincipalCache{entries: entries, ttl: ttl}
}

// Generation is the purge count to hand back to Put.
func (c *PrincipalCache) Generation() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}

// Get returns a copy of the principal cached under key if it is still good at now.
func (c *PrincipalCache) Get(key string, now time.Time) (*Principal, bool) {
	if c == nil || !c.on.Load() {
		return nil, false
	}
	e, ok := c.entries.Get(key)
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	p := e.p
	return &p, true
}

// Put caches p under key until now+TTL or expires, whichever is first,
// unless the cache was purged since gen was read.
func (c *PrincipalCache) Put(key string, p *Principal, gen uint64, now, expires time.Time) {
	if c == nil || !c.on.Load() || p == nil {
		return
	}
	until := now.Add(c.ttl)
	if !expires.IsZero() && expires.Before(until) {
		until = expires
	}
	c.entries.Add(key, cacheEntry{p: *p, until: until})
	if c.gen.Load() != gen {
		c.entries.Remove(key)
	}
}

// Purge forgets every caller.
func (c *PrincipalCache) Purge() {
	if c == nil {
		return
	}
	c.gen.Add(1)
	c.entries.Purge()
}

// Enabled reports whether the cache is in use.
func (c *PrincipalCache) Enabled() bool { return c != nil && c.on.Load() }

// SetEnabled turns the cache on or off; both purge it.
func (c *PrincipalCache) SetEnabled(on bool) {
	if c == nil {
		return
	}
	c.on.Store(false)
	c.Purge()
	c.on.Store(on)
}
