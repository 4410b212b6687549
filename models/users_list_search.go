package models

import (
	"context"
	"fmt"
	"time"
)

// A search of the versioned admin list on PostgreSQL reads the users in
// the list's order, testing each, as long as the matches it sees promise a
// page soon: a common term (a third of all users hold "example.org") fills
// a page within a few hundred users, where the trigram indexes would hand
// over every match to be sorted. A term too rare for that has few matches,
// which the trigram indexes find and a sort orders cheaply. These are the
// walks' lengths, in users; Store.SearchWindow scales them down for tests.
const (
	listProbeWalk  = 1_000  // the first look, which measures the rate of matches
	listSearchWalk = 10_000 // the longest walk for a page
	listCountWalk  = 8_000  // the longest walk to count to the cap
)

func (s *Store) listWalks() (probe, page, count int) {
	if w := int(s.SearchWindow); w > 0 {
		return w, 5 * w, 4 * w
	}
	return listProbeWalk, listSearchWalk, listCountWalk
}

// searchUserPage picks the ids of a page of the versioned admin list for a
// search on PostgreSQL, in the list's order, and counts the matches up to
// SearchCountCap or the page's end, whichever is further; capped says
// there are more.
func (s *Store) searchUserPage(ctx context.Context, f UserListFilter, now time.Time) (ids []int64, total int, capped bool, err error) {
	end := f.Offset + f.Limit
	countTo := max(SearchCountCap, end)
	hits, exhausted, rate, err := s.walkForPage(ctx, f, now, end+1)
	switch {
	case err != nil:
		return nil, 0, false, err
	case exhausted: // every match is in hits
		return pageOf(hits, f.Offset, f.Limit), min(len(hits), countTo), len(hits) > countTo, nil
	case len(hits) <= end:
		return s.sortUserMatches(ctx, f, now, countTo)
	case end >= countTo: // a match past the page's end, itself past the cap
		return pageOf(hits, f.Offset, f.Limit), countTo, true, nil
	}
	total, capped, err = s.countUserMatches(ctx, f, now, countTo, rate)
	return pageOf(hits, f.Offset, f.Limit), total, capped, err
}

func pageOf(ids []int64, offset, limit int) []int64 {
	if offset >= len(ids) {
		return []int64{}
	}
	return ids[offset:min(offset+limit, len(ids))]
}

// walkForPage walks for want matches: a first look, then, when the rate
// of matches it saw promises them within the longest walk, that walk. It
// returns the matches found, whether they are all there are (the walk read
// every user), and the rate of matches among the users read (0 when the
// walk gave up).
func (s *Store) walkForPage(ctx context.Context, f UserListFilter, now time.Time, want int) (hits []int64, exhausted bool, rate float64, err error) {
	probe, longest, _ := s.listWalks()
	hits, walked, err := s.walkUserSearch(ctx, f, now, want, probe)
	if err != nil || len(hits) >= want {
		return hits, false, float64(len(hits)) / float64(walked), err
	}
	users, err := s.userCount(ctx)
	if err != nil || users <= probe {
		return hits, err == nil, 0, err
	}
	if float64(len(hits))*float64(longest)/float64(probe) < float64(want) {
		return hits, false, 0, nil // too rare to walk for
	}
	hits, walked, err = s.walkUserSearch(ctx, f, now, want, longest)
	if err != nil || len(hits) >= want {
		return hits, false, float64(len(hits)) / float64(walked), err
	}
	return hits, users <= longest, 0, nil
}

// walkUserSearch reads at most walk users in the list's order and returns
// the ids of the first want that match, and how many users it read to
// find them (walk when it found fewer). The search is written as a
// function no index serves, so the planner walks the order's index
// (for post_count, one that holds the names too, so the walk reads no
// table rows) and stops at the want-th match.
func (s *Store) walkUserSearch(ctx context.Context, f UserListFilter, now time.Time, want, walk int) ([]int64, int, error) {
	db := s.db(ctx)
	key, dir := walkKey(f)
	order := key + dir + ", u.id" + idDir(dir)
	// ILIKE '%term%' lowers both sides and looks for the one in the other,
	// as this does, in half the time per user.
	inner := db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id").ColumnExpr(key+" AS k").
		ColumnExpr("row_number() OVER (ORDER BY "+order+") AS n").
		ColumnExpr("strpos(lower(u.username), lower(?)) > 0 OR strpos(lower(u.email), lower(?)) > 0 AS hit", f.Search, f.Search).
		OrderExpr(order).Limit(int64(walk))
	q := db.NewSelect().TableExpr("(?) AS w", inner).ColumnExpr("w.id, w.n").Where("w.hit").
		OrderExpr("w.k" + dir).OrderExpr("w.id" + idDir(dir)).Limit(int64(want))
	if rest := f; rest.Status != "" || rest.Role != "" {
		rest.Search = ""
		q = filterUsers(q.Join("JOIN users AS u ON u.id = w.id"), rest, now)
	}
	var rows []struct {
		ID int64 `bun:"id"`
		N  int   `bun:"n"`
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, 0, fmt.Errorf("walk the users for %q: %w", f.Search, err)
	}
	hits := make([]int64, len(rows))
	for i, r := range rows {
		hits[i] = r.ID
	}
	if len(rows) < want {
		return hits, walk, nil
	}
	return hits, rows[len(rows)-1].N, nil
}

// walkKey is the list's order as one key, to be followed by id, and its
// direction (with where nulls go, as in ListUsers: a user who never signed
// in counts as the longest ago).
func walkKey(f UserListFilter) (key, dir string) {
	dir = " ASC"
	if f.Desc {
		dir = " DESC"
	}
	if f.Sort == "last_login_at" {
		return userOrder[f.Sort], dir + map[bool]string{false: " NULLS FIRST", true: " NULLS LAST"}[f.Desc]
	}
	return userOrder[f.Sort], dir
}

// countUserMatches counts the users matching f up to most; capped says
// there are more. When the rate of matches the page's walk saw promises
// most+1 of them within the counting walk, it walks on; otherwise it asks
// the trigram indexes, whose cost grows with the matches, few here.
func (s *Store) countUserMatches(ctx context.Context, f UserListFilter, now time.Time, most int, rate float64) (int, bool, error) {
	if _, _, longest := s.listWalks(); rate > 0 && float64(most+1)/rate <= float64(longest) {
		hits, _, err := s.walkUserSearch(ctx, f, now, most+1, longest)
		if err != nil || len(hits) > most {
			return most, true, err
		}
	}
	return s.countUserMatchesIndexed(ctx, f, now, most)
}

// countUserMatchesIndexed counts the users matching f up to most with
// ILIKE, which the trigram indexes serve. The matches are a MATERIALIZED
// CTE, planned without the limit: with it, the planner would scan the
// table for the first most+1, three times slower for a term one user in a
// hundred holds. The CTE is still read only as far as the limit.
func (s *Store) countUserMatchesIndexed(ctx context.Context, f UserListFilter, now time.Time, most int) (int, bool, error) {
	db := s.db(ctx)
	matches := filterUsers(db.NewSelect().TableExpr("users AS u").ColumnExpr("1"), f, now)
	var n int
	err := db.NewRaw("WITH m AS MATERIALIZED (?) SELECT count(*) FROM (SELECT 1 FROM m LIMIT ?) AS c", matches, most+1).Scan(ctx, &n)
	if err != nil {
		return 0, false, err
	}
	return min(n, most), n > most, nil
}

// sortUserMatches reads every user matching f through the trigram indexes
// (a MATERIALIZED CTE, so the planner cannot walk an order's index
// instead), sorts them, and returns the page's ids and the count up to
// most. walkUserSearch found too few matches for a page in its walk, so
// there are few.
func (s *Store) sortUserMatches(ctx context.Context, f UserListFilter, now time.Time, most int) ([]int64, int, bool, error) {
	db := s.db(ctx)
	key, dir := walkKey(f)
	matches := filterUsers(db.NewSelect().TableExpr("users AS u").ColumnExpr("u.id").ColumnExpr(key+" AS k"), f, now)
	var rows []struct {
		ID    int64 `bun:"id"`
		Total int   `bun:"total"`
	}
	page := db.NewRaw("WITH m AS MATERIALIZED (?) SELECT m.id, count(*) OVER () AS total FROM m ORDER BY m.k"+dir+", m.id"+idDir(dir)+" LIMIT ? OFFSET ?",
		matches, f.Limit, f.Offset)
	if err := page.Scan(ctx, &rows); err != nil {
		return nil, 0, false, fmt.Errorf("sort the users matching %q: %w", f.Search, err)
	}
	ids := make([]int64, len(rows))
	total := 0
	for i, r := range rows {
		ids[i], total = r.ID, r.Total
	}
	if len(rows) == 0 && f.Offset > 0 {
		n, capped, err := s.countUserMatchesIndexed(ctx, f, now, most)
		return ids, n, capped, err
	}
	return ids, min(total, most), total > most, nil
}

// idDir is the direction of the id that breaks ties: the key's, without
// where its nulls go.
func idDir(dir string) string {
	if dir[:4] == " ASC" {
		return " ASC"
	}
	return " DESC"
}
