package live

import "testing"

// TestHub: every subscriber gets every message published after it
// subscribed, in order; leaving closes its channel once; Close ends every
// subscription and refuses later ones.
func TestHub(t *testing.T) {
	h := NewHub[int]()
	a, leaveA := h.Subscribe()
	b, leaveB := h.Subscribe()
	for i := range 3 {
		h.Publish(i)
	}
	for _, ch := range []<-chan int{a, b} {
		for want := range 3 {
			if got := <-ch; got != want {
				t.Fatalf("got %d, want %d", got, want)
			}
		}
	}
	leaveA()
	leaveA()
	if _, ok := <-a; ok {
		t.Fatal("a left, yet its channel is open")
	}
	h.Close()
	if _, ok := <-b; ok {
		t.Fatal("the hub closed, yet b's channel is open")
	}
	leaveB()
	late, _ := h.Subscribe()
	if _, ok := <-late; ok {
		t.Fatal("a closed hub took a subscriber")
	}
	h.Publish(9) // no subscriber, no panic
}

// TestHubDropsTheSlow: a subscriber Buffer messages behind is dropped
// rather than waited for; one that keeps up gets everything.
func TestHubDropsTheSlow(t *testing.T) {
	h := NewHub[int]()
	slow, _ := h.Subscribe()
	fast, leave := h.Subscribe()
	defer leave()
	for i := range Buffer {
		h.Publish(i)
	}
	if got := <-fast; got != 0 {
		t.Fatalf("fast got %d first", got)
	}
	h.Publish(Buffer)
	n := 0
	for range slow {
		n++
	}
	if n != Buffer {
		t.Fatalf("the slow subscriber got %d before it was dropped, want %d", n, Buffer)
	}
	if h.Subscribers() != 1 {
		t.Fatalf("%d subscribers, want the fast one", h.Subscribers())
	}
	for want := 1; want <= Buffer; want++ {
		if got := <-fast; got != want {
			t.Fatalf("fast got %d, want %d", got, want)
		}
	}
}
