package userindex

import (
	"math/bits"
	"slices"
	"strings"
)

// Query asks for a page of users.
type Query struct {
	// Term is a substring of the username or email, in any case; with
	// Wide, of the name or a provider account's name or email too.
	Term   string
	Wide   bool
	Status Status // as of Now; Any for all
	Ranks  uint8  // the highest role ranks wanted, as bits (1 << rank); 0 for all
	// Only, when not nil, keeps only the users of these ids (none when
	// empty): a set found elsewhere, such as the accounts behind an
	// address.
	Only []int64
	// CreatedFrom and CreatedTo keep the users created in [from, to), as
	// Unix nanoseconds; 0 leaves that end open.
	CreatedFrom, CreatedTo int64
	Sort                   Key
	Desc                   bool // descending, equal keys by id descending too
	Offset                 int
	Limit                  int
	Now                    int64 // Unix nanoseconds
}

// fewMatches is how many matches are sorted on their own: past it, the
// page is read off the whole order instead.
const fewMatches = 4096

// Find returns the ids of the page q asks for and how many users match
// q: the count is exact, whatever the term.
func (x *Index) Find(q Query) ([]int64, int) {
	x.readFor(q.Sort)
	defer x.mu.RUnlock()
	order := x.perms[q.Sort].order
	if q.Term == "" && q.Status == Any && q.Ranks == 0 && q.Only == nil && !q.windowed() {
		return x.page(order, nil, q), x.live
	}
	var hits bitset
	if q.Term != "" {
		term := lower(q.Term)
		if strings.IndexByte(term, 0) >= 0 {
			return []int64{}, 0
		}
		hits = x.search([]byte(term), q.Wide)
	}
	if q.Only != nil {
		hits = x.only(q.Only, hits)
	}
	ok, total := x.passing(hits, q)
	if total > fewMatches {
		return x.nearerEnd(order, ok, q, total), total
	}
	few := ok.slots(total)
	slices.SortFunc(few, x.compare(q.Sort))
	return x.page(few, nil, q), total
}

// windowed says q keeps a window of creation times.
func (q Query) windowed() bool { return q.CreatedFrom != 0 || q.CreatedTo != 0 }

// only is a new set of the live slots of ids, within hits when hits is
// not nil.
func (x *Index) only(ids []int64, hits bitset) bitset {
	out := newBitset(len(x.id))
	for _, id := range ids {
		if s, ok := x.slot.get(id); ok && (hits == nil || hits.has(s)) {
			out.set(s)
		}
	}
	return out
}

// search returns the slots whose text holds term, a set of the caller's
// own: remembered from an earlier search, or scanned for.
func (x *Index) search(term []byte, wide bool) bitset {
	if hits := x.terms.get(term, wide); hits != nil {
		return hits
	}
	hits := newBitset(len(x.id))
	x.text.scan(term, wide, x, hits)
	x.terms.put(term, wide, hits)
	return hits
}

// readFor returns holding the read lock, with order k up to date.
func (x *Index) readFor(k Key) {
	for {
		x.mu.RLock()
		if x.perms[k].ready() {
			return
		}
		x.mu.RUnlock()
		x.mu.Lock()
		x.perms[k].mend(x)
		x.mu.Unlock()
	}
}

// nearerEnd reads q's page off order from whichever end of the total
// matches is nearer, so that a filtered walk passes at most half of them.
func (x *Index) nearerEnd(order []int32, ok bitset, q Query, total int) []int64 {
	rest := total - q.Offset
	if rest >= q.Offset {
		return x.page(order, ok, q)
	}
	far := q
	far.Desc, far.Limit, far.Offset = !q.Desc, max(min(q.Limit, rest), 0), max(rest-q.Limit, 0)
	ids := x.page(order, ok, far)
	slices.Reverse(ids)
	return ids
}

// page reads q's page off an ascending order, skipping the slots not in
// ok (none when ok is nil: then the page starts right at the offset).
func (x *Index) page(order []int32, ok bitset, q Query) []int64 {
	out := []int64{}
	skip, n, i := q.Offset, len(order), 0
	if ok == nil {
		skip, i = 0, q.Offset
	}
	for ; i < n && len(out) < q.Limit; i++ {
		s := order[i]
		if q.Desc {
			s = order[n-1-i]
		}
		switch {
		case ok != nil && !ok.has(s):
		case skip > 0:
			skip--
		default:
			out = append(out, x.id[s])
		}
	}
	return out
}

// passing is the set of live slots that meet q's conditions (those in
// hits, when there is a term), and its size. A filter tests every slot in
// order, through the arrays, unless the term left few.
func (x *Index) passing(hits bitset, q Query) (bitset, int) {
	if hits == nil {
		hits = newBitset(len(x.id))
		for s, id := range x.id {
			if id != 0 {
				hits.set(int32(s))
			}
		}
	}
	n := hits.count()
	if q.Status == Any && q.Ranks == 0 && !q.windowed() {
		return hits, n
	}
	if n < len(x.id)/16 {
		return x.narrow(hits, q)
	}
	ok, total := newBitset(len(x.id)), 0
	for s := range int32(len(x.id)) {
		if hits.has(s) && x.meets(s, q) {
			ok.set(s)
			total++
		}
	}
	return ok, total
}

// narrow takes out of few the slots that do not meet q's conditions.
func (x *Index) narrow(few bitset, q Query) (bitset, int) {
	total := 0
	for w, word := range few {
		for rest := word; rest != 0; rest &= rest - 1 {
			s := int32(w*64 + bits.TrailingZeros64(rest))
			if !x.meets(s, q) {
				word &^= 1 << (s & 63)
			}
		}
		few[w] = word
		total += bits.OnesCount64(word)
	}
	return few, total
}

// meets says whether live slot s has q's status, role and creation time.
func (x *Index) meets(s int32, q Query) bool {
	if c := x.created[s]; q.CreatedFrom != 0 && c < q.CreatedFrom || q.CreatedTo != 0 && c >= q.CreatedTo {
		return false
	}
	if q.Status != Any && x.statusAt(s, q.Now) != q.Status {
		return false
	}
	return q.Ranks == 0 || q.Ranks&(1<<uint8(x.rank[s])) != 0
}
