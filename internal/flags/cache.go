package flags

import (
	"sync"
	"sync/atomic"
)

// Flag is what deciding a flag for a user needs.
type Flag struct {
	Name    string
	Enabled bool
	Percent int
}

// Cache holds every flag, read once and kept until purged, so that
// evaluating flags costs no query. Like the caller cache it is only as
// fresh as its purges: whoever enables it must purge it whenever a flag
// changes (the PostgreSQL listener and Store.Change do) and disable it
// whenever that news may be missed. A nil or disabled cache loads every
// time.
type Cache struct {
	mu     sync.Mutex
	flags  []Flag
	loaded bool
	on     atomic.Bool
	// gen counts purges, so that a load that started before a purge
	// cannot keep what it read.
	gen atomic.Uint64
}

// Get returns the cached flags, or load's answer, which it keeps unless
// the cache was purged while load ran. Callers must not change the slice.
func (c *Cache) Get(load func() ([]Flag, error)) ([]Flag, error) {
	if c == nil || !c.on.Load() {
		return load()
	}
	c.mu.Lock()
	flags, ok := c.flags, c.loaded
	c.mu.Unlock()
	if ok {
		return flags, nil
	}
	gen := c.gen.Load()
	flags, err := load()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen.Load() == gen {
		c.flags, c.loaded = flags, true
	}
	c.mu.Unlock()
	return flags, nil
}

// Purge forgets the flags.
func (c *Cache) Purge() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.gen.Add(1)
	c.flags, c.loaded = nil, false
	c.mu.Unlock()
}

// Enabled reports whether the cache is in use.
func (c *Cache) Enabled() bool { return c != nil && c.on.Load() }

// SetEnabled turns the cache on or off; both purge it.
func (c *Cache) SetEnabled(on bool) {
	if c == nil {
		return
	}
	c.on.Store(false)
	c.Purge()
	c.on.Store(on)
}
