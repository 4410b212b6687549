package models

import (
	"context"
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
	found, err := newestMatches[int64](ctx, db, s.titleSearch(db, f, top))
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
// post_titles, whose trigram index lists a rare term's matches; it cannot
// serve a term shorter than three characters (it would read all of
// itself), so such a term is walked. SQLite has liteTitleSearch.
func (s *Store) titleSearch(db bun.IDB, f PostListFilter, top int64) newestSearch {
	rest := f
	rest.Search = ""
	if Dialect(db) != "postgres" {
		return liteTitleSearch(db, f.Search, rest, top)
	}
	pattern := "%" + escapeLike(f.Search) + "%"
	// post_titles holds the columns filterPosts reads, under posts' names.
	matches := func(w idWindow, cond string) *bun.SelectQuery {
		return db.NewSelect().TableExpr("post_titles AS p").Column("p.id").Apply(filterPosts(rest)).
			Where("p.id > ? AND p.id <= ?", w.lo, w.hi).Where(cond, pattern)
	}
	search := newestSearch{top: top, want: TitleSearchCap + 1, span: s.searchWalk(nameWalkSpan), rough: true, walkCost: titleWalkCost,
		// texticlike is ILIKE under its function's name, which no index serves.
		walk: func(w idWindow) *bun.SelectQuery { return matches(w, "texticlike(p.title, ?)").OrderExpr("p.id DESC") },
	}
	if utf8.RuneCountInString(f.Search) >= 3 {
		search.index = func(w idWindow) *bun.SelectQuery { return matches(w, "p.title ILIKE ?") }
	}
	return search
}

// liteTitleSearch is titleSearch on SQLite: a term of three characters or
// more through the titles' trigram index (post_titles_fts), which walks its
// matches newest first; a shorter one by LIKE over the posts, newest first.
// Either stops at the cap.
func liteTitleSearch(db bun.IDB, term string, rest PostListFilter, top int64) newestSearch {
	walk := func(w idWindow) *bun.SelectQuery {
		q := db.NewSelect().TableExpr("posts AS p").Column("p.id").Apply(filterPosts(rest)).
			Where("p.id > ? AND p.id <= ?", w.lo, w.hi)
		if utf8.RuneCountInString(term) < 3 {
			return q.Where("p.title LIKE ? ESCAPE '\\'", "%"+escapeLike(term)+"%").OrderExpr("p.id DESC")
		}
		return q.Join("JOIN post_titles_fts ON post_titles_fts.rowid = p.id").
			Where("post_titles_fts MATCH ?", "title : "+ftsPhrase(term)).OrderExpr("post_titles_fts.rowid DESC")
	}
	return newestSearch{top: top, want: TitleSearchCap + 1, span: top, walk: walk}
}

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
