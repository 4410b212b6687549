package audit

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ChainKey derives the chain's key from a secret kept outside the
// database (AUDIT_KEY, JWT_SECRET or the key file): an HMAC-SHA256 of a
// fixed label, so that the secret itself keys nothing else here.
func ChainKey(secret string) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("plaza audit chain")) //nolint:errcheck // a hash never fails to write
	return mac.Sum(nil)
}

// KeyID names a key without revealing it, so that a start with another
// key than the chain's can say so.
func KeyID(key []byte) string { return Seal(key, "key id")[len(sealPrefix) : len(sealPrefix)+16] }

const sealPrefix = "hmac-sha256:"

// Seal signs a small record (a cut-over, the chain's start, an anchor)
// with the chain's key: an HMAC-SHA256 of the record's purpose and fields
// in JSON.
func Seal(key []byte, purpose string, fields ...any) string {
	b, err := json.Marshal(append([]any{purpose}, fields...))
	if err != nil {
		panic("audit: seal of unencodable fields: " + err.Error()) // fields are ids, hashes and times
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(b) //nolint:errcheck // a hash never fails to write
	return sealPrefix + hex.EncodeToString(mac.Sum(nil))
}

// Sealed reports whether seal is the record's Seal, in constant time.
func Sealed(key []byte, seal, purpose string, fields ...any) bool {
	return hmac.Equal([]byte(seal), []byte(Seal(key, purpose, fields...)))
}

// KeyFileSecret reads the secret kept in the key file at path, making
// the file (32 random bytes, hex, mode 0600) when there is none yet. Two
// processes making it at once agree: the file appears whole, once.
func KeyFileSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := createKeyFile(path); err != nil {
			return "", err
		}
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("audit key file: %w", err)
	}
	secret := strings.TrimSpace(string(b))
	if len(secret) < 32 {
		return "", fmt.Errorf("audit key file %s: expected at least 32 characters", path)
	}
	return secret, nil
}

func createKeyFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("audit key file: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".audit-key-*")
	if err != nil {
		return fmt.Errorf("audit key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(raw) + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// A link, unlike a rename, never replaces a file another process
		// made meanwhile.
		if err = os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("audit key file: %w", err)
	}
	return nil
}
