package userindex

import (
	"bytes"
	"math/bits"
	"runtime"
	"sync"
)

// text is every slot's searchable text, lowered, in one byte slice: a
// segment per slot of username, email, name and provider names and
// emails, each ended by a zero byte, which no term holds, so that no match
// runs from one field into the next. A slot whose text changes gets a new
// segment at the end; the old one stays, dropped, until the dropped
// segments are half the bytes and the text is rewritten.
type text struct {
	b     []byte
	start []uint32    // each segment's first byte, in the order of b
	owner []int32     // each segment's slot; -1 once dropped
	sig   [][2]uint64 // each segment's signature
	dead  int         // bytes in dropped segments
}

// maxField is the longest field the index holds, in bytes; longer ones
// are cut (no username or email is near it).
const maxField = 1<<16 - 1

// add appends slot s's segment and returns it with the lengths of the
// lowered username and email.
func (t *text) add(s int32, e *Entry) (seg int32, ulen, elen uint16) {
	t.start = append(t.start, uint32(len(t.b)))
	t.owner = append(t.owner, s)
	u, m := cut(lower(e.Username)), cut(lower(e.Email))
	t.b = append(append(t.b, u...), 0)
	t.b = append(append(t.b, m...), 0)
	t.b = append(append(t.b, cut(lower(e.Name))...), 0)
	for _, p := range e.Providers {
		t.b = append(append(t.b, cut(lower(p))...), 0)
	}
	t.sig = append(t.sig, signature(t.b[t.start[len(t.start)-1]:]))
	return int32(len(t.start) - 1), uint16(len(u)), uint16(len(m))
}

func cut(s string) string { return s[:min(len(s), maxField)] }

// end is where segment i ends.
func (t *text) end(i int32) uint32 {
	if int(i)+1 < len(t.start) {
		return t.start[i+1]
	}
	return uint32(len(t.b))
}

func (t *text) drop(i int32) {
	t.owner[i] = -1
	t.dead += int(t.end(i) - t.start[i])
}

// compactIfSparse rewrites the text without its dropped segments once
// they are half of it, so that it stays within twice its live size.
func (t *text) compactIfSparse(x *Index) {
	if t.dead*2 <= len(t.b) {
		return
	}
	out := text{b: make([]byte, 0, len(t.b)-t.dead)}
	for i, s := range t.owner {
		if s < 0 {
			continue
		}
		out.start = append(out.start, uint32(len(out.b)))
		out.owner = append(out.owner, s)
		out.sig = append(out.sig, t.sig[i])
		out.b = append(out.b, t.b[t.start[i]:t.end(int32(i))]...)
		x.seg[s] = int32(len(out.start) - 1)
	}
	*t = out
}

// scan sets in hits the slot of every segment that holds term: in its
// username or email, or, when wide, anywhere. Large texts are scanned in
// parallel parts.
func (t *text) scan(term []byte, wide bool, x *Index, hits bitset) {
	parts := min(runtime.GOMAXPROCS(0), 4, len(t.b)/(1<<20)+1)
	if parts <= 1 {
		t.scanPart(term, wide, x, hits, 0, len(t.start))
		return
	}
	own := make([]bitset, parts)
	var wg sync.WaitGroup
	for p := range parts {
		own[p] = newBitset(len(hits) * 64)
		from, to := p*len(t.start)/parts, (p+1)*len(t.start)/parts
		wg.Go(func() { t.scanPart(term, wide, x, own[p], from, to) })
	}
	wg.Wait()
	for _, o := range own {
		hits.or(o)
	}
}

// scanPart scans segments from up to to. Each segment carries a
// signature of the pairs of bytes it holds, so most segments that cannot
// hold the term are passed over with two AND operations, and only the
// rest are searched.
func (t *text) scanPart(term []byte, wide bool, x *Index, hits bitset, from, to int) {
	want := signature(term)
	for i := from; i < to; i++ {
		if t.sig[i][0]&want[0] != want[0] || t.sig[i][1]&want[1] != want[1] {
			continue
		}
		s := t.owner[i]
		if s < 0 {
			continue
		}
		seg := t.b[t.start[i]:t.end(int32(i))]
		if !wide {
			seg = seg[:int(x.ulen[s])+int(x.elen[s])+2]
		}
		if bytes.Contains(seg, term) {
			hits.set(s)
		}
	}
}

// signature sets one of 128 bits for each pair of adjacent bytes in b.
func signature(b []byte) (sig [2]uint64) {
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0 || b[i+1] == 0 {
			continue
		}
		h := (uint32(b[i])<<8 | uint32(b[i+1])) * 0x9E3779B1 >> 25
		sig[h>>6] |= 1 << (h & 63)
	}
	return sig
}

// bitset is a set of slots.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(s int32)      { b[s>>6] |= 1 << (s & 63) }
func (b bitset) has(s int32) bool { return b[s>>6]&(1<<(s&63)) != 0 }

func (b bitset) or(o bitset) {
	for i, w := range o {
		b[i] |= w
	}
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// slots lists the members, n of them, in slot order.
func (b bitset) slots(n int) []int32 {
	out := make([]int32, 0, n)
	for w, word := range b {
		for ; word != 0; word &= word - 1 {
			out = append(out, int32(w*64+bits.TrailingZeros64(word)))
		}
	}
	return out
}
