package models

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Snippet marks: the database puts these private-use characters around
// each match, so that the caller can escape the snippet as text and only
// then turn them into <mark> tags. Content is stored as given and may hold
// markup; it never reaches a page unescaped.
const (
	MarkStart = "\ue000"
	MarkStop  = "\ue001"
)

// SearchQuery is a ranked search: the words, and what the caller may see.
type SearchQuery struct {
	Text   string
	Limit  int
	Offset int
	// AllPosts lets posts of every status match (posts:moderate);
	// otherwise only published ones do.
	AllPosts bool
	// AllUsers lets every user match, private profiles and banned users
	// included, and matches emails (users:manage); otherwise only public
	// profiles of users who are not banned, by username and name.
	AllUsers bool
	// respelled marks a search run again with its words respelled, which
	// is not tried again.
	respelled bool
}

// retrySpelling runs search again with q's words respelled, when any word
// changes (PostgreSQL); mark notes the respelled text on its result. With
// nothing to respell, the empty result stands.
func retrySpelling[R any](ctx context.Context, s *Store, q SearchQuery, search func(context.Context, SearchQuery) (*R, error), mark func(*R, string)) (*R, error) {
	text, changed, err := s.respelled(ctx, q.Text)
	if err != nil || !changed {
		return new(R), err
	}
	q.Text, q.respelled = text, true
	out, err := search(ctx, q)
	if err == nil {
		mark(out, text)
	}
	return out, err
}

// PostHit is a post found by a search.
type PostHit struct {
	ID      int64
	Title   string
	Snippet string
	Score   float64
}

// UserHit is a user found by a search.
type UserHit struct {
	ID       int64
	Username string
	Name     *string
	Email    string
	Status   string
	Score    float64
}

// PostHits are a page of ranked posts and how many matched, up to
// SearchCountCap; Capped says there were more.
type PostHits struct {
	Hits   []PostHit
	Total  int
	Capped bool
	// Typo says the words as given matched nothing and the hits are for
	// the words as respelled (PostgreSQL only).
	Typo bool
}

// scored is a match and its rank.
type scored struct {
	ID    int64
	Score float64
}

// SearchPosts ranks the newest SearchCountCap posts matching all of q's
// words, a match in the title above one in the body, and counts them. On
// PostgreSQL, words that match nothing are tried again respelled.
func (s Search) SearchPosts(ctx context.Context, q SearchQuery) (*PostHits, error) {
	db := s.db(ctx)
	pg := Dialect(db) == "postgres"
	top, err := newestID(ctx, db, "posts")
	if err != nil {
		return nil, err
	}
	search := litePostSearch(db, q, top)
	if pg {
		search = pgPostSearch(db, q, top, s.searchWalk(walkSpan))
	}
	found, err := newestMatches[scored](ctx, db, search)
	if err != nil {
		return nil, err
	}
	out := &PostHits{Total: min(len(found), SearchCountCap), Capped: len(found) > SearchCountCap}
	if out.Total == 0 && pg && !q.respelled {
		return retrySpelling(ctx, s.Store, q, s.SearchPosts, func(h *PostHits, _ string) { h.Typo = true })
	}
	out.Hits, err = postPage(ctx, db, q, rankedPage(found[:out.Total], q))
	return out, err
}

// postPage reads the titles and draws the snippets of a page of ranked
// matches, in their order.
func postPage(ctx context.Context, db bun.IDB, q SearchQuery, page []scored) ([]PostHit, error) {
	if len(page) == 0 {
		return nil, nil
	}
	sel := litePostSnippets(db, q, page)
	if Dialect(db) == "postgres" {
		sel = pgPostSnippets(db, q, page)
	}
	var hits []PostHit
	if err := sel.Scan(ctx, &hits); err != nil {
		return nil, err
	}
	score := make(map[int64]float64, len(page))
	for _, m := range page {
		score[m.ID] = m.Score
	}
	for i := range hits {
		hits[i].Score = score[hits[i].ID]
	}
	sortHits(hits, func(h PostHit) (float64, int64) { return h.Score, h.ID })
	return hits, nil
}

// newestID is the highest id in table, or 0 when it is empty.
func newestID(ctx context.Context, db bun.IDB, table string) (int64, error) {
	var top int64
	err := db.NewSelect().TableExpr(table).ColumnExpr("COALESCE(max(id), 0)").Scan(ctx, &top)
	return top, err
}

// rankedPage orders matches best first (the newer first among equals) and
// keeps q's page of them.
func rankedPage(found []scored, q SearchQuery) []scored {
	ranked := slices.Clone(found)
	sortHits(ranked, func(m scored) (float64, int64) { return m.Score, m.ID })
	return ranked[min(q.Offset, len(ranked)):min(q.Offset+q.Limit, len(ranked))]
}

// sortHits orders hits by score, best first, then by id, newest first.
func sortHits[T any](hits []T, key func(T) (float64, int64)) {
	slices.SortStableFunc(hits, func(a, b T) int {
		as, ai := key(a)
		bs, bi := key(b)
		return cmp.Or(cmp.Compare(bs, as), cmp.Compare(bi, ai))
	})
}

// postsVisible keeps the posts the caller may see.
func postsVisible(sq *bun.SelectQuery, q SearchQuery) *bun.SelectQuery {
	if !q.AllPosts {
		sq = sq.Where("p.status = ?", PostPublished)
	}
	return sq
}

const pgTSQuery = "websearch_to_tsquery('english', ?)"

// pgPostSearch matches the weighted tsvector. ts_match_vq is @@ under the
// name of its function, which no index serves: the walk's plan.
func pgPostSearch(db bun.IDB, q SearchQuery, top, walk int64) newestSearch {
	matches := func(w idWindow, cond string) *bun.SelectQuery {
		sq := db.NewSelect().TableExpr("posts AS p").Column("p.id").
			ColumnExpr("ts_rank_cd(p.search_vector, "+pgTSQuery+") AS score", q.Text).
			Where("p.id > ? AND p.id <= ?", w.lo, w.hi).Where(cond, q.Text)
		return postsVisible(sq, q)
	}
	return newestSearch{top: top, want: SearchCountCap + 1, span: walk, walkCost: textWalkCost,
		walk: func(w idWindow) *bun.SelectQuery {
			return matches(w, "ts_match_vq(p.search_vector, "+pgTSQuery+")").OrderExpr("p.id DESC")
		},
		index: func(w idWindow) *bun.SelectQuery { return matches(w, "p.search_vector @@ "+pgTSQuery) },
	}
}

// pgPostSnippets draws the page's snippets: ts_headline parses the whole
// text, so it runs for the page alone.
func pgPostSnippets(db bun.IDB, q SearchQuery, page []scored) *bun.SelectQuery {
	return db.NewSelect().TableExpr("posts AS p").Column("p.id", "p.title").
		ColumnExpr("ts_headline('english', p.content, "+pgTSQuery+", ?) AS snippet", q.Text,
			"StartSel="+MarkStart+", StopSel="+MarkStop+", MaxWords=24, MinWords=8, MaxFragments=1").
		Where("p.id IN (?)", bun.In(ids(page)))
}

func ids(ms []scored) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// respelled is text with each word of letters alone that no title,
// username or name holds replaced by the closest word that one does
// (search_words, pg_trgm's similarity threshold), and whether any word was
// replaced. Other words (with digits or signs, or shorter than three
// letters) are kept as they are. PostgreSQL only.
func (s *Store) respelled(ctx context.Context, text string) (string, bool, error) {
	var words []struct {
		Word, Closest string
	}
	err := s.db(ctx).NewSelect().
		TableExpr("regexp_split_to_table(?, '\\s+') WITH ORDINALITY AS w (word, n)", text).
		ColumnExpr("w.word").
		ColumnExpr(`coalesce(CASE WHEN w.word ~ '^[[:alpha:]]{3,40}$' THEN (SELECT d.word FROM search_words AS d
			WHERE d.word % lower(w.word) ORDER BY similarity(d.word, lower(w.word)) DESC, d.word LIMIT 1) END, w.word) AS closest`).
		Where("w.word <> ''").OrderExpr("w.n").Scan(ctx, &words)
	if err != nil {
		return "", false, err
	}
	out, changed := make([]string, len(words)), false
	for i, w := range words {
		out[i], changed = w.Closest, changed || !strings.EqualFold(w.Closest, w.Word)
	}
	return strings.Join(out, " "), changed, nil
}

// litePostSearch matches posts_fts, which walks its matches newest first
// by itself. bm25 is lower for better matches; a title counts ten times
// the body.
func litePostSearch(db bun.IDB, q SearchQuery, top int64) newestSearch {
	return newestSearch{top: top, want: SearchCountCap + 1, span: top,
		walk: func(w idWindow) *bun.SelectQuery {
			sq := db.NewSelect().TableExpr("posts_fts").Join("JOIN posts AS p ON p.id = posts_fts.rowid").
				ColumnExpr("posts_fts.rowid AS id, -bm25(posts_fts, 10.0, 1.0) AS score").
				Where("posts_fts MATCH ?", ftsQuery(q.Text)).
				Where("posts_fts.rowid > ? AND posts_fts.rowid <= ?", w.lo, w.hi).
				OrderExpr("posts_fts.rowid DESC")
			return postsVisible(sq, q)
		},
	}
}

// litePostSnippets draws the page's snippets: snippet() reads and
// tokenises the whole text, so it runs for the page alone. The page's ids
// bound one pass over the matches; asked for its ids alone (rowid IN),
// FTS5 would start the search over for each of them. The unary plus keeps
// the IN list a filter on that one pass.
func litePostSnippets(db bun.IDB, q SearchQuery, page []scored) *bun.SelectQuery {
	ids := ids(page)
	return db.NewSelect().TableExpr("posts_fts").Join("JOIN posts AS p ON p.id = posts_fts.rowid").
		Column("p.id", "p.title").
		ColumnExpr("snippet(posts_fts, 1, ?, ?, '…', 16) AS snippet", MarkStart, MarkStop).
		Where("posts_fts MATCH ?", ftsQuery(q.Text)).
		Where("posts_fts.rowid BETWEEN ? AND ?", slices.Min(ids), slices.Max(ids)).
		Where("+posts_fts.rowid IN (?)", bun.In(ids))
}

// ftsQuery turns words into an FTS5 query that matches them all: each word
// quoted, so that FTS5's own syntax in user input is only text.
func ftsQuery(text string) string {
	var terms []string
	for _, w := range strings.Fields(text) {
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " ")
}

// UserHits are a page of ranked users and how many matched, up to
// SearchCountCap; Capped says there were more.
type UserHits struct {
	Hits   []UserHit
	Total  int
	Capped bool
	// Respelled is the text the hits hold when the text as given matched
	// nobody (PostgreSQL only).
	Respelled string
}

// SearchUsers ranks the newest SearchCountCap users whose username or
// name (and, for AllUsers, email) holds q's text, and counts them. On
// PostgreSQL, text that no one's holds is tried again respelled.
func (s Search) SearchUsers(ctx context.Context, q SearchQuery) (*UserHits, error) {
	db, now := s.db(ctx), s.now()
	top, err := newestID(ctx, db, "users")
	if err != nil {
		return nil, err
	}
	pg := Dialect(db) == "postgres"
	search := liteUserSearch(db, q, top, now)
	if pg {
		search = pgUserSearch(db, q, top, s.searchWalk(nameWalkSpan), now)
	}
	found, err := newestMatches[UserHit](ctx, db, search)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 && pg && !q.respelled {
		return retrySpelling(ctx, s.Store, q, s.SearchUsers, func(h *UserHits, text string) { h.Respelled = text })
	}
	out := &UserHits{Total: min(len(found), SearchCountCap), Capped: len(found) > SearchCountCap}
	ranked := found[:out.Total]
	sortHits(ranked, func(h UserHit) (float64, int64) { return h.Score, h.ID })
	out.Hits = ranked[min(q.Offset, len(ranked)):min(q.Offset+q.Limit, len(ranked))]
	return out, nil
}

// userColumns are the columns a user search matches: emails only for
// callers who may see them.
func userColumns(q SearchQuery) []string {
	if q.AllUsers {
		return []string{"u.username", "u.name", "u.email"}
	}
	return []string{"u.username", "u.name"}
}

// profileText and staffText are the columns a user search matches, joined
// as PostgreSQL's trigram indexes over them join them (the unit separator
// keeps a match within one column): username and name for anyone, the
// email too for staff. a is the users table's alias.
func profileText(a string) string {
	return "(" + a + ".username || E'\\x1f' || coalesce(" + a + ".name, ''))"
}

func staffText(a string) string {
	return "(coalesce(" + a + ".name, '') || E'\\x1f' || " + a + ".username || E'\\x1f' || " + a + ".email)"
}

// userHits selects a user search's rows in a window, with what the caller
// may see of them.
func userHits(sq *bun.SelectQuery, q SearchQuery, now time.Time) *bun.SelectQuery {
	expr, args := statusNow(now)
	sq = sq.Column("u.id", "u.username", "u.name", "u.email").ColumnExpr(expr+" AS status", args...)
	if !q.AllUsers {
		sq = sq.Where("u.profile_public = ?", true).Where(expr+" <> ?", append(args, UserBanned)...)
	}
	return sq
}

// pgUserSearch matches a case-insensitive substring of usernames and names
// (and emails), through one trigram index over them (profileText,
// staffText); texticlike is ILIKE under the name of its function, for the
// walk. The score is the trigram similarity to the best of the columns.
func pgUserSearch(db bun.IDB, q SearchQuery, top, walk int64, now time.Time) newestSearch {
	cols, text := userColumns(q), profileText("u")
	if q.AllUsers {
		text = staffText("u")
	}
	var score []string
	for _, c := range cols {
		score = append(score, "similarity(coalesce("+c+", ''), ?)")
	}
	pattern := "%" + escapeLike(q.Text) + "%"
	matches := func(w idWindow, cond string) *bun.SelectQuery {
		return userHits(db.NewSelect().TableExpr("users AS u"), q, now).
			ColumnExpr("greatest("+strings.Join(score, ", ")+") AS score", repeat(q.Text, len(cols))...).
			Where("u.id > ? AND u.id <= ?", w.lo, w.hi).Where(cond, pattern)
	}
	return newestSearch{top: top, want: SearchCountCap + 1, span: walk,
		walk:  func(w idWindow) *bun.SelectQuery { return matches(w, "texticlike("+text+", ?)").OrderExpr("u.id DESC") },
		index: func(w idWindow) *bun.SelectQuery { return matches(w, text+" ILIKE ?") },
		rough: true, walkCost: nameWalkCost,
	}
}

// anyColumn is form (with %s for the column) for each column, ORed.
func anyColumn(cols []string, form string) string {
	conds := make([]string, len(cols))
	for i, c := range cols {
		conds[i] = strings.ReplaceAll(form, "%s", c)
	}
	return strings.Join(conds, " OR ")
}

// repeat is n copies of v, for the arguments of a condition per column.
func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// liteUserSearch matches a substring of three characters or more through
// the users' trigram FTS5 table, which walks its matches newest first;
// shorter text is a LIKE over the newest users.
func liteUserSearch(db bun.IDB, q SearchQuery, top int64, now time.Time) newestSearch {
	walk := func(w idWindow) *bun.SelectQuery {
		sq := userHits(db.NewSelect().TableExpr("users AS u"), q, now).Where("u.id > ? AND u.id <= ?", w.lo, w.hi)
		if cols := userColumns(q); utf8.RuneCountInString(q.Text) < 3 {
			return sq.Where("("+anyColumn(cols, "%s LIKE ? ESCAPE '\\'")+")", repeat("%"+escapeLike(q.Text)+"%", len(cols))...).
				ColumnExpr("1.0 AS score").OrderExpr("u.id DESC")
		}
		phrase := ftsPhrase(q.Text)
		if !q.AllUsers {
			phrase = "{username name} : " + phrase
		}
		return sq.Join("JOIN users_fts ON users_fts.rowid = u.id").Where("users_fts MATCH ?", phrase).
			ColumnExpr("-bm25(users_fts) AS score").OrderExpr("users_fts.rowid DESC")
	}
	return newestSearch{top: top, want: SearchCountCap + 1, span: top, walk: walk}
}

// LearnSearchWords adds to the respelling dictionary the words of the
// posts or users (table) with ids above after. Triggers learn every row
// written normally; a bulk load that skips triggers calls this once. It
// does nothing on SQLite.
func (s Search) LearnSearchWords(ctx context.Context, table string, after int64) error {
	db := s.db(ctx)
	if Dialect(db) != "postgres" {
		return nil
	}
	text := map[string]string{"posts": "t.title", "users": "t.username || ' ' || coalesce(t.name, '')"}[table]
	if text == "" {
		return fmt.Errorf("no search words in %q", table)
	}
	_, err := db.NewRaw("INSERT INTO search_words (word) SELECT DISTINCT w FROM ? AS t, plaza_words("+text+") AS w"+
		" WHERE t.id > ? ORDER BY w ON CONFLICT DO NOTHING", bun.Ident(table), after).Exec(ctx)
	return err
}
