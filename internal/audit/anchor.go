package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// Anchor is where the chain ended when it was taken: how many entries it
// held from its first one (archived ones included), the last entry's id
// and hash, and when. An operator keeps anchors outside Plaza's reach
// (off-site, or at a webhook's receiver); checked against a later chain,
// one shows whether entries it covered were removed or rewritten since.
// The signature is Seal under the chain's key, so that an anchor cannot
// be made up to fit a changed chain.
type Anchor struct {
	Count     int64  `json:"count"`
	LastID    string `json:"lastId"`
	LastHash  string `json:"lastHash"`
	At        string `json:"at"`
	Signature string `json:"signature"`
}

const anchorPurpose = "anchor"

// Sign sets a's signature under key.
func (a *Anchor) Sign(key []byte) {
	a.Signature = Seal(key, anchorPurpose, a.Count, a.LastID, a.LastHash, a.At)
}

// Signed reports whether a's signature holds under key.
func (a Anchor) Signed(key []byte) bool {
	return Sealed(key, a.Signature, anchorPurpose, a.Count, a.LastID, a.LastHash, a.At)
}

// ID is the last entry's id as a number.
func (a Anchor) ID() (int64, error) {
	id, err := strconv.ParseInt(a.LastID, 10, 64)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("anchor: lastId %q is not an entry id", a.LastID)
	}
	return id, nil
}

// ReadAnchor reads an anchor from a file: the anchor as `plaza audit
// anchor` prints it, or the whole audit.anchor webhook message a receiver
// kept (the anchor is its data); of a file of such lines (anchors
// appended one a line), the last.
func ReadAnchor(path string) (Anchor, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Anchor{}, err
	}
	if !json.Valid(b) {
		lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
		b = lines[len(lines)-1]
	}
	var msg struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &msg) == nil && msg.Type != "" && msg.Data != nil {
		b = msg.Data
	}
	var a Anchor
	if err := json.Unmarshal(b, &a); err != nil {
		return Anchor{}, fmt.Errorf("anchor %s: %w", path, err)
	}
	if a.Signature == "" || a.LastHash == "" {
		return Anchor{}, errors.New("anchor " + path + ": not an anchor (no lastHash or signature)")
	}
	if _, err := a.ID(); err != nil {
		return Anchor{}, err
	}
	return a, nil
}
