package userindex

import (
	"bytes"
	"sync"
)

// recentTerms is how many searches the index remembers the matches of.
const recentTerms = 8

// termCache remembers the matches of the last few searches, kept true as
// entries change, so that paging through a search or asking it again
// costs no scan of the text: an admin reads page after page of one term.
// Each remembered search holds a bit per slot (128 KB at a million users).
type termCache struct {
	mu     sync.Mutex
	recent []*cachedTerm // most recent last
}

type cachedTerm struct {
	term []byte
	wide bool
	hits bitset
}

// get returns a copy of term's matches, if remembered.
func (c *termCache) get(term []byte, wide bool) bitset {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range c.recent {
		if t.wide == wide && bytes.Equal(t.term, term) {
			c.recent = append(append(c.recent[:i:i], c.recent[i+1:]...), t)
			return append(bitset(nil), t.hits...)
		}
	}
	return nil
}

// put remembers a copy of term's matches, forgetting the oldest search.
func (c *termCache) put(term []byte, wide bool, hits bitset) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.recent) == recentTerms {
		c.recent = c.recent[1:]
	}
	c.recent = append(c.recent, &cachedTerm{term: term, wide: wide, hits: append(bitset(nil), hits...)})
}

// update tells every remembered search that slot s now holds seg (its
// username and email the first own bytes), or nothing when seg is nil.
func (c *termCache) update(s int32, seg []byte, own int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.recent {
		for int(s>>6) >= len(t.hits) {
			t.hits = append(t.hits, 0)
		}
		t.hits[s>>6] &^= 1 << (s & 63)
		if seg == nil {
			continue
		}
		if in := seg; bytes.Contains(in[:own:own], t.term) || t.wide && bytes.Contains(in, t.term) {
			t.hits.set(s)
		}
	}
}

// forget drops every remembered search.
func (c *termCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recent = nil
}
