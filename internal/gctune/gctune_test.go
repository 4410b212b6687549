package gctune

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, MaxPercent},
		{4 << 20, MaxPercent}, // a small heap gets the most room allowed
		{32 << 20, 400},       // 128 MiB of room is 400% of 32 MiB
		{40 << 20, 350},       // 320%, rounded up to the next 50
		{128 << 20, 100},      // GOGC=100 already gives the room
		{1 << 30, 100},        // a large heap never goes below the default
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// gogc is the collector's current percentage.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestTunesAfterCollections: once started, a collection sets the
// percentage from the live heap (a test binary's is small, so it gets the
// most); stopping puts the default back. With GOGC set, nothing changes.
func TestTunesAfterCollections(t *testing.T) {
	t.Setenv("GOGC", "100")
	Start()()           // set: a no-op
	os.Unsetenv("GOGC") //nolint:errcheck // t.Setenv restores it
	stop := Start()
	for deadline := time.Now().Add(10 * time.Second); gogc() != MaxPercent; {
		if time.Now().After(deadline) {
			t.Fatalf("after collections the percentage is %d, want %d", gogc(), MaxPercent)
		}
		runtime.GC() // frees the sentinel; its finalizer tunes and re-arms
		runtime.Gosched()
	}
	stop()
	if got := gogc(); got != 100 {
		t.Errorf("after stop: %d, want 100", got)
	}
	runtime.GC()
	runtime.GC()
	if got := gogc(); got != 100 {
		t.Errorf("a stopped tuner still tunes: %d", got)
	}
}

// TestTunesAfterEveryCollection: the tuner runs after each collection,
// even while small objects allocated beside its sentinel stay alive. On
// one P they share the runtime's 16-byte blocks for tiny objects, and a
// sentinel in such a block is freed only with its neighbours: a tuner that
// missed collections left a heap that grew from 30 to 130 MiB (a users
// index loading) with the percentage set for 30, over 700 MiB of goal.
func TestTunesAfterEveryCollection(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tn, stop := start()
	defer stop()
	var kept []*int32
	for range 20 {
		before := tn.tuned.Load()
		runtime.GC()
		for deadline := time.Now().Add(10 * time.Second); tn.tuned.Load() == before; runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("a collection went by without the tuner running (it ran %d times)", before)
			}
		}
		for range 64 {
			kept = append(kept, new(int32))
		}
	}
	runtime.KeepAlive(kept)
}
