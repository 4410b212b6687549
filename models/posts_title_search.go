package models

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// TitleSearchCap is how many of a title search's matches the admin posts
// list keeps: the newest, by id. Finding and counting every match of a
// common word among millions of titles takes seconds on either database,
// and no index counts a substring's matches; the newest thousand that pass
// the list's other filters are found in tens of milliseconds, then sorted
// and paged like any list.
// The rule is the same on both databases; docs/api.md states it.
const TitleSearchCap = 1_000

// PostPage is a page of the admin posts list and how many posts match.
// Capped says a title search matched more than Total, which is then
// TitleSearchCap.
type PostPage struct {
	Rows   []ListedPost
	Total  int
	Capped bool
}

// searchPostsAdmin answers a list whose filter holds a title search: the
// newest TitleSearchCap+1 matches come first (newestMatches), and the page
// is read from among them in the list's own order.
func (s *Store) searchPostsAdmin(ctx context.Context, f PostListFilter) (PostPage, error) {
	db := s.db(ctx)
	top, err := newestID(ctx, db, "posts")
	if err != nil {
		return PostPage{}, err
	}
	search, err := s.titleSearch(ctx, db, f, top)
	if err != nil {
		return PostPage{}, err
	}
	found, err := newestMatches[int64](ctx, db, search)
	if err != nil {
		return PostPage{}, err
	}
	out := PostPage{Rows: []ListedPost{}, Total: min(len(found), TitleSearchCap), Capped: len(found) > TitleSearchCap}
	if out.Total == 0 {
		return out, nil
	}
	among := f
	among.Search, among.among = "", found[:out.Total]
	out.Rows, err = s.postsPage(ctx, among, walkTo(among))
	return out, err
}

// titleWalkCost is walkCost for title searches: at two million posts a
// walked title costs about 1.6 µs, and the trigram index lists a match in
// about 0.8 µs (measured on the posts themselves, before post_titles;
// docs/performance.md), so a common word is walked, not listed whole.
const titleWalkCost = 2

// titleSearch finds the newest posts whose title holds f.Search among
// those f's other filters keep. On PostgreSQL the titles are read from
// post_titles, whose trigram index lists a rare term's matches; a term
// shorter than three characters is listed by the index of the titles'
// characters and pairs instead. SQLite has liteTitleSearch.
func (s *Store) titleSearch(ctx context.Context, db bun.IDB, f PostListFilter, top int64) (newestSearch, error) {
	rest := f
	rest.Search = ""
	if Dialect(db) != "postgres" {
		return liteTitleSearch(ctx, db, f.Search, rest, top)
	}
	pattern := "%" + escapeLike(f.Search) + "%"
	// post_titles holds the columns filterPosts reads, under posts' names.
	matches := func(w idWindow, cond string) *bun.SelectQuery {
		return db.NewSelect().TableExpr("post_titles AS p").Column("p.id").Apply(filterPosts(rest)).
			Where("p.id > ? AND p.id <= ?", w.lo, w.hi).Where(cond, pattern)
	}
	span := s.searchWalk(nameWalkSpan)
	share, err := walkedShare(ctx, db, "post_titles", rest, top, span)
	if err != nil {
		return newestSearch{}, err
	}
	search := newestSearch{top: top, want: TitleSearchCap + 1, span: span, rough: true, walkCost: titleWalkCost, share: share,
		// texticlike is ILIKE under its function's name, which no index serves.
		walk: func(w idWindow) *bun.SelectQuery { return matches(w, "texticlike(p.title, ?)").OrderExpr("p.id DESC") },
	}
	switch {
	case utf8.RuneCountInString(f.Search) >= 3:
		search.index = func(w idWindow) *bun.SelectQuery { return matches(w, "p.title ILIKE ?") }
	case !strings.ContainsRune(f.Search, '\x01'):
		search.index = func(w idWindow) *bun.SelectQuery { return shortTitleMatches(matches(w, "p.title ILIKE ?"), f.Search) }
	}
	if share < 1 {
		// The first walk reads as many rows as without the filter, so
		// that the rate it finds holds enough matches to size the next
		// window well: each window through the index lists the term's
		// whole index list again.
		search.span, search.walkCost = int64(float64(span)/share), filteredTitleWalkCost
	}
	return search, nil
}

// filteredTitleWalkCost is titleWalkCost beside a filter with an index of
// its own: the planner intersects the term's index with the filter's
// before it reads a row, so a listed match costs only its index entry,
// 0.05 to 0.2 µs (one to several trigrams), against the 2 µs a walked row
// costs. Measured at two million posts (docs/performance.md).
const filteredTitleWalkCost = 20

// walkedShare is the share of ids whose rows a title search's walk reads:
// with a status or the moderation queue, which table (post_titles, or the
// posts on SQLite) indexes, the walk reads only their rows (counted among
// the newest span ids); any other filter is tested on every row read.
func walkedShare(ctx context.Context, db bun.IDB, table string, f PostListFilter, top, span int64) (float64, error) {
	if (f.Status == "" && !f.NeedsReview) || f.AuthorID != nil || f.Reported || f.OpenReports {
		return 1, nil
	}
	lo := max(top-span, 0)
	n, err := db.NewSelect().TableExpr(table+" AS p").Apply(filterPosts(f)).Where("p.id > ? AND p.id <= ?", lo, top).Count(ctx)
	if err != nil {
		return 0, err
	}
	share := float64(max(n, 1)) / float64(max(top-lo, 1))
	if share > 0.25 {
		// A wide filter (published posts): the planner tests it on each
		// of the term's matches rather than intersect two long lists, as
		// if there were none.
		return 1, nil
	}
	return share, nil
}

// shortTitleMatches narrows q to the titles whose characters and pairs
// (post_titles_grams_idx) hold term, of one or two characters, lowercased
// as ILIKE lowercases it. Where lowercasing lengthens the term (some
// collations do), the index cannot hold it, and the condition folds away
// when the query is planned.
func shortTitleMatches(q *bun.SelectQuery, term string) *bun.SelectQuery {
	return q.Where("(plaza_title_grams(p.title) @> ARRAY[lower(?)] OR length(lower(?)) > 2)", term, term)
}

// liteTitleSearch is titleSearch on SQLite: a term of three characters or
// more through the titles' trigram index (post_titles_fts), which walks its
// matches newest first and stops at the cap. Beside a status or the
// moderation queue keeping few posts, it reads their index instead, keeping
// the posts in the trigram index's whole list of the term: at 200,000
// posts, a common word among hidden posts took a third of the time
// (docs/performance.md). A term under three characters walks the newest
// posts by LIKE, then, if it has not found enough, reads the rest from the
// index of the titles (posts_title_idx), which holds each title beside its
// id: a scan of it costs about two thirds of a walk of the posts' wide rows.
func liteTitleSearch(ctx context.Context, db bun.IDB, term string, rest PostListFilter, top int64) (newestSearch, error) {
	in := func(table string, w idWindow) *bun.SelectQuery {
		return db.NewSelect().TableExpr(table).Column("p.id").Apply(filterPosts(rest)).
			Where("p.id > ? AND p.id <= ?", w.lo, w.hi)
	}
	search := newestSearch{top: top, want: TitleSearchCap + 1, span: top}
	if utf8.RuneCountInString(term) < 3 {
		like := "%" + escapeLike(term) + "%"
		search.span, search.whole, search.walkCost = walkSpan, true, liteTitleWalkCost
		search.walk = func(w idWindow) *bun.SelectQuery {
			return in("posts AS p", w).Where("p.title LIKE ? ESCAPE '\\'", like).OrderExpr("p.id DESC")
		}
		search.index = func(w idWindow) *bun.SelectQuery {
			return in("posts AS p INDEXED BY posts_title_idx", w).Where("p.title LIKE ? ESCAPE '\\'", like)
		}
		return search, nil
	}
	phrase := "title : " + ftsPhrase(term)
	share, err := walkedShare(ctx, db, "posts", rest, top, walkSpan)
	if err != nil {
		return newestSearch{}, err
	}
	search.walk = func(w idWindow) *bun.SelectQuery {
		if share == 1 {
			return in("posts AS p", w).Join("JOIN post_titles_fts ON post_titles_fts.rowid = p.id").
				Where("post_titles_fts MATCH ?", phrase).OrderExpr("post_titles_fts.rowid DESC")
		}
		// The unary + keeps SQLite from looking each of the term's
		// matches up in the filter's index, which costs more than
		// reading the filter's few entries and testing each against
		// the list.
		filterIndex := "posts_status_created_at_idx"
		if rest.NeedsReview {
			filterIndex = "posts_review_idx"
		}
		return in("posts AS p INDEXED BY "+filterIndex, w).
			Where("+p.id IN (SELECT rowid FROM post_titles_fts WHERE post_titles_fts MATCH ?)", phrase).OrderExpr("p.id DESC")
	}
	return search, nil
}

// liteTitleWalkCost is what walking a post by LIKE costs on SQLite
// against reading one entry of posts_title_idx: 47 ms for 200,000 posts
// against 33 ms for the index (docs/performance.md).
const liteTitleWalkCost = 1.5

// titleColumns are the columns post_titles copies from posts.
const titleColumns = "id, title, status, author_id, report_count, open_reports, created_at, updated_at"

// refillTitles copies every post into post_titles.
const refillTitles = `INSERT INTO post_titles AS t (` + titleColumns + `) SELECT ` + titleColumns + ` FROM posts`

// recountTitles makes post_titles a copy of the posts again, after a load
// that skipped its triggers (plaza seed's COPY). PostgreSQL only.
func recountTitles(ctx context.Context, db bun.IDB) error {
	_, err := db.ExecContext(ctx, "DELETE FROM post_titles AS t WHERE NOT EXISTS (SELECT 1 FROM posts AS p WHERE p.id = t.id)")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, refillTitles+`
		ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, status = EXCLUDED.status, author_id = EXCLUDED.author_id,
			report_count = EXCLUDED.report_count, open_reports = EXCLUDED.open_reports,
			created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
		WHERE (t.title, t.status, t.author_id, t.report_count, t.open_reports, t.created_at, t.updated_at) IS DISTINCT FROM
			(EXCLUDED.title, EXCLUDED.status, EXCLUDED.author_id, EXCLUDED.report_count, EXCLUDED.open_reports,
			EXCLUDED.created_at, EXCLUDED.updated_at)`)
	return err
}
