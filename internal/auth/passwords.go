package auth

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alexedwards/argon2id"
	"golang.org/x/sync/semaphore"
)

// ErrBusy is a password check or hash refused because too many are running
// and waiting already: the caller answers 503 and is asked to retry.
var ErrBusy = errors.New("too many passwords are being checked at once")

// Passwords runs argon2id for requests: every password a request checks
// or sets goes through one, so that an unknown email costs what a known
// one does, and so that the memory argon2id takes (passwordParams.Memory,
// 46 MiB each) stays bounded however many requests arrive at once.
type Passwords struct {
	slots   *semaphore.Weighted
	queue   atomic.Int64 // PasswordLimits.Queue, set by SetQueue
	wait    atomic.Int64 // PasswordLimits.Wait
	running atomic.Int64
	waiting atomic.Int64
	checks  atomic.Int64
}

// PasswordLimits bound the argon2id work running at once.
type PasswordLimits struct {
	// Slots is how many checks and hashes run at once: the bound on
	// argon2id's memory.
	Slots int
	// Queue is how many more may wait for a slot, served in the order they
	// came (semaphore.Weighted is first in, first out); beyond it they are
	// refused at once. A waiting request holds no argon2id memory, so the
	// queue can be long.
	Queue int
	// Wait is how long one waits for a slot before it is refused.
	Wait time.Duration
}

// maxPasswordSlots caps the slots on a large machine: 6 × 46 MiB is
// 276 MiB of argon2id memory at once, which the garbage collector's
// headroom (it frees the 46 MiB blocks only when it runs) about doubles;
// docs/performance.md, "Sign-in under load", has the figures.
const maxPasswordSlots = 6

// Defaults of the queue (PASSWORD_QUEUE, PASSWORD_QUEUE_WAIT): a burst of
// 100 sign-ups or sign-ins on 2 cores is served within 10 s (each argon2id
// run takes some 50 ms of a core), and only a crowd beyond 256 waiting, or
// a wait beyond 8 s, is told to retry.
const (
	DefaultPasswordQueue     = 256
	DefaultPasswordQueueWait = 8 * time.Second
)

// DefaultPasswordLimits are twice GOMAXPROCS slots (at most
// maxPasswordSlots: argon2id with one lane is CPU work, so more at once
// only shares the cores and holds more memory) and the default queue.
func DefaultPasswordLimits() PasswordLimits {
	slots := min(2*runtime.GOMAXPROCS(0), maxPasswordSlots)
	return PasswordLimits{Slots: slots, Queue: DefaultPasswordQueue, Wait: DefaultPasswordQueueWait}
}

// NewPasswords returns a Passwords of its own; the server uses
// SharedPasswords.
func NewPasswords(l PasswordLimits) *Passwords {
	p := &Passwords{slots: semaphore.NewWeighted(int64(max(l.Slots, 1)))}
	p.SetQueue(l.Queue, l.Wait)
	return p
}

// SetQueue changes how many may wait for a slot and for how long (the
// server's settings, applied to SharedPasswords at start); the slots stay.
func (p *Passwords) SetQueue(n int, wait time.Duration) {
	p.queue.Store(int64(max(n, 0)))
	p.wait.Store(int64(wait))
}

var shared = sync.OnceValue(func() *Passwords { return NewPasswords(DefaultPasswordLimits()) })

// SharedPasswords is the process's one Passwords: the bound is on the
// process's memory, whichever request or action hashes.
func SharedPasswords() *Passwords { return shared() }

// dummyHash is compared with when there is no hash to compare with: made
// once, with passwordParams, from a password nobody knows.
var dummyHash = sync.OnceValue(func() string {
	h, err := argon2id.CreateHash(RandomSecret(), passwordParams)
	if err != nil {
		panic(err) // only crypto/rand failing, which Go treats as fatal anyway
	}
	return h
})

// Check compares password with hash in constant time: nil,
// ErrBadPassword, or ErrBusy. A nil hash (no such user, or a user without
// a password) is compared with a dummy hash of the same parameters and
// answers ErrBadPassword, so that whether an account exists, and whether
// it has a password, does not show in how long the answer takes.
func (p *Passwords) Check(ctx context.Context, password string, hash *string) error {
	release, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	p.checks.Add(1)
	if hash == nil {
		_ = checkPassword(password, dummyHash())
		return ErrBadPassword
	}
	return checkPassword(password, *hash)
}

// Hash hashes a new password as HashPassword does, or answers ErrBusy.
func (p *Passwords) Hash(ctx context.Context, password string) (string, error) {
	if err := CheckNewPassword(password, ""); err != nil {
		return "", err // refused before it takes a slot
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	return HashPassword(password)
}

// Do runs fn holding a slot, as Check and Hash do: for other work as
// hungry as argon2id, which must share its bound. ErrBusy when refused.
func (p *Passwords) Do(ctx context.Context, fn func()) error {
	release, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	fn()
	return nil
}

// Checks is how many comparisons Check has run, dummy ones included.
func (p *Passwords) Checks() int64 { return p.checks.Load() }

// Running and Waiting are how many callers hold a slot and wait for one.
func (p *Passwords) Running() int { return int(p.running.Load()) }
func (p *Passwords) Waiting() int { return int(p.waiting.Load()) }

// acquire takes a slot, waiting in the queue, in order, when there is
// room in it; ErrBusy when there is not or the wait runs out.
func (p *Passwords) acquire(ctx context.Context) (release func(), err error) {
	release = func() {
		p.running.Add(-1)
		p.slots.Release(1)
	}
	if p.slots.TryAcquire(1) {
		p.running.Add(1)
		return release, nil
	}
	if p.waiting.Add(1) > p.queue.Load() {
		p.waiting.Add(-1)
		return nil, ErrBusy
	}
	defer p.waiting.Add(-1)
	wait, cancel := context.WithTimeout(ctx, time.Duration(p.wait.Load()))
	defer cancel()
	if err := p.slots.Acquire(wait, 1); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // the caller went away
		}
		return nil, ErrBusy
	}
	p.running.Add(1)
	return release, nil
}
