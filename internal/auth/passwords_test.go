package auth

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"
)

// TestCheckWithoutHashRunsArgon2: a missing hash is compared with a dummy
// made once with the same parameters as real ones, and refused.
func TestCheckWithoutHashRunsArgon2(t *testing.T) {
	p := NewPasswords(DefaultPasswordLimits())
	ctx := context.Background()
	if err := p.Check(ctx, "anything at all", nil); !errors.Is(err, ErrBadPassword) {
		t.Errorf("no hash: %v, want ErrBadPassword", err)
	}
	hash, err := p.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(ctx, "correct horse", &hash); err != nil {
		t.Errorf("right password: %v", err)
	}
	if p.Checks() != 2 {
		t.Errorf("%d comparisons, want 2", p.Checks())
	}
	got, _, _, err := argon2id.DecodeHash(dummyHash())
	if err != nil || *got != *passwordParams || dummyHash() != dummyHash() {
		t.Errorf("dummy hash parameters %+v (%v), want %+v, made once", got, err, passwordParams)
	}
}

// TestPasswordsBound: with every slot taken, callers wait in the queue
// while there is room in it, and are refused at once beyond it or when
// their wait runs out; a freed slot goes to one who waits.
func TestPasswordsBound(t *testing.T) {
	ctx := context.Background()
	hash, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPasswords(PasswordLimits{Slots: 1, Queue: 1, Wait: time.Hour})
	hold, held := make(chan struct{}), make(chan error, 1)
	go func() { held <- p.Do(ctx, func() { <-hold }) }()
	waitUntil(t, func() bool { return p.Running() == 1 })
	queued := make(chan error, 1)
	go func() { queued <- p.Check(ctx, "correct horse", &hash) }()
	waitUntil(t, func() bool { return p.Waiting() == 1 })
	if err := p.Check(ctx, "correct horse", &hash); !errors.Is(err, ErrBusy) {
		t.Errorf("beyond the queue: %v, want ErrBusy", err)
	}
	if _, err := p.Hash(ctx, "another horse"); !errors.Is(err, ErrBusy) {
		t.Errorf("hash beyond the queue: %v, want ErrBusy", err)
	}
	close(hold)
	if err := <-held; err != nil {
		t.Error(err)
	}
	if err := <-queued; err != nil {
		t.Errorf("queued check: %v", err)
	}
	if p.Checks() != 1 || p.Running() != 0 || p.Waiting() != 0 {
		t.Errorf("checks %d, running %d, waiting %d; want 1, 0, 0", p.Checks(), p.Running(), p.Waiting())
	}

	// A wait that runs out is refused, and so is a caller that goes away.
	short := NewPasswords(PasswordLimits{Slots: 1, Queue: 1, Wait: time.Millisecond})
	hold = make(chan struct{})
	go func() { held <- short.Do(ctx, func() { <-hold }) }()
	waitUntil(t, func() bool { return short.Running() == 1 })
	if err := short.Check(ctx, "correct horse", &hash); !errors.Is(err, ErrBusy) {
		t.Errorf("after the wait: %v, want ErrBusy", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := short.Check(gone, "correct horse", &hash); !errors.Is(err, context.Canceled) {
		t.Errorf("caller gone: %v, want context.Canceled", err)
	}
	close(hold)
	<-held
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestPasswordsQueueInOrder: with every slot taken, requests wait in the
// order they came, as many as the queue holds; the next is refused at
// once, and freed slots go to the waiters first in, first served. Each
// waiter is seen parked in the semaphore before the next one comes, so
// the order is the test's, not the scheduler's.
func TestPasswordsQueueInOrder(t *testing.T) {
	const queue = 5
	ctx := context.Background()
	p := NewPasswords(PasswordLimits{Slots: 1, Queue: queue, Wait: time.Hour})
	hold, held := make(chan struct{}), make(chan error, 1)
	go func() { held <- p.Do(ctx, func() { <-hold }) }()
	waitUntil(t, func() bool { return p.Running() == 1 })
	var mu sync.Mutex
	var order []int
	done := make(chan error, queue)
	for i := range queue {
		go func() {
			done <- p.Do(ctx, func() {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
			})
		}()
		waitUntil(t, func() bool { return parkedInAcquire() == i+1 })
	}
	if p.Waiting() != queue {
		t.Errorf("%d waiting, want %d", p.Waiting(), queue)
	}
	if err := p.Do(ctx, func() { t.Error("ran beyond the queue") }); !errors.Is(err, ErrBusy) {
		t.Errorf("beyond the queue: %v, want ErrBusy", err)
	}
	close(hold)
	if err := <-held; err != nil {
		t.Error(err)
	}
	for range queue {
		if err := <-done; err != nil {
			t.Errorf("a waiter: %v", err)
		}
	}
	if want := []int{0, 1, 2, 3, 4}; !slices.Equal(order, want) {
		t.Errorf("served in the order %v, want %v", order, want)
	}
	if p.Running() != 0 || p.Waiting() != 0 {
		t.Errorf("running %d, waiting %d after all", p.Running(), p.Waiting())
	}
}

// TestDefaultPasswordQueue: a waiting request holds no argon2id memory,
// so the default queue is long and patient, while the slots stay bounded.
func TestDefaultPasswordQueue(t *testing.T) {
	l := DefaultPasswordLimits()
	if l.Queue != 256 || l.Wait != 8*time.Second || l.Slots > maxPasswordSlots || l.Slots < 1 {
		t.Errorf("defaults %+v, want 256 waiting for 8s and 1 to %d slots", l, maxPasswordSlots)
	}
}

// parkedInAcquire counts the goroutines blocked inside the slots'
// semaphore, waiting their turn.
func parkedInAcquire() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "[select") && strings.Contains(g, "semaphore.(*Weighted).Acquire(") {
			n++
		}
	}
	return n
}
