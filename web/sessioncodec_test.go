package web

import (
	"maps"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
)

func TestSessionCodec(t *testing.T) {
	deadline := time.Date(2026, 11, 29, 10, 0, 0, 123456789, time.UTC)
	values := map[string]any{"user_id": int64(1) << 62, "seen": int64(1795000000), "oauth_pending": `{"state":"x"}`}
	b, err := sessionCodec{}.Encode(deadline, values)
	if err != nil {
		t.Fatal(err)
	}
	gotDeadline, got, err := sessionCodec{}.Decode(b)
	if err != nil || !gotDeadline.Equal(deadline) || !maps.Equal(got, values) {
		t.Errorf("round trip: %v %v %v, want %v %v", gotDeadline, got, err, deadline, values)
	}

	old, _ := scs.GobCodec{}.Encode(deadline, map[string]any{"user_id": int64(7)})
	if _, got, err := (sessionCodec{}).Decode(old); err != nil || got["user_id"] != int64(7) {
		t.Errorf("a gob session from an earlier version: %v %v", got, err)
	}
	if _, err := (sessionCodec{}).Encode(deadline, map[string]any{"n": 1.5}); err == nil {
		t.Error("a float was accepted: it would come back as something else")
	}
	if _, _, err := (sessionCodec{}).Decode([]byte("{broken")); err == nil {
		t.Error("broken data decoded")
	}
}
