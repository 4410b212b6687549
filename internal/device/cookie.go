package device

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// CookieName is the device cookie's: it marks a browser in which someone
// signed in, so that sign-in's failure throttle can tell the owner's own
// browser from a stranger's guesses (OWASP's "device cookies").
const CookieName = "plaza_device"

// Key derives the device cookie's signing key from the session secret, so
// that no new secret has to be configured and a cookie is good on every
// instance.
func Key(sessionSecret string) []byte {
	m := hmac.New(sha256.New, []byte(sessionSecret))
	m.Write([]byte("plaza device cookie"))
	return m.Sum(nil)
}

// NewCookie is the value of a new device cookie for the account userID
// with the (normalised) email just signed in: a random id and its
// signature with both. The account's id is in the signature so that the
// cookie never vouches for another account that takes the email later
// (user ids are never handed out twice).
func NewCookie(key []byte, userID int64, email string) string {
	id := rand.Text()
	return id + "." + sign(key, id, userID, email)
}

// Trusted reports whether value is a device cookie NewCookie made for the
// account userID with email, and names the device by its id.
func Trusted(key []byte, value string, userID int64, email string) (id string, ok bool) {
	id, mac, found := strings.Cut(value, ".")
	if !found || id == "" || !hmac.Equal([]byte(mac), []byte(sign(key, id, userID, email))) {
		return "", false
	}
	return id, true
}

func sign(key []byte, id string, userID int64, email string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{0})
	m.Write([]byte(strconv.FormatInt(userID, 10)))
	m.Write([]byte{0})
	m.Write([]byte(email))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
