// Package auth holds Plaza's identity rules that know nothing of HTTP:
// password hashing, roles and their permissions, and admin tokens.
package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
)

// ErrBadPassword is returned when a password does not match its hash.
var ErrBadPassword = errors.New("password does not match")

// MinPasswordLen and MaxPasswordLen bound a new password, counted in
// characters (Unicode code points), as people count them. The minimum is
// ASVS 2.1.1's 12 characters. The maximum also
// bounds what argon2id is given to hash, which it would otherwise take at
// any length: 256 characters are at most 1024 bytes of UTF-8.
const (
	MinPasswordLen = 12
	MaxPasswordLen = 256
)

// PasswordRule names the rule a new password breaks.
type PasswordRule int

// The rules of CheckNewPassword.
const (
	PasswordTooShort PasswordRule = iota + 1 // fewer than MinPasswordLen characters
	PasswordTooLong                          // more than MaxPasswordLen characters
	PasswordCommon                           // among the most common passwords
	PasswordIsEmail                          // the account's email address, or its part before the @
)

// PasswordRuleError is a new password that CheckNewPassword refuses. Reason
// is written for the person choosing the password and reads after the
// word "password" or the name of the field that holds it: "must have at
// least 12 characters".
type PasswordRuleError struct {
	Rule   PasswordRule
	Reason string
}

func (e *PasswordRuleError) Error() string { return "password " + e.Reason }

// CheckNewPassword is Plaza's one rule for a password someone sets, by
// whatever door (registration, password change, the CLI, ADMIN_PASSWORD):
// MinPasswordLen to MaxPasswordLen characters, not one of the most common
// passwords, and not the account's email address nor its part before the @
// (email may be empty when there is no account yet). It answers nil or a
// *PasswordRuleError.
func CheckNewPassword(password, email string) error {
	n := utf8.RuneCountInString(password)
	local, _, _ := strings.Cut(email, "@")
	switch {
	case n < MinPasswordLen:
		return &PasswordRuleError{PasswordTooShort, fmt.Sprintf("must have at least %d characters", MinPasswordLen)}
	case n > MaxPasswordLen:
		return &PasswordRuleError{PasswordTooLong, fmt.Sprintf("must have at most %d characters", MaxPasswordLen)}
	case IsCommonPassword(password):
		return &PasswordRuleError{PasswordCommon, "is among the most common passwords; choose another"}
	case email != "" && (strings.EqualFold(password, email) || strings.EqualFold(password, local)):
		return &PasswordRuleError{PasswordIsEmail, "must not be the email address"}
	}
	return nil
}

// passwordParams follow RFC 9106's second recommended option (64 MiB, three
// passes) scaled to a small server: 46 MiB, one pass, as OWASP suggests.
var passwordParams = &argon2id.Params{Memory: 46 * 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// HashPassword returns an argon2id hash in the PHC string format. It hashes
// only a password CheckNewPassword accepts (without an email to compare),
// and answers its *PasswordRuleError otherwise.
func HashPassword(password string) (string, error) {
	if err := CheckNewPassword(password, ""); err != nil {
		return "", err
	}
	return argon2id.CreateHash(password, passwordParams)
}

// checkPassword compares a password with a hash in constant time; callers
// go through Passwords.Check.
func checkPassword(password, hash string) error {
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
