package auth

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/alexedwards/argon2id"
)

// Passwords runs argon2id for requests: every password a request checks
// or sets goes through one, so that an unknown email costs what a known
// one does and the work can be counted.
type Passwords struct {
	checks atomic.Int64
}

// NewPasswords returns a Passwords of its own; the server uses
// SharedPasswords.
func NewPasswords() *Passwords { return &Passwords{} }

var shared = sync.OnceValue(NewPasswords)

// SharedPasswords is the process's one Passwords.
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

// Check compares password with hash in constant time: nil or
// ErrBadPassword. A nil hash (no such user, or a user without a password)
// is compared with a dummy hash of the same parameters and answers
// ErrBadPassword, so that whether an account exists, and whether it has a
// password, does not show in how long the answer takes.
func (p *Passwords) Check(ctx context.Context, password string, hash *string) error {
	p.checks.Add(1)
	if hash == nil {
		_ = checkPassword(password, dummyHash())
		return ErrBadPassword
	}
	return checkPassword(password, *hash)
}

// Hash hashes a new password as HashPassword does.
func (p *Passwords) Hash(ctx context.Context, password string) (string, error) {
	return HashPassword(password)
}

// Checks is how many comparisons Check has run, dummy ones included.
func (p *Passwords) Checks() int64 { return p.checks.Load() }
