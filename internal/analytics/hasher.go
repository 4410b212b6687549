package analytics

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// KeySource gives the secret of a UTC day, creating it on first use. Every
// instance sharing a database must get the same secret for the same day
// (*models.Store fits: a row per day in analytics_ip_keys).
type KeySource interface {
	AnalyticsIPKey(ctx context.Context, day time.Time) ([]byte, error)
}

// Hasher turns identifying values (IP addresses, session tokens) into keyed
// hashes: HMAC-SHA256 under the key of the UTC day, truncated to 128 bits
// and hex-encoded. The same value hashes alike within a day and unlinkably
// across days; without the day's key a hash cannot be reversed by trying
// every address. Keys are cached in memory for their day.
type Hasher struct {
	keys KeySource
	cur  atomic.Pointer[dayKey] // the day most requests fall in
	mu   sync.Mutex             // serialises fetches of a missing key
	prev *dayKey                // the day before cur, for requests straddling midnight
}

type dayKey struct {
	day time.Time
	key []byte
}

// NewHasher returns a Hasher over keys.
func NewHasher(keys KeySource) *Hasher { return &Hasher{keys: keys} }

// Hash returns the keyed hash of value under the key of at's UTC day. kind
// separates domains ("ip", "session") so that equal strings of different
// kinds never share a hash.
func (h *Hasher) Hash(ctx context.Context, at time.Time, kind, value string) (string, error) {
	key, err := h.key(ctx, Day(at))
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(value))
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0])[:16]), nil
}

func (h *Hasher) key(ctx context.Context, day time.Time) ([]byte, error) {
	if k := h.cur.Load(); k != nil && k.day.Equal(day) {
		return k.key, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if k := h.cur.Load(); k != nil && k.day.Equal(day) {
		return k.key, nil
	}
	if h.prev != nil && h.prev.day.Equal(day) {
		return h.prev.key, nil
	}
	key, err := h.keys.AnalyticsIPKey(ctx, day)
	if err != nil {
		return nil, fmt.Errorf("analytics key of %s: %w", day.Format(time.DateOnly), err)
	}
	k := &dayKey{day: day, key: key}
	cur := h.cur.Load()
	switch {
	case cur == nil || day.After(cur.day):
		h.prev = cur
		h.cur.Store(k)
	case h.prev == nil || day.After(h.prev.day):
		h.prev = k
	}
	return key, nil
}

// Day is the UTC day holding t, as midnight UTC.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
