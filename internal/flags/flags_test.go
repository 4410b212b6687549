package flags

import (
	"math"
	"testing"
)

// TestRollout: at 30% about 30% of 10,000 users are in (±2 points),
// raising to 50% keeps every user who was in, each user keeps one answer,
// and a disabled flag reaches no one.
func TestRollout(t *testing.T) {
	const users = 10000
	in30, in50 := 0, 0
	for u := int64(1); u <= users; u++ {
		at30, at50 := On("new_editor", true, 30, u), On("new_editor", true, 50, u)
		if at30 {
			in30++
			if !at50 {
				t.Fatalf("user %d is in at 30%% and out at 50%%", u)
			}
		}
		if at50 {
			in50++
		}
		if at30 != On("new_editor", true, 30, u) {
			t.Fatalf("user %d changed answer", u)
		}
		if On("new_editor", false, 100, u) {
			t.Fatalf("a disabled flag reached user %d", u)
		}
	}
	for pct, got := range map[int]int{30: in30, 50: in50} {
		if share := float64(got) / users * 100; math.Abs(share-float64(pct)) > 2 {
			t.Errorf("at %d%%, %.1f%% of users are in", pct, share)
		}
	}
	same := 0
	for u := int64(1); u <= users; u++ {
		if On("new_editor", true, 30, u) == On("dark_mode", true, 30, u) {
			same++
		}
	}
	if same == users {
		t.Error("two flags reach exactly the same users")
	}
}
