package flags

import (
	"errors"
	"sync"
	"testing"
)

// TestCacheLoadsOnceUntilPurged: an enabled cache loads once; a purge, a
// failed load and a disabled cache each lead to a fresh load.
func TestCacheLoadsOnceUntilPurged(t *testing.T) {
	var c Cache
	loads := 0
	load := func() ([]Flag, error) { loads++; return []Flag{{Name: "x", Enabled: true, Percent: loads}}, nil }
	get := func() int {
		t.Helper()
		got, err := c.Get(load)
		if err != nil {
			t.Fatal(err)
		}
		return got[0].Percent
	}
	if get(); get() != 2 || loads != 2 {
		t.Fatalf("disabled: %d loads, want 2", loads)
	}
	c.SetEnabled(true)
	if get(); get() != 3 || loads != 3 {
		t.Fatalf("enabled: %d loads, want 3", loads)
	}
	c.Purge()
	if get() != 4 {
		t.Fatal("a purge kept the old flags")
	}
	c.Purge()
	if _, err := c.Get(func() ([]Flag, error) { return nil, errors.New("down") }); err == nil {
		t.Fatal("a failed load answered")
	}
	if get() != 5 {
		t.Fatal("a failed load was kept")
	}
}

// TestCacheLoadRacingAPurge: a load that began before a purge answers its
// caller but is not kept, so the next caller reads afresh.
func TestCacheLoadRacingAPurge(t *testing.T) {
	var c Cache
	c.SetEnabled(true)
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Get(func() ([]Flag, error) {
			close(started)
			<-release
			return []Flag{{Name: "stale"}}, nil
		})
	}()
	<-started
	c.Purge()
	close(release)
	wg.Wait()
	got, _ := c.Get(func() ([]Flag, error) { return []Flag{{Name: "fresh"}}, nil })
	if got[0].Name != "fresh" {
		t.Fatalf("kept %q, read before the purge", got[0].Name)
	}
}
