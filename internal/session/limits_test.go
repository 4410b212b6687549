package session

import (
	"testing"
	"time"
)

// TestLimitsOver: a session is over once either bound has passed, not at
// the bound itself.
func TestLimitsOver(t *testing.T) {
	l := Limits{Lifetime: 12 * time.Hour, Idle: 30 * time.Minute}
	start := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name      string
		seen, now time.Time
		want      bool
	}{
		{"just signed in", start, start, false},
		{"idle 30 minutes", start, start.Add(30 * time.Minute), false},
		{"idle 31 minutes", start, start.Add(31 * time.Minute), true},
		{"active, 12 hours old", start.Add(11*time.Hour + 50*time.Minute), start.Add(12 * time.Hour), false},
		{"active, 12 hours and a minute old", start.Add(12 * time.Hour), start.Add(12*time.Hour + time.Minute), true},
	} {
		if got := l.Over(start, tt.seen, tt.now); got != tt.want {
			t.Errorf("%s: Over = %v, want %v", tt.name, got, tt.want)
		}
	}
}
