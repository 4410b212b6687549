package blocks

import (
	"sync"
	"sync/atomic"
)

// Cache holds the instance's matcher, built once from the list and kept
// until purged, so that checking a request costs no query. It is only as
// fresh as its purges: whoever enables it must purge it whenever a block
// changes (the PostgreSQL listener; Store.Change for this instance's own
// changes) and disable it while that news may be missed. A disabled cache
// loads on every call.
type Cache struct {
	mu      sync.Mutex
	matcher *Matcher
	on      atomic.Bool
	// gen counts purges, so that a load that started before a purge
	// cannot keep what it read.
	gen atomic.Uint64
}

// Get returns the cached matcher, or builds one from load's answer and
// keeps it unless the cache was purged while load ran.
func (c *Cache) Get(load func() ([]Block, error)) (*Matcher, error) {
	if !c.on.Load() {
		list, err := load()
		if err != nil {
			return nil, err
		}
		return NewMatcher(list), nil
	}
	c.mu.Lock()
	m := c.matcher
	c.mu.Unlock()
	if m != nil {
		return m, nil
	}
	gen := c.gen.Load()
	list, err := load()
	if err != nil {
		return nil, err
	}
	m = NewMatcher(list)
	c.mu.Lock()
	if c.gen.Load() == gen {
		c.matcher = m
	}
	c.mu.Unlock()
	return m, nil
}

// Loaded reports whether a matcher is held.
func (c *Cache) Loaded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.matcher != nil
}

// Purge forgets the matcher.
func (c *Cache) Purge() {
	c.mu.Lock()
	c.gen.Add(1)
	c.matcher = nil
	c.mu.Unlock()
}

// Enabled reports whether the cache is in use.
func (c *Cache) Enabled() bool { return c.on.Load() }

// SetEnabled turns the cache on or off; both purge it.
func (c *Cache) SetEnabled(on bool) {
	c.on.Store(false)
	c.Purge()
	c.on.Store(on)
}
