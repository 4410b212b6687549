// Package audit defines the hash chain of the append-only audit log:
// each entry's hash covers the entry's fields and the previous entry's
// hash, so changing, removing or reordering any stored entry breaks every
// link after it. The hash is an HMAC-SHA256 under a key kept outside the
// database (Hasher), so that whoever can write the database cannot
// re-chain what they changed; entries written before the chain was keyed
// keep their plain SHA-256 (Hash).
package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"strings"
	"time"
)

// Genesis is the prevHash of the first entry.
var Genesis = strings.Repeat("0", 64)

// Entry is what the hash covers.
type Entry struct {
	CreatedAt     time.Time
	AdminID       *int64
	AdminUsername string
	Action        string
	TargetType    string
	TargetID      string
	IPAddress     string
	UserAgent     string
	Status        int
	Details       map[string]any
	PrevHash      string
}

// Precision is the timestamp precision both databases keep; entries are
// stored and hashed at this precision so a re-read entry hashes the same.
const Precision = time.Microsecond

// Versions of the canonical form: 1 is hashed with SHA-256 alone, 2 with
// the chain's key.
const (
	unkeyedForm = 1
	keyedForm   = 2
)

// canonical is an entry as hashed: a JSON array of the fields in a fixed
// order; Details is re-encoded by encoding/json, which sorts object keys,
// so the form does not depend on how a database stored it.
func canonical(version int, e Entry) ([]byte, error) {
	var admin any
	if e.AdminID != nil {
		admin = *e.AdminID
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	return json.Marshal([]any{
		version,
		e.CreatedAt.UTC().Truncate(Precision).Format(time.RFC3339Nano),
		admin, e.AdminUsername, e.Action, e.TargetType, e.TargetID,
		e.IPAddress, e.UserAgent, e.Status, details, e.PrevHash,
	})
}

// Hash is the unkeyed SHA-256 of an entry, as the chain was hashed before
// it was keyed: it only checks the entries written then.
func Hash(e Entry) (string, error) {
	b, err := canonical(unkeyedForm, e)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Hasher computes keyed hashes: HMAC-SHA256 under the chain's key. One
// Hasher serves one goroutine; it is reused across a batch.
type Hasher struct{ mac hash.Hash }

// NewHasher is a Hasher under key (the chain's key, ChainKey).
func NewHasher(key []byte) *Hasher { return &Hasher{mac: hmac.New(sha256.New, key)} }

// Hash computes an entry's keyed hash.
func (h *Hasher) Hash(e Entry) (string, error) {
	b, err := canonical(keyedForm, e)
	if err != nil {
		return "", err
	}
	h.mac.Reset()
	h.mac.Write(b) //nolint:errcheck // a hash never fails to write
	return hex.EncodeToString(h.mac.Sum(nil)), nil
}
