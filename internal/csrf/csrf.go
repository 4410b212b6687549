// Package csrf makes and checks the double-submit tokens of next-auth's
// client protocol (docs/security.md, "next-auth's CSRF token"): the token
// travels once in an HttpOnly cookie, signed, and once in the form the
// client posts, which it read from GET /api/auth/csrf.
package csrf

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// CookieName is the token cookie's name over http; SecureCookieName the
// one behind https, whose __Host- prefix makes browsers refuse it from a
// sibling subdomain or without Secure, so that no one but Plaza sets it.
const (
	CookieName       = "plaza_csrf"
	SecureCookieName = "__Host-plaza_csrf"
)

// Key derives the signing key from the session secret: no new secret to
// configure, and a token is good on every instance.
func Key(sessionSecret string) []byte {
	m := hmac.New(sha256.New, []byte(sessionSecret))
	m.Write([]byte("plaza csrf token"))
	return m.Sum(nil)
}

// New is a fresh token and the cookie value that carries it:
// token|signature.
func New(key []byte) (token, cookie string) {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	token = hex.EncodeToString(b)
	return token, token + "|" + sign(key, token)
}

// FromCookie is the token a cookie value carries when the signature is
// Plaza's.
func FromCookie(key []byte, cookie string) (string, bool) {
	token, mac, found := strings.Cut(cookie, "|")
	if !found || token == "" || !hmac.Equal([]byte(mac), []byte(sign(key, token))) {
		return "", false
	}
	return token, true
}

// Verify reports whether submitted is the token of a cookie Plaza signed,
// compared in constant time.
func Verify(key []byte, cookie, submitted string) bool {
	token, ok := FromCookie(key, cookie)
	return ok && submitted != "" && hmac.Equal([]byte(token), []byte(submitted))
}

func sign(key []byte, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}
