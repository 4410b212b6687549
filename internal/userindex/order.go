package userindex

import (
	"cmp"
	"slices"
)

// Key is an order of the lists; equal keys are in id order.
type Key uint8

// The orders.
const (
	ByID Key = iota
	ByCreated
	ByLogin // never signed in counts as the longest ago
	ByPosts
	ByUsername
	ByEmail
	keyCount
)

// perm is every live slot in one order, ascending. It is built on first
// use and mended before use after changes: the slots that moved are taken
// out and merged back in their places, or, after many changes, the whole
// order is sorted again.
type perm struct {
	key   Key
	built bool
	order []int32
	moved []int32 // slots changed since the order was mended, possibly twice
}

func (p *perm) touch(s int32) {
	if p.built {
		p.moved = append(p.moved, s)
	}
}

func (p *perm) ready() bool { return p.built && len(p.moved) == 0 }

// mend brings the order up to date with the index.
func (p *perm) mend(x *Index) {
	cmpSlots := x.compare(p.key)
	if !p.built || len(p.moved) > len(p.order)/16 {
		p.order = p.order[:0]
		for s, id := range x.id {
			if id != 0 {
				p.order = append(p.order, int32(s))
			}
		}
		slices.SortFunc(p.order, cmpSlots)
		p.built, p.moved = true, p.moved[:0]
		return
	}
	gone := newBitset(len(x.id))
	var back []int32
	for _, s := range p.moved {
		if !gone.has(s) {
			gone.set(s)
			if x.id[s] != 0 {
				back = append(back, s)
			}
		}
	}
	slices.SortFunc(back, cmpSlots)
	p.order = merge(slices.DeleteFunc(p.order, gone.has), back, cmpSlots)
	p.moved = p.moved[:0]
}

// merge merges two ascending lists.
func merge(a, b []int32, c func(x, y int32) int) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if c(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// compare orders two slots by key k, then by id.
func (x *Index) compare(k Key) func(a, b int32) int {
	byID := func(a, b int32) int { return cmp.Compare(x.id[a], x.id[b]) }
	switch k {
	case ByCreated:
		return func(a, b int32) int { return cmp.Or(cmp.Compare(x.created[a], x.created[b]), byID(a, b)) }
	case ByLogin:
		return func(a, b int32) int { return cmp.Or(cmp.Compare(x.login[a], x.login[b]), byID(a, b)) }
	case ByPosts:
		return func(a, b int32) int { return cmp.Or(cmp.Compare(x.posts[a], x.posts[b]), byID(a, b)) }
	case ByUsername:
		return func(a, b int32) int { return cmp.Or(compareBytes(x.username(a), x.username(b)), byID(a, b)) }
	case ByEmail:
		return func(a, b int32) int { return cmp.Or(compareBytes(x.email(a), x.email(b)), byID(a, b)) }
	}
	return byID
}
