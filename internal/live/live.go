// Package live fans news out to the open streams of one instance (the
// console's server-sent events): every subscriber gets every message
// published after it subscribed, in order, until it leaves or the hub
// closes.
package live

import "sync"

// Buffer is how many messages a subscriber may fall behind. A subscriber
// further behind is dropped (its channel closes), so that one stalled
// stream never holds up the others; a browser reconnects and reads the
// state afresh.
const Buffer = 64

// Hub is one instance's fan-out of messages of type T. The zero value is
// not usable: NewHub.
type Hub[T any] struct {
	mu     sync.Mutex
	subs   map[chan T]struct{}
	closed bool
}

// NewHub returns an open hub with no subscribers.
func NewHub[T any]() *Hub[T] {
	return &Hub[T]{subs: map[chan T]struct{}{}}
}

// Subscribe returns a channel of the messages published from now on and
// the function that leaves (safe to call more than once). The channel
// closes when the subscriber leaves, falls Buffer messages behind, or the
// hub closes; on a closed hub it is closed already.
func (h *Hub[T]) Subscribe() (<-chan T, func()) {
	ch := make(chan T, Buffer)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(ch)
		return ch, func() {}
	}
	h.subs[ch] = struct{}{}
	return ch, func() { h.drop(ch) }
}

// Publish hands m to every subscriber without waiting for any.
func (h *Hub[T]) Publish(m T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- m:
		default: // too far behind: dropped rather than waited for
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// Subscribers is how many subscribers the hub holds.
func (h *Hub[T]) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Close ends every subscription and refuses new ones: the server is
// stopping, and open streams must end for it to stop.
func (h *Hub[T]) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for ch := range h.subs {
		delete(h.subs, ch)
		close(ch)
	}
}

func (h *Hub[T]) drop(ch chan T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}
