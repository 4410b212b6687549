package userindex

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// millionUsers is an index of n users shaped like plaza seed's.
func millionUsers(b *testing.B, n int) *Index {
	b.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	first := []string{"ada", "grace", "linus", "maria", "jose", "wei", "fatima", "olga", "sam", "priya", "kofi", "lena"}
	last := []string{"smith", "garcia", "lee", "nguyen", "kowalski", "okafor", "tanaka", "muller", "rossi", "silva"}
	x := New()
	batch := make([]Entry, 0, 10_000)
	for id := int64(1); id <= int64(n); id++ {
		f, l := first[rng.IntN(len(first))], last[rng.IntN(len(last))]
		e := Entry{ID: id, Username: fmt.Sprintf("%s_%s%d", f, l, id), Name: f + " " + l,
			Email: fmt.Sprintf("%s.%s%d@%s", f, l, id, domains[rng.IntN(len(domains))]), CreatedAt: id * 1e9,
			LastLogin: rng.Int64N(2e15), PostCount: rng.Int32N(50), Status: Status(1 + rng.IntN(3)), Rank: int8(rng.IntN(2))}
		if rng.IntN(3) == 0 {
			e.Providers = []string{"github", e.Username + "@users.github.test"}
		}
		if batch = append(batch, e); len(batch) == cap(batch) {
			x.Put(batch...)
			batch = batch[:0]
		}
	}
	x.Put(batch...)
	x.Trim()
	return x
}

// BenchmarkFind runs a mix of terms over a million users: one letter, a
// common surname, a domain a third hold, a whole address, and a term
// nobody holds; each with a status filter and a deep offset too; each
// scanned for (the first time a term is asked) and remembered (the next
// pages).
func BenchmarkFind(b *testing.B) {
	x := millionUsers(b, 1_000_000)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.Logf("heap in use with 1,000,000 users: %.0f MB", float64(m.HeapInuse)/1e6)
	for k := range keyCount {
		x.Find(Query{Sort: k, Limit: 1}) // every order built
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	b.Logf("with every order built: %.0f MB", float64(m.HeapInuse)/1e6)
	for _, term := range []string{"", "a", "garcia", "example.org", "grace.rossi4242@", "qqq", "12"} {
		for _, q := range []Query{
			{Term: term, Sort: ByCreated, Desc: true, Limit: 50},
			{Term: term, Status: Active, Sort: ByUsername, Limit: 50, Offset: 100_000},
			{Term: term, Wide: true, Sort: ByID, Desc: true, Limit: 50, Offset: 20},
		} {
			name := fmt.Sprintf("%q/%d/%d", term, q.Sort, q.Offset)
			x.Find(q) // builds the order on first use
			b.Run(name+"/scan", func(b *testing.B) {
				for b.Loop() {
					x.terms.forget()
					x.Find(q)
				}
			})
			b.Run(name+"/remembered", func(b *testing.B) {
				for b.Loop() {
					x.Find(q)
				}
			})
		}
	}
}
