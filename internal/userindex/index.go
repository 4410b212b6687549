// Package userindex keeps what the admin users lists filter, search and
// sort on, for every user, in memory: a page at any offset, a search for
// any term and an exact count of its matches then cost a scan of compact
// arrays, not a walk of database indexes whose length grows with the
// offset or with how many users a term matches.
//
// The index knows nothing of where entries come from; its owner feeds it
// every change (Put, Delete) and asks it for pages (Find).
package userindex

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// Status is a user's stored status.
type Status uint8

// The statuses. A banned user whose bans have all run out reads as
// active (Entry.LapseAt).
const (
	Any Status = iota
	Active
	Inactive
	Banned
)

// Entry is one user as the index holds it. Times are Unix nanoseconds.
type Entry struct {
	ID        int64
	Username  string
	Email     string
	Name      string
	Providers []string // the names and emails of the user's provider accounts
	CreatedAt int64
	LastLogin int64 // 0: never signed in, which sorts as the longest ago
	PostCount int32
	Status    Status
	// LapseAt is when a banned user's bans will all have run out, so that
	// the user reads as active from then on; 0 when a ban never ends.
	LapseAt int64
	Rank    int8 // the rank of the user's highest role; 0 without roles
}

// Index holds entries in slots: parallel arrays indexed by slot number,
// with the searchable text of every slot in one byte slice.
type Index struct {
	mu   sync.RWMutex
	slot slotTable
	free []int32
	live int

	id      []int64 // 0 marks a free slot
	created []int64
	login   []int64
	lapse   map[int32]int64 // by slot, for banned users whose bans run out
	posts   []int32
	status  []Status
	rank    []int8

	text  text
	terms termCache
	seg   []int32  // the slot's segment in text
	ulen  []uint16 // the username's length, lowered
	elen  []uint16 // the email's length, lowered
	perms [keyCount]*perm
}

// New returns an empty index.
func New() *Index {
	x := &Index{lapse: map[int32]int64{}}
	for k := range x.perms {
		x.perms[k] = &perm{key: Key(k)}
	}
	return x
}

// Len is the number of users held.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.live
}

// Put adds or replaces entries.
func (x *Index) Put(entries ...Entry) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for i := range entries {
		x.put(&entries[i])
	}
	x.text.compactIfSparse(x)
}

// Delete removes the users with these ids; unknown ids are ignored.
func (x *Index) Delete(ids ...int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, id := range ids {
		s, ok := x.slot.get(id)
		if !ok {
			continue
		}
		x.slot.del(id)
		delete(x.lapse, s)
		x.text.drop(x.seg[s])
		x.id[s] = 0
		x.free = append(x.free, s)
		x.live--
		x.touch(s)
		x.terms.update(s, nil, 0)
	}
}

func (x *Index) put(e *Entry) {
	s, ok := x.slot.get(e.ID)
	if !ok {
		s = x.newSlot()
		x.live++
		x.slot.set(e.ID, s, x.live)
	} else {
		x.text.drop(x.seg[s])
	}
	x.id[s], x.created[s], x.login[s] = e.ID, e.CreatedAt, e.LastLogin
	delete(x.lapse, s)
	if e.Status == Banned && e.LapseAt != 0 {
		x.lapse[s] = e.LapseAt
	}
	x.posts[s], x.status[s], x.rank[s] = e.PostCount, e.Status, e.Rank
	x.seg[s], x.ulen[s], x.elen[s] = x.text.add(s, e)
	x.touch(s)
	seg := x.seg[s]
	x.terms.update(s, x.text.b[x.text.start[seg]:x.text.end(seg)], int(x.ulen[s])+int(x.elen[s])+2)
}

func (x *Index) newSlot() int32 {
	if n := len(x.free); n > 0 {
		s := x.free[n-1]
		x.free = x.free[:n-1]
		return s
	}
	x.id = append(x.id, 0)
	x.created = append(x.created, 0)
	x.login = append(x.login, 0)
	x.posts = append(x.posts, 0)
	x.status = append(x.status, 0)
	x.rank = append(x.rank, 0)
	x.seg = append(x.seg, 0)
	x.ulen = append(x.ulen, 0)
	x.elen = append(x.elen, 0)
	return int32(len(x.id) - 1)
}

// touch tells every order that slot s moved.
func (x *Index) touch(s int32) {
	for _, p := range x.perms {
		p.touch(s)
	}
}

// lower is how the index folds case, for the text it holds and for
// terms alike.
func lower(s string) string { return strings.ToLower(s) }

// username and email are slot s's lowered username and email.
func (x *Index) username(s int32) []byte {
	start := x.text.start[x.seg[s]]
	return x.text.b[start : start+uint32(x.ulen[s])]
}

func (x *Index) email(s int32) []byte {
	start := x.text.start[x.seg[s]] + uint32(x.ulen[s]) + 1
	return x.text.b[start : start+uint32(x.elen[s])]
}

// statusAt is slot s's status at now.
func (x *Index) statusAt(s int32, now int64) Status {
	st := x.status[s]
	if st == Banned {
		if at, ok := x.lapse[s]; ok && now >= at {
			return Active
		}
	}
	return st
}

// compareBytes orders lowered text as PostgreSQL's C collation does.
func compareBytes(a, b []byte) int { return bytes.Compare(a, b) }

// Reserve makes room for users more users, holding about textBytes of
// text between them, before a bulk of Puts (a full load): arrays grown
// one append at a time are copied each time they fill, and the copies'
// garbage would make a load's peak memory several times the index's.
func (x *Index) Reserve(users, textBytes int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.id, x.created, x.login = slices.Grow(x.id, users), slices.Grow(x.created, users), slices.Grow(x.login, users)
	x.posts, x.status, x.rank = slices.Grow(x.posts, users), slices.Grow(x.status, users), slices.Grow(x.rank, users)
	x.seg, x.ulen, x.elen = slices.Grow(x.seg, users), slices.Grow(x.ulen, users), slices.Grow(x.elen, users)
	t := &x.text
	t.start, t.owner, t.sig = slices.Grow(t.start, users), slices.Grow(t.owner, users), slices.Grow(t.sig, users)
	t.b = slices.Grow(t.b, textBytes)
}

// TextBytes is how many bytes of text the index holds, dropped segments
// included.
func (x *Index) TextBytes() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.text.b)
}

// Trim gives back the room that growing the arrays left over, after a
// bulk of Puts (a full load): the index then holds about what its users
// need. An array with little room left over is kept as it is.
func (x *Index) Trim() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.id, x.created, x.login = clip(x.id), clip(x.created), clip(x.login)
	x.posts, x.status, x.rank = clip(x.posts), clip(x.status), clip(x.rank)
	x.seg, x.ulen, x.elen = clip(x.seg), clip(x.ulen), clip(x.elen)
	x.slot.dense = clip(x.slot.dense)
	x.text.b, x.text.start, x.text.owner, x.text.sig = clip(x.text.b), clip(x.text.start), clip(x.text.owner), clip(x.text.sig)
}

// clip copies s into a slice of its own length, unless over 7/8 of its
// room is used: then the copy would cost more than the room it saves.
func clip[T any](s []T) []T {
	if len(s) >= cap(s)-cap(s)/8 {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
