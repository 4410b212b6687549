package userindex

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// reference answers a query by brute force over the entries it was given.
type reference map[int64]Entry

func (r reference) find(q Query) ([]int64, int) {
	var found []Entry
	for _, e := range r {
		if r.pass(e, q) {
			found = append(found, e)
		}
	}
	slices.SortFunc(found, func(a, b Entry) int {
		c := cmp.Or(compareKey(a, b, q.Sort), cmp.Compare(a.ID, b.ID))
		if q.Desc {
			return -c
		}
		return c
	})
	ids := []int64{}
	for i := q.Offset; i < len(found) && len(ids) < q.Limit; i++ {
		ids = append(ids, found[i].ID)
	}
	return ids, len(found)
}

func compareKey(a, b Entry, k Key) int {
	switch k {
	case ByCreated:
		return cmp.Compare(a.CreatedAt, b.CreatedAt)
	case ByLogin:
		return cmp.Compare(a.LastLogin, b.LastLogin)
	case ByPosts:
		return cmp.Compare(a.PostCount, b.PostCount)
	case ByUsername:
		return strings.Compare(strings.ToLower(a.Username), strings.ToLower(b.Username))
	case ByEmail:
		return strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email))
	}
	return 0
}

func (r reference) pass(e Entry, q Query) bool {
	st := e.Status
	if st == Banned && e.LapseAt != 0 && q.Now >= e.LapseAt {
		st = Active
	}
	if q.Status != Any && st != q.Status || q.Ranks != 0 && q.Ranks&(1<<uint8(e.Rank)) == 0 {
		return false
	}
	if q.Term == "" {
		return true
	}
	t := strings.ToLower(q.Term)
	fields := []string{e.Username, e.Email}
	if q.Wide {
		fields = append(append(fields, e.Name), e.Providers...)
	}
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), t) {
			return true
		}
	}
	return false
}

var (
	syllables = []string{"an", "ba", "co", "Da", "el", "fi", "Gü", "ho", "ix", "ja", "ké", "lo"}
	domains   = []string{"example.org", "Mail.test", "plaza.dev"}
)

func randomEntry(rng *rand.Rand, id int64) Entry {
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		return b.String()
	}
	e := Entry{ID: id, Username: word(1 + rng.IntN(3)), Name: word(2), CreatedAt: rng.Int64N(50),
		PostCount: rng.Int32N(5), Status: Status(1 + rng.IntN(3)), Rank: int8(rng.IntN(4))}
	e.Email = e.Username + "@" + domains[rng.IntN(len(domains))]
	if rng.IntN(3) > 0 {
		e.LastLogin = rng.Int64N(50) + 1
	}
	if e.Status == Banned && rng.IntN(2) == 0 {
		e.LapseAt = rng.Int64N(100) + 1
	}
	for range rng.IntN(3) {
		e.Providers = append(e.Providers, []string{"github", "Google"}[rng.IntN(2)], word(2)+"@provider.test")
	}
	return e
}

func randomQuery(rng *rand.Rand) Query {
	terms := []string{"", "", "a", "AN", "é", "Gü", "ba@", "example", "github", "@PROVIDER", "zz", "o", "lo" + "ix", "%", "a\x00"}
	return Query{Term: terms[rng.IntN(len(terms))], Wide: rng.IntN(2) == 0, Status: Status(rng.IntN(4)),
		Ranks: []uint8{0, 0, 1, 2, 12, 5}[rng.IntN(6)], Sort: Key(rng.IntN(int(keyCount))), Desc: rng.IntN(2) == 0,
		Offset: []int{0, 0, 3, 20, 150}[rng.IntN(5)], Limit: 1 + rng.IntN(40), Now: rng.Int64N(100)}
}

// TestFindAgreesWithBruteForce changes a population at random (new users,
// changed ones, deleted ones) and checks every answer against a scan of
// the entries, so that slot reuse, mended orders and rewritten text are
// all exercised.
func TestFindAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, ref := New(), reference{}
	next := int64(1)
	for round := range 300 {
		for range rng.IntN(40) {
			switch op := rng.IntN(10); {
			case op < 5 || len(ref) == 0:
				e := randomEntry(rng, next)
				next++
				x.Put(e)
				ref[e.ID] = e
			case op < 8:
				id := 1 + rng.Int64N(next-1)
				if _, ok := ref[id]; ok {
					e := randomEntry(rng, id)
					x.Put(e)
					ref[id] = e
				}
			default:
				id := 1 + rng.Int64N(next-1)
				x.Delete(id)
				delete(ref, id)
			}
		}
		for range 20 {
			q := randomQuery(rng)
			gotIDs, gotTotal := x.Find(q)
			wantIDs, wantTotal := ref.find(q)
			if gotTotal != wantTotal || !slices.Equal(gotIDs, wantIDs) {
				t.Fatalf("round %d, %+v:\n got %d %v\nwant %d %v", round, q, gotTotal, gotIDs, wantTotal, wantIDs)
			}
		}
		if x.Len() != len(ref) {
			t.Fatalf("Len %d, want %d", x.Len(), len(ref))
		}
	}
}

// TestFindManyMatches covers the path that reads a page off the whole
// order (more than fewMatches matches), from either end, past the last
// match too, and the parallel scan of a text past a megabyte.
func TestFindManyMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, ref := New(), reference{}
	for id := int64(1); id <= 40_000; id++ {
		e := randomEntry(rng, id)
		x.Put(e)
		ref[id] = e
	}
	for i := range 200 {
		q := randomQuery(rng)
		q.Offset = rng.IntN(42_000)
		gotIDs, gotTotal := x.Find(q)
		wantIDs, wantTotal := ref.find(q)
		if gotTotal != wantTotal || !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("query %d, %+v:\n got %d %v\nwant %d %v", i, q, gotTotal, gotIDs, wantTotal, wantIDs)
		}
	}
}

func TestFieldsDoNotJoin(t *testing.T) {
	x := New()
	x.Put(Entry{ID: 1, Username: "ab", Email: "cd@x", Name: "ef"})
	for term, want := range map[string]int{"ab": 1, "bc": 0, "b\x00c": 0, "cd@": 1, "ef": 0, "x\x00e": 0} {
		if _, n := x.Find(Query{Term: term, Limit: 10}); n != want {
			t.Errorf("%q matched %d, want %d", term, n, want)
		}
	}
	if _, n := x.Find(Query{Term: "ef", Wide: true, Limit: 10}); n != 1 {
		t.Errorf("the name did not match a wide search")
	}
}

func ExampleIndex_Find() {
	x := New()
	x.Put(Entry{ID: 1, Username: "ada", Email: "ada@example.org", CreatedAt: 10, Status: Active},
		Entry{ID: 2, Username: "Grace", Email: "grace@example.org", CreatedAt: 20, Status: Banned, LapseAt: 15},
		Entry{ID: 3, Username: "linus", Email: "linus@kernel.test", CreatedAt: 30, Status: Active})
	ids, total := x.Find(Query{Term: "EXAMPLE", Sort: ByCreated, Desc: true, Limit: 10, Now: 12})
	fmt.Println(ids, total)
	ids, total = x.Find(Query{Status: Active, Sort: ByUsername, Limit: 10, Now: 20})
	fmt.Println(ids, total)
	// Output:
	// [2 1] 2
	// [1 2 3] 3
}

// TestSparseIDs: ids far apart (an import that kept another system's
// ids) move the slot table to a map without losing anyone.
func TestSparseIDs(t *testing.T) {
	x := New()
	ids := []int64{1, 2, 3, 1 << 40, 5, -7, 1 << 20}
	for _, id := range ids {
		x.Put(Entry{ID: id, Username: fmt.Sprint("u", id), Email: fmt.Sprint(id, "@example.org")})
	}
	x.Delete(2)
	got, total := x.Find(Query{Term: "@example", Sort: ByID, Limit: 10})
	if want := []int64{-7, 1, 3, 5, 1 << 20, 1 << 40}; total != len(want) || !slices.Equal(got, want) {
		t.Errorf("got %v (%d), want %v", got, total, want)
	}
}

// TestConcurrentUse: searches, pages and changes from several goroutines
// at once (run with -race); once the writers are done, every answer
// agrees with the brute force again.
func TestConcurrentUse(t *testing.T) {
	x, ref := New(), reference{}
	rng := rand.New(rand.NewPCG(7, 8))
	for id := int64(1); id <= 3000; id++ {
		e := randomEntry(rng, id)
		x.Put(e)
		ref[id] = e
	}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 9))
			for range 200 {
				x.Find(randomQuery(rng))
			}
		})
	}
	changes := make([]Entry, 0, 500)
	for i := range 500 {
		changes = append(changes, randomEntry(rng, int64(1+i*5)))
	}
	wg.Go(func() {
		for i, e := range changes {
			x.Put(e)
			if i%7 == 0 {
				x.Delete(e.ID + 1)
			}
		}
	})
	wg.Wait()
	for i, e := range changes {
		ref[e.ID] = e
		if i%7 == 0 {
			delete(ref, e.ID+1)
		}
	}
	for range 100 {
		q := randomQuery(rng)
		gotIDs, gotTotal := x.Find(q)
		wantIDs, wantTotal := ref.find(q)
		if gotTotal != wantTotal || !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("%+v:\n got %d %v\nwant %d %v", q, gotTotal, gotIDs, wantTotal, wantIDs)
		}
	}
}

// TestReserveHoldsALoad: an index given room for a load takes it without
// moving its arrays (each move leaves the old array as garbage, which made
// a million users' load peak at several times the index), finds what an
// index grown one Put at a time finds, and Trim leaves arrays it would
// barely shrink where they are.
func TestReserveHoldsALoad(t *testing.T) {
	const n = 5000
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{ID: int64(i + 1), Username: fmt.Sprintf("user%05d", i), Email: fmt.Sprintf("user%05d@example.org", i),
			CreatedAt: int64(i), Status: Active}
	}
	grown, reserved := New(), New()
	grown.Put(entries...)
	reserved.Reserve(n, grown.TextBytes())
	ids, text := unsafe.SliceData(reserved.id), unsafe.SliceData(reserved.text.b)
	reserved.Put(entries[:1]...)
	reserved.Put(entries[1:]...)
	if unsafe.SliceData(reserved.id) != ids || unsafe.SliceData(reserved.text.b) != text {
		t.Error("a load within the room reserved moved the arrays")
	}
	reserved.Trim()
	if unsafe.SliceData(reserved.id) != ids || unsafe.SliceData(reserved.text.b) != text {
		t.Error("Trim copied arrays that were full")
	}
	for _, q := range []Query{{Limit: 20, Offset: 4990}, {Term: "user0421", Limit: 50}, {Sort: ByUsername, Desc: true, Limit: 5}} {
		want, wantN := grown.Find(q)
		got, gotN := reserved.Find(q)
		if gotN != wantN || !slices.Equal(got, want) {
			t.Errorf("%+v: %v (%d), want %v (%d)", q, got, gotN, want, wantN)
		}
	}
}
