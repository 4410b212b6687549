package auth

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTP parameters (RFC 6238 defaults, which every authenticator app reads):
// 30-second steps, six digits, SHA-1, and one step of drift either way.
const (
	TOTPPeriod = 30
	totpSkew   = 1
	qrSize     = 256
)

// RecoveryCodeCount is how many one-time recovery codes an enrolment gets.
const RecoveryCodeCount = 10

// Enrolment is a new TOTP secret and the ways to hand it to an app.
type Enrolment struct {
	Secret string // base32, for typing in by hand
	URL    string // otpauth://
	QRCode string // data:image/png;base64,…
}

// NewEnrolment makes a fresh secret for account (an email) under issuer,
// with its QR code drawn here as a PNG.
func NewEnrolment(issuer, account string) (Enrolment, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: TOTPPeriod})
	if err != nil {
		return Enrolment{}, fmt.Errorf("totp secret: %w", err)
	}
	img, err := key.Image(qrSize, qrSize)
	if err != nil {
		return Enrolment{}, fmt.Errorf("totp qr code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Enrolment{}, fmt.Errorf("totp qr png: %w", err)
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// TOTPCode is the code of secret at t (tests, and nothing else, need it).
func TOTPCode(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totp.ValidateOpts{Period: TOTPPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
}

// CheckTOTP finds the time step, within one step of now, whose code is
// code and which is later than lastStep; ok is false when there is none.
// Accepting only steps after the last one used makes every code single-use.
func CheckTOTP(secret, code string, now time.Time, lastStep int64) (step int64, ok bool) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if len(code) != 6 {
		return 0, false
	}
	current := now.Unix() / TOTPPeriod
	for s := current - totpSkew; s <= current+totpSkew; s++ {
		if s <= lastStep {
			continue
		}
		want, err := TOTPCode(secret, time.Unix(s*TOTPPeriod, 0))
		if err == nil && hmac.Equal([]byte(want), []byte(code)) {
			return s, true
		}
	}
	return 0, false
}

// NewRecoveryCodes makes RecoveryCodeCount codes of 60 random bits each,
// shown as xxxx-xxxx-xxxx, and their digests to store.
func NewRecoveryCodes() (codes, hashes []string, err error) {
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	for range RecoveryCodeCount {
		raw := make([]byte, 8)
		if _, err := rand.Read(raw); err != nil {
			return nil, nil, err
		}
		s := strings.ToLower(enc.EncodeToString(raw))[:12]
		code := s[:4] + "-" + s[4:8] + "-" + s[8:]
		codes, hashes = append(codes, code), append(hashes, HashRecoveryCode(code))
	}
	return codes, hashes, nil
}

// HashRecoveryCode is the stored digest of a recovery code, as typed: case,
// spaces and dashes do not matter. A plain SHA-256 suffices (no slow
// password hash) because the code is random, not chosen by a person.
func HashRecoveryCode(code string) string {
	norm := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}

// SecretBox seals TOTP secrets at rest with AES-GCM under a key derived
// from JWT_SECRET, so a copy of the database alone does not give away the
// codes of every staff member.
type SecretBox struct{ aead cipher.AEAD }

// NewSecretBox derives the sealing key from the JWT secret.
func NewSecretBox(jwtSecret string) SecretBox {
	mac := hmac.New(sha256.New, []byte(jwtSecret))
	mac.Write([]byte("plaza totp secret"))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return SecretBox{aead: aead}
}

// ErrSealedSecret means a sealed secret does not open: it was damaged, or
// sealed under another JWT_SECRET.
var ErrSealedSecret = errors.New("totp secret does not open (was JWT_SECRET changed?)")

// Seal encrypts a secret for storage.
func (b SecretBox) Seal(secret string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawStdEncoding.EncodeToString(b.aead.Seal(nonce, nonce, []byte(secret), nil)), nil
}

// Open decrypts a stored secret.
func (b SecretBox) Open(sealed string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	n := b.aead.NonceSize()
	if err != nil || len(raw) < n {
		return "", ErrSealedSecret
	}
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", ErrSealedSecret
	}
	return string(plain), nil
}
