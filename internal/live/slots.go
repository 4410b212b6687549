package live

import (
	"errors"
	"sync"
)

// The refusals of Slots.Take.
var (
	// ErrOwnerFull: the owner holds as many streams as one owner may.
	ErrOwnerFull = errors.New("live: too many streams open for one owner")
	// ErrFull: the instance holds as many streams as it may.
	ErrFull = errors.New("live: too many streams open on this instance")
)

// Slots bounds the streams open on one instance at once: per owner and in
// all. Each open stream holds a goroutine, a subscription and a
// connection for as long as its client stays, so without a bound one
// person's tabs (or a script) could hold them by the hundred.
type Slots struct {
	perOwner, total int

	mu    sync.Mutex
	owned map[int64]int
	open  int
}

// NewSlots returns slots for at most perOwner streams per owner and total
// in all.
func NewSlots(perOwner, total int) *Slots {
	return &Slots{perOwner: perOwner, total: total, owned: map[int64]int{}}
}

// Take reserves a slot for owner's stream and returns the function that
// gives it back (safe to call more than once), or ErrOwnerFull or ErrFull.
// The owner's own bound is checked first: someone over it is told so,
// whatever the instance's load.
func (s *Slots) Take(owner int64) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.owned[owner] >= s.perOwner:
		return nil, ErrOwnerFull
	case s.open >= s.total:
		return nil, ErrFull
	}
	s.owned[owner]++
	s.open++
	var once sync.Once
	return func() { once.Do(func() { s.give(owner) }) }, nil
}

func (s *Slots) give(owner int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open--
	if s.owned[owner]--; s.owned[owner] == 0 {
		delete(s.owned, owner)
	}
}

// Open is how many slots are taken: by owner, and in all.
func (s *Slots) Open(owner int64) (mine, all int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owned[owner], s.open
}
