package live

import (
	"errors"
	"sync"
	"testing"
)

// TestSlots: an owner gets perOwner slots and is refused the next with
// ErrOwnerFull; the instance refuses past total with ErrFull, and an
// owner over their own bound hears that rather than ErrFull; giving a
// slot back (twice changes nothing) lets a new stream in.
func TestSlots(t *testing.T) {
	s := NewSlots(2, 3)
	a1, err := s.Take(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(1); !errors.Is(err, ErrOwnerFull) {
		t.Fatalf("third of owner 1: %v, want ErrOwnerFull", err)
	}
	if _, err := s.Take(2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(3); !errors.Is(err, ErrFull) {
		t.Fatalf("past the total: %v, want ErrFull", err)
	}
	if _, err := s.Take(1); !errors.Is(err, ErrOwnerFull) {
		t.Fatalf("owner 1 on a full instance: %v, want ErrOwnerFull", err)
	}
	a1()
	a1()
	if mine, all := s.Open(1); mine != 1 || all != 2 {
		t.Fatalf("after one release: owner 1 holds %d, %d in all; want 1, 2", mine, all)
	}
	if _, err := s.Take(3); err != nil {
		t.Fatalf("after a release: %v", err)
	}
}

// TestSlotsConcurrent: owners taking and giving back slots at once never
// pass either bound, and all is given back in the end.
func TestSlotsConcurrent(t *testing.T) {
	const perOwner, total = 3, 10
	s := NewSlots(perOwner, total)
	var wg sync.WaitGroup
	var mu sync.Mutex
	held := map[int64]int{}
	over := false
	for owner := range int64(8) {
		for range 6 {
			wg.Go(func() {
				for range 50 {
					release, err := s.Take(owner)
					if err != nil {
						continue
					}
					mu.Lock()
					held[owner]++
					n := 0
					for _, h := range held {
						n += h
					}
					over = over || held[owner] > perOwner || n > total
					mu.Unlock()
					mu.Lock()
					held[owner]--
					mu.Unlock()
					release()
				}
			})
		}
	}
	wg.Wait()
	if over {
		t.Fatal("a bound was passed")
	}
	if _, all := s.Open(0); all != 0 {
		t.Fatalf("%d slots still taken", all)
	}
}
