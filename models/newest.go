package models

import (
	"cmp"
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// Searches over large tables rank and count only their newest matches (by
// id): a community's search favours recent content, and ranking or
// counting every match of a common word among millions of rows takes
// seconds. On PostgreSQL even finding the newest matches is the hard part,
// because text and trigram indexes list matches in no useful order:
//
//   - Walking the primary key backwards, testing each row, finds a common
//     term's newest matches within a few thousand rows, but reads the whole
//     table for a rare one.
//   - The term's index lists a rare term's few matches at once, but for a
//     common one it lists, and the heap then fetches, every match.
//
// newestMatches walks the newest ids first, then reads older ids in
// windows sized from the rate of matches seen so far, each the cheaper way
// at that rate. Through the index, PostgreSQL intersects the index's list
// with the window's primary-key range before it fetches a row. SQLite's
// FTS5 tables walk their matches newest first, so there the walk covers
// everything.

// idWindow is the ids in (lo, hi].
type idWindow struct{ lo, hi int64 }

// walkSpan is how many of the newest ids a text search walks before it
// turns to the index: under a millisecond of rows, which holds all the
// matches wanted of a term that one post in ten holds, and enough of a
// rarer one's to tell its rate.
const walkSpan = 2048

// nameWalkSpan is walkSpan for name searches, whose ILIKE costs several
// times more per row than a text match: it walks only far enough to tell a
// term that one user in a few holds (an email domain) from a rarer one,
// which the trigram indexes serve better.
const nameWalkSpan = 1024

// Walk costs, measured on a 2-core machine over a million users and two
// million posts (docs/performance.md). A text match tests a walked row in
// about 0.3 µs. The index lists a match in about 0.3 µs too, but for
// several words it first reads the rarest word's whole list, often
// several times longer, then fetches each match it keeps: a quarter is
// what a walked row costs against the matches the index then lists. ILIKE
// over a user's names tests a row in 1.5 to 2 µs against the trigram
// index's 0.25 µs a match.
const (
	textWalkCost = 0.25
	nameWalkCost = 8
)

// searchWalk is how many ids a PostgreSQL search walks first: span, or
// the Store's SearchWindow.
func (s *Store) searchWalk(span int64) int64 { return cmp.Or(s.SearchWindow, span) }

// newestSearch is a search newestMatches can run.
type newestSearch struct {
	top  int64 // the newest id there is
	want int   // how many matches to find
	span int64 // how many ids to walk first (at least 1); top or more walks them all
	// walk selects the matches in a window newest first, by testing each
	// row (the condition in a form no index serves).
	walk func(w idWindow) *bun.SelectQuery
	// index selects the matches in a window through the condition's
	// index, in any order, with the id in a column named id.
	index func(w idWindow) *bun.SelectQuery
	// walkCost is what testing one row costs against the index listing
	// one match.
	walkCost float64
	// share is the share of ids whose rows the walk reads, when a filter
	// with an index of its own keeps the others out (0 reads as 1). The
	// term's index then lists about 1/share times the matches seen.
	share float64
	// rough says the planner's estimates for the index's condition are
	// rough (trigram matches), so later windows steer it (steered).
	rough bool
	// whole says the index reads all of itself whatever the window (an
	// index of the titles themselves, not of their words): after the
	// first walk, one query through it takes every match below.
	whole bool
}

// newestMatches finds the newest s.want rows that s matches, newest first:
// each window is older than the one before.
func newestMatches[T any](ctx context.Context, db bun.IDB, s newestSearch) ([]T, error) {
	w := idWindow{lo: max(s.top-s.span, 0), hi: s.top}
	var found []T
	if err := s.walk(w).Limit(int64(s.want)).Scan(ctx, &found); err != nil {
		return nil, err
	}
	if len(found) >= s.want || w.lo == 0 {
		return found, nil
	}
	if s.whole {
		var more []T
		err := s.rest(db, w.lo, len(found)).Scan(ctx, &more)
		return append(found, more...), err
	}
	err := steered(ctx, db, s.rough, func(db bun.IDB) error {
		if len(found) == 0 && s.index != nil {
			// None of the newest rows matches: the term is rare or absent,
			// and its index list short. Whether it is absent, the list
			// alone tells, before any window is read. (Asked as EXISTS
			// over the matches themselves, the planner expects an early
			// match and reads the table from its start.)
			var any bool
			q := db.NewSelect().WithQuery(bun.NewWithQuery("m", s.index(idWindow{hi: w.lo})).Materialized()).
				ColumnExpr("EXISTS (SELECT 1 FROM m)")
			if err := q.Scan(ctx, &any); err != nil || !any {
				return err
			}
		}
		for len(found) < s.want && w.lo > 0 {
			need, covered := s.want-len(found), s.top-w.lo
			rate := float64(max(len(found), 1)) / float64(covered)
			w = idWindow{lo: max(w.lo-nextSpan(rate, len(found), need, covered), 0), hi: w.lo}
			var more []T
			if err := s.older(db, w, rate, need).Conn(db).Scan(ctx, &more); err != nil {
				return err
			}
			found = append(found, more...)
		}
		return nil
	})
	return found, err
}

// older selects the newest need matches in w, the window below those
// covered so far. The index lists every match of the term before any is
// fetched, about rate/share×top of them; walking tests about
// need/rate×share rows, each costing walkCost matches. Walking wins while
// rate²×top exceeds walkCost×need×share²: a common term, most of whose
// matches the index would list for nothing.
func (s newestSearch) older(db bun.IDB, w idWindow, rate float64, need int) *bun.SelectQuery {
	share := cmp.Or(s.share, 1)
	if s.index == nil || rate*rate*float64(s.top) > s.walkCost*float64(need)*share*share {
		return s.walk(w).Limit(int64(need))
	}
	return s.listed(db, w, need)
}

// rest selects the newest matches still needed below lo, for a search
// whose index reads all of itself (whole), after a first walk that found
// found matches: by walking on, if the ids that will take, at the rate
// seen, cost less than reading the whole index, else through the index.
func (s newestSearch) rest(db bun.IDB, lo int64, found int) *bun.SelectQuery {
	need := s.want - found
	rate := float64(max(found, 1)) / float64(s.top-lo)
	if float64(need)/rate*s.walkCost < float64(lo) {
		return s.walk(idWindow{hi: lo}).Limit(int64(need))
	}
	return s.listed(db, idWindow{hi: lo}, need)
}

// listed selects the newest need matches in w through the index.
func (s newestSearch) listed(db bun.IDB, w idWindow, need int) *bun.SelectQuery {
	return db.NewSelect().WithQuery(bun.NewWithQuery("m", s.index(w)).Materialized()).
		TableExpr("m").ColumnExpr("m.*").OrderExpr("m.id DESC").Limit(int64(need))
}

// steered runs a search's later windows, with plain index scans off when
// the search is rough. PostgreSQL's estimates for trigram matches are
// rough (a name held by one user in a hundred is taken for one in twenty),
// and with them the planner may walk a window's ids and test each row, the
// costly way, in place of intersecting the term's index with the window.
// (Its estimates for text matches err the other way, towards the index,
// which is right here.) A walk chosen on purpose then reads its window
// through a bitmap of the primary key, about as fast. Inside a change the
// setting would outlast the search, so there the planner chooses.
func steered(ctx context.Context, db bun.IDB, rough bool, fn func(bun.IDB) error) error {
	root, ok := db.(*bun.DB)
	if !rough || !ok || Dialect(db) != "postgres" {
		return fn(db)
	}
	return root.RunInTx(ctx, &sql.TxOptions{ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL enable_indexscan = off"); err != nil {
			return err
		}
		return fn(tx)
	})
}

// nextSpan sizes the next window so that, at the rate of matches seen over
// the covered ids, it holds the matches still needed with half as many to
// spare: a window that falls short costs the index's whole list again. A
// rate drawn from fewer than eight matches may be far off, so then the
// window grows at most sixtyfourfold.
func nextSpan(rate float64, found, need int, covered int64) int64 {
	span := max(int64(float64(need)/rate*1.5), 1024)
	if found < 8 {
		span = min(span, 64*covered)
	}
	return span
}
