package models

import (
	"context"
	"strings"
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

// SearchCandidates is how many matching posts a search ranks: the latest
// ones by id. Ranking every match of two common words among millions of
// posts takes seconds; a community's search favours recent posts anyway.
// It is also how far matches are counted (PostHits.Capped).
const SearchCandidates = 1000

// PostHits are a page of ranked posts and how many matched, up to
// SearchCandidates; Capped says there were more.
type PostHits struct {
	Hits   []PostHit
	Total  int
	Capped bool
	// Typo says the words matched nothing and the hits are titles close to
	// them in spelling (PostgreSQL only).
	Typo bool
}

// SearchPosts ranks the latest SearchCandidates posts matching all of q's
// words, a match in the title above one in the body, and counts them. On
// PostgreSQL, words that match nothing are tried as a misspelling of
// titles instead.
func (s *Store) SearchPosts(ctx context.Context, q SearchQuery) (*PostHits, error) {
	db := s.db(ctx)
	pg := Dialect(db) == "postgres"
	out := &PostHits{}
	var sel, count *bun.SelectQuery
	if pg {
		sel, count = pgPostSearch(db, q)
	} else {
		sel, count = litePostSearch(db, q)
	}
	n, err := db.NewSelect().TableExpr("(?) AS found", count.Column("p.id").Limit(SearchCandidates+1)).Count(ctx)
	if err != nil {
		return nil, err
	}
	out.Total, out.Capped = min(int(n), SearchCandidates), n > SearchCandidates
	if n == 0 && pg {
		sel, count = pgTitleTypos(db, q)
		if n, err = count.Count(ctx); err != nil {
			return nil, err
		}
		out.Total, out.Typo = int(n), true
	}
	if out.Total == 0 {
		return out, nil
	}
	err = sel.Limit(int64(q.Limit)).Offset(int64(q.Offset)).Scan(ctx, &out.Hits)
	return out, err
}

// postsVisible keeps the posts the caller may see.
func postsVisible(sq *bun.SelectQuery, q SearchQuery) *bun.SelectQuery {
	if !q.AllPosts {
		sq = sq.Where("p.status = ?", PostPublished)
	}
	return sq
}

// headline draws the page's snippets only: it parses the whole text.
func headline(db bun.IDB, ranked *bun.SelectQuery, tsquery string, text string) *bun.SelectQuery {
	return db.NewSelect().TableExpr("(?) AS r", ranked).Column("r.id", "r.title", "r.score").
		ColumnExpr("ts_headline('english', r.content, "+tsquery+", ?) AS snippet", text,
			"StartSel="+MarkStart+", StopSel="+MarkStop+", MaxWords=24, MinWords=8, MaxFragments=1").
		OrderExpr("r.score DESC, r.id DESC")
}

func pgPostSearch(db bun.IDB, q SearchQuery) (*bun.SelectQuery, *bun.SelectQuery) {
	const tsq = "websearch_to_tsquery('english', ?)"
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		return postsVisible(sq.TableExpr("posts AS p").Where("p.search_vector @@ "+tsq, q.Text), q)
	}
	candidates := match(db.NewSelect()).Column("p.id", "p.title", "p.content", "p.search_vector").
		OrderExpr("p.id DESC").Limit(SearchCandidates)
	ranked := db.NewSelect().TableExpr("(?) AS p", candidates).Column("p.id", "p.title", "p.content").
		ColumnExpr("ts_rank_cd(p.search_vector, "+tsq+") AS score", q.Text).
		OrderExpr("score DESC, p.id DESC").Limit(int64(q.Offset + q.Limit))
	return headline(db, ranked, tsq, q.Text), match(db.NewSelect())
}

// pgTitleTypos finds titles close to q in spelling (trigram word
// similarity, served by the titles' trigram index), closest first.
func pgTitleTypos(db bun.IDB, q SearchQuery) (*bun.SelectQuery, *bun.SelectQuery) {
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		return postsVisible(sq.TableExpr("posts AS p").Where("? <% p.title", q.Text), q)
	}
	ranked := match(db.NewSelect()).Column("p.id", "p.title", "p.content").
		ColumnExpr("word_similarity(?, p.title) AS score", q.Text).
		OrderExpr("score DESC, p.id DESC").Limit(int64(q.Offset + q.Limit))
	sel := db.NewSelect().TableExpr("(?) AS r", ranked).Column("r.id", "r.title", "r.score").
		ColumnExpr("left(r.content, 160) AS snippet").OrderExpr("r.score DESC, r.id DESC")
	return sel, match(db.NewSelect()).Limit(SearchCandidates)
}

func litePostSearch(db bun.IDB, q SearchQuery) (*bun.SelectQuery, *bun.SelectQuery) {
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		return postsVisible(sq.Join("JOIN posts AS p ON p.id = posts_fts.rowid").Where("posts_fts MATCH ?", ftsQuery(q.Text)), q)
	}
	// bm25 is lower for better matches; a title counts ten times the body.
	// FTS5 walks its matches newest first and scores only those it reads.
	candidates := match(db.NewSelect().TableExpr("posts_fts")).Column("p.id", "p.title").
		ColumnExpr("snippet(posts_fts, 1, ?, ?, '…', 16) AS snippet", MarkStart, MarkStop).
		ColumnExpr("-bm25(posts_fts, 10.0, 1.0) AS score").
		OrderExpr("posts_fts.rowid DESC").Limit(SearchCandidates)
	sel := db.NewSelect().TableExpr("(?) AS c", candidates).Column("c.id", "c.title", "c.snippet", "c.score").
		OrderExpr("c.score DESC, c.id DESC")
	return sel, match(db.NewSelect().TableExpr("posts_fts"))
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

// SearchUsers ranks the users whose username or name (and, for AllUsers,
// email) holds q's text or, on PostgreSQL, is close to it in spelling.
func (s *Store) SearchUsers(ctx context.Context, q SearchQuery) ([]UserHit, int, error) {
	db, now := s.db(ctx), s.now()
	expr, args := statusNow(now)
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		sq = userMatch(db, sq, q)
		if !q.AllUsers {
			sq = sq.Where("u.profile_public = ?", true).Where(expr+" <> ?", append(args, UserBanned)...)
		}
		return sq
	}
	var hits []UserHit
	sel := match(db.NewSelect().TableExpr("users AS u").Column("u.id", "u.username", "u.name", "u.email").
		ColumnExpr(expr+" AS status", args...).OrderExpr("score DESC, u.id DESC").
		Limit(int64(q.Limit)).Offset(int64(q.Offset)))
	if err := sel.Scan(ctx, &hits); err != nil {
		return nil, 0, err
	}
	n, err := match(db.NewSelect().TableExpr("users AS u")).Count(ctx)
	return hits, int(n), err
}

// userMatch adds the match condition and the score column.
func userMatch(db bun.IDB, sq *bun.SelectQuery, q SearchQuery) *bun.SelectQuery {
	pattern := "%" + escapeLike(q.Text) + "%"
	if Dialect(db) == "postgres" {
		cond := "u.username ILIKE ? ESCAPE '\\' OR u.name ILIKE ? ESCAPE '\\' OR u.username % ? OR u.name % ?"
		score := "greatest(similarity(u.username, ?), similarity(coalesce(u.name, ''), ?))"
		cargs, sargs := []any{pattern, pattern, q.Text, q.Text}, []any{q.Text, q.Text}
		if q.AllUsers {
			cond += " OR u.email ILIKE ? ESCAPE '\\'"
			score = "greatest(similarity(u.username, ?), similarity(coalesce(u.name, ''), ?), similarity(u.email, ?))"
			cargs, sargs = append(cargs, pattern), append(sargs, q.Text)
		}
		return sq.Where("("+cond+")", cargs...).ColumnExpr(score+" AS score", sargs...)
	}
	if utf8.RuneCountInString(q.Text) >= 3 {
		// The trigram index answers substrings of three characters or more.
		phrase := `"` + strings.ReplaceAll(q.Text, `"`, `""`) + `"`
		if !q.AllUsers {
			phrase = "{username name} : " + phrase
		}
		return sq.Join("JOIN users_fts ON users_fts.rowid = u.id").Where("users_fts MATCH ?", phrase).
			ColumnExpr("-bm25(users_fts) AS score")
	}
	cond := "u.username LIKE ? ESCAPE '\\' OR u.name LIKE ? ESCAPE '\\'"
	cargs := []any{pattern, pattern}
	if q.AllUsers {
		cond += " OR u.email LIKE ? ESCAPE '\\'"
		cargs = append(cargs, pattern)
	}
	return sq.Where("("+cond+")", cargs...).ColumnExpr("1.0 AS score")
}
