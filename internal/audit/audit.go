// Package audit defines the hash chain of the append-only audit log:
// each entry's hash is SHA-256 over the entry's fields and the
// previous entry's hash, so changing, removing or reordering any stored entry
// breaks every link after it.
package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// Hash computes an entry's hash. The canonical form is a JSON array of the
// fields in a fixed order; Details is re-encoded by encoding/json, which
// sorts object keys, so the form does not depend on how a database stored it.
func Hash(e Entry) (string, error) {
	var admin any
	if e.AdminID != nil {
		admin = *e.AdminID
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	canonical, err := json.Marshal([]any{
		1, // version of this canonical form
		e.CreatedAt.UTC().Truncate(Precision).Format(time.RFC3339Nano),
		admin, e.AdminUsername, e.Action, e.TargetType, e.TargetID,
		e.IPAddress, e.UserAgent, e.Status, details, e.PrevHash,
	})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:]), nil
}
