// Package gctune gives the Go heap a floor of headroom between
// collections. With the default GOGC=100 a server whose live heap is small
// (an instance taking analytics events holds a few megabytes between
// requests) collects many times a second, and the collector took about a
// third of such an instance's CPU; a large live heap (the users index of a
// million users) needs no more room than GOGC=100 gives it. After every
// collection the tuner sets the GC percentage so that the next one starts
// once at least Headroom bytes more are allocated, between 100% and
// MaxPercent of the live heap.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Headroom is the least the heap may grow past its live size before the
// next collection; MaxPercent bounds the GC percentage that gives it.
const (
	Headroom   = 128 << 20
	MaxPercent = 800
)

// Start tunes the collector after every collection until the returned stop
// is called, unless GOGC is set in the environment (an operator's choice
// wins). It sets nothing until the first collection.
func Start() (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	_, stop = start()
	return stop
}

func start() (*tuner, func()) {
	t := &tuner{percent: 100}
	t.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t.arm()
	return t, func() {
		t.stopped.Store(true)
		debug.SetGCPercent(100)
	}
}

type tuner struct {
	stopped atomic.Bool
	tuned   atomic.Int64 // how many times it has tuned
	sample  []metrics.Sample
	percent int // only the finalizer goroutine touches it
}

// sentinel is the object whose collection runs the tuner. It holds a
// pointer so that it never goes to the runtime's allocator for tiny
// objects: that one packs small pointer-free objects into shared 16-byte
// blocks, freed only once all of them are, so a tiny sentinel would live
// on beside any neighbour that does and the tuner would miss collections.
type sentinel struct{ t *tuner }

// arm sets a finalizer on a new sentinel; the collection that frees it
// runs the finalizer, which tunes and re-arms.
func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t}, func(s *sentinel) {
		if s.t.stopped.Load() {
			return
		}
		s.t.tune()
		s.t.arm()
	})
}

func (t *tuner) tune() {
	t.tuned.Add(1)
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	p := Percent(t.sample[0].Value.Uint64())
	// Setting the percentage is cheap, but only a real change is worth it.
	if p != t.percent {
		t.percent = p
		debug.SetGCPercent(p)
	}
}

// Percent is the GC percentage that gives a live heap of live bytes at
// least Headroom of room, rounded up to a multiple of 50 so that small
// moves of the live heap change nothing.
func Percent(live uint64) int {
	if live == 0 {
		return MaxPercent
	}
	p := int((Headroom*100 + live - 1) / live)
	p = (p + 49) / 50 * 50
	return max(100, min(p, MaxPercent))
}
