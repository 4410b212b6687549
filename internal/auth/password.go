// Package auth holds Plaza's identity rules that know nothing of HTTP:
// password hashing, roles and their permissions, and admin tokens.
package auth

import (
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/alexedwards/argon2id"
)

// ErrBadPassword is returned when a password does not match its hash.
var ErrBadPassword = errors.New("password does not match")

// MinPasswordLen is the shortest password Plaza accepts.
const MinPasswordLen = 8

// passwordParams follow RFC 9106's second recommended option (64 MiB, three
// passes) scaled to a small server: 46 MiB, one pass, as OWASP suggests.
var passwordParams = &argon2id.Params{Memory: 46 * 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(password string) (string, error) {
	if len(password) < MinPasswordLen {
		return "", fmt.Errorf("password must have at least %d characters", MinPasswordLen)
	}
	return argon2id.CreateHash(password, passwordParams)
}

// CheckPassword compares a password with a hash in constant time.
func CheckPassword(password, hash string) error {
	ok, err := argon2id.ComparePasswordAndHash(password, hash)
	if err != nil {
		return fmt.Errorf("check password: %w", err)
	}
	if !ok {
		return ErrBadPassword
	}
	return nil
}

// RandomPassword returns a random 26-character password (130 bits, base32:
// nothing to confuse when copied from a terminal).
func RandomPassword() string { return rand.Text() }

// RandomSecret returns 52 random base32 characters, for generated secrets.
func RandomSecret() string { return rand.Text() + rand.Text() }
