package auth

import (
	"time"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/fresh"
)

// PrincipalCache remembers callers the pipeline has checked against the
// database, so that a busy client costs no query per request. Whoever
// enables it must purge it whenever a user, role or token changes (the
// PostgreSQL listener and Store.Change do) and disable it whenever that
// news may be missed (package fresh). A nil or disabled cache misses every
// time.
type PrincipalCache struct {
	c *fresh.Cache[access.Principal]
}

// NewPrincipalCache holds up to size callers for ttl each; it starts disabled.
func NewPrincipalCache(size int, ttl time.Duration) *PrincipalCache {
	return &PrincipalCache{c: fresh.New[access.Principal](size, ttl)}
}

func (c *PrincipalCache) cache() *fresh.Cache[access.Principal] {
	if c == nil {
		return nil
	}
	return c.c
}

// Generation is the purge count to hand back to Put.
func (c *PrincipalCache) Generation() uint64 { return c.cache().Generation() }

// Get returns a copy of the principal cached under key if it is still good at now.
func (c *PrincipalCache) Get(key string, now time.Time) (*access.Principal, bool) {
	p, ok := c.cache().Get(key, now)
	if !ok {
		return nil, false
	}
	return &p, true
}

// Put caches p under key until now+TTL or expires, whichever is first,
// unless the cache was purged since gen was read.
func (c *PrincipalCache) Put(key string, p *access.Principal, gen uint64, now, expires time.Time) {
	if p != nil {
		c.cache().Put(key, *p, gen, now, expires)
	}
}

// Purge forgets every caller.
func (c *PrincipalCache) Purge() { c.cache().Purge() }

// Enabled reports whether the cache is in use.
func (c *PrincipalCache) Enabled() bool { return c.cache().Enabled() }

// SetEnabled turns the cache on or off; both purge it.
func (c *PrincipalCache) SetEnabled(on bool) { c.cache().SetEnabled(on) }
