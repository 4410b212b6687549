package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func entry() Entry {
	id := int64(7)
	return Entry{
		CreatedAt: time.Date(2026, 11, 22, 3, 4, 5, 123456789, time.UTC), AdminID: &id, AdminUsername: "ada",
		Action: "user.ban", TargetType: "user", TargetID: "42", IPAddress: "127.0.0.1", UserAgent: "curl",
		Status: 200, Details: map[string]any{"after": map[string]any{"status": "banned"}, "before": map[string]any{"status": "active"}},
		PrevHash: Genesis,
	}
}

func TestHashIsStable(t *testing.T) {
	a, err := Hash(entry())
	if err != nil {
		t.Fatal(err)
	}
	// A database round trip reorders keys and turns numbers into float64.
	e := entry()
	var reread map[string]any
	b, _ := json.Marshal(e.Details)
	json.Unmarshal(b, &reread)
	e.Details = reread
	e.CreatedAt = e.CreatedAt.Truncate(time.Microsecond).In(time.FixedZone("X", 3600))
	b2, _ := Hash(e)
	if a != b2 || len(a) != 64 {
		t.Errorf("hash changed across a round trip: %s vs %s", a, b2)
	}
}

func TestHashCoversEveryField(t *testing.T) {
	base, _ := Hash(entry())
	other := int64(8)
	changes := map[string]func(*Entry){
		"time":     func(e *Entry) { e.CreatedAt = e.CreatedAt.Add(time.Microsecond) },
		"admin":    func(e *Entry) { e.AdminID = &other },
		"no admin": func(e *Entry) { e.AdminID = nil },
		"username": func(e *Entry) { e.AdminUsername = "eve" },
		"action":   func(e *Entry) { e.Action = "user.unban" },
		"type":     func(e *Entry) { e.TargetType = "post" },
		"target":   func(e *Entry) { e.TargetID = "43" },
		"ip":       func(e *Entry) { e.IPAddress = "10.0.0.1" },
		"ua":       func(e *Entry) { e.UserAgent = "wget" },
		"status":   func(e *Entry) { e.Status = 403 },
		"details":  func(e *Entry) { e.Details = map[string]any{} },
		"prev":     func(e *Entry) { e.PrevHash = "1" + Genesis[1:] },
	}
	for name, change := range changes {
		e := entry()
		change(&e)
		if h, _ := Hash(e); h == base {
			t.Errorf("changing %s left the hash unchanged", name)
		}
	}
}

func TestKeyedHash(t *testing.T) {
	key := ChainKey("a secret of at least thirty-two characters")
	h := NewHasher(key)
	base, err := h.Hash(entry())
	if err != nil || len(base) != 64 {
		t.Fatalf("keyed hash %q, %v", base, err)
	}
	if again, _ := h.Hash(entry()); again != base {
		t.Error("the same entry hashed twice with one Hasher differs")
	}
	if plain, _ := Hash(entry()); plain == base {
		t.Error("the keyed hash equals the unkeyed one")
	}
	if other, _ := NewHasher(ChainKey("another secret of thirty-two characters")).Hash(entry()); other == base {
		t.Error("another key gave the same hash")
	}
	e := entry()
	e.Status = 403
	if changed, _ := h.Hash(e); changed == base {
		t.Error("a changed entry kept its keyed hash")
	}
}

func TestSeal(t *testing.T) {
	key := ChainKey("a secret of at least thirty-two characters")
	s := Seal(key, "start", int64(4), "abc", int64(4))
	if !Sealed(key, s, "start", int64(4), "abc", int64(4)) {
		t.Fatal("a seal does not hold for its own fields")
	}
	for name, ok := range map[string]bool{
		"another field":   Sealed(key, s, "start", int64(5), "abc", int64(4)),
		"another purpose": Sealed(key, s, "cut-over", int64(4), "abc", int64(4)),
		"another key":     Sealed(ChainKey("x"), s, "start", int64(4), "abc", int64(4)),
		"no seal":         Sealed(key, "", "start", int64(4), "abc", int64(4)),
	} {
		if ok {
			t.Errorf("%s: the seal holds", name)
		}
	}
	if KeyID(key) == KeyID(ChainKey("x")) || len(KeyID(key)) != 16 {
		t.Errorf("key ids %q, %q", KeyID(key), KeyID(ChainKey("x")))
	}
}

// TestKeyFileSecret: the key file is made once, private, and read back the
// same by every process; racing makers agree on one secret.
func TestKeyFileSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "audit.key")
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() {
			s, err := KeyFileSecret(path)
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		})
	}
	wg.Wait()
	for _, s := range got {
		if s != got[0] || len(s) != 64 {
			t.Fatalf("racing makers read %q", got)
		}
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file %v, %v; want mode 0600", info, err)
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := KeyFileSecret(path); err == nil {
		t.Error("a key file of 5 characters was accepted")
	}
}

func TestReadAnchor(t *testing.T) {
	key := ChainKey("a secret of at least thirty-two characters")
	a := Anchor{Count: 3, LastID: "7", LastHash: Genesis, At: "2026-12-07T04:00:00.000Z"}
	a.Sign(key)
	bare, _ := json.Marshal(a)
	msg, _ := json.Marshal(map[string]any{"type": "audit.anchor", "timestamp": a.At, "data": a})
	dir := t.TempDir()
	older := a
	older.Count, older.LastID = 1, "5"
	older.Sign(key)
	first, _ := json.Marshal(older)
	lines := append(append(append(first, '\n'), bare...), '\n')
	for name, body := range map[string][]byte{"bare": bare, "message": msg, "lines": lines} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, body, 0o600)
		got, err := ReadAnchor(path)
		if err != nil || got != a || !got.Signed(key) {
			t.Errorf("%s: %+v %v", name, got, err)
		}
	}
	path := filepath.Join(dir, "other")
	os.WriteFile(path, []byte(`{"hello":"world"}`), 0o600)
	if _, err := ReadAnchor(path); err == nil {
		t.Error("a file without an anchor was read as one")
	}
}

// BenchmarkHash compares the unkeyed hash with the keyed one, per entry.
func BenchmarkHash(b *testing.B) {
	b.Run("sha256", func(b *testing.B) {
		for b.Loop() {
			Hash(entry())
		}
	})
	b.Run("hmac-sha256", func(b *testing.B) {
		h := NewHasher(ChainKey("a secret of at least thirty-two characters"))
		for b.Loop() {
			h.Hash(entry())
		}
	})
}
