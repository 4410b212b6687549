package audit

import (
	"encoding/json"
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
