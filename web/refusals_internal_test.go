package web

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/audit"
)

// TestRefusalsAdmitOncePerWindow: many goroutines refused at once, of one
// kind, get one row per window between them, and the next row counts the
// others.
func TestRefusalsAdmitOncePerWindow(t *testing.T) {
	var r refusals
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if r.admit(&audit.Draft{Action: "audit.verify"}, 401, t0) {
					admitted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := admitted.Load(); n != 1 {
		t.Fatalf("%d rows admitted in one window, want 1", n)
	}
	next := &audit.Draft{Action: "audit.verify"}
	if !r.admit(next, 401, t0.Add(refusalWindow)) || next.Details["repeats"] != int64(999) {
		t.Errorf("the next window's row: details %v, want repeats 999", next.Details)
	}
	admin := int64(7)
	if !r.admit(&audit.Draft{Action: "audit.verify", AdminID: &admin}, 429, t0) {
		t.Error("another kind shares the window")
	}
}
