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

// SearchPosts ranks the posts matching q's words, a match in the title
// above one in the body, and counts them. On PostgreSQL a title close to
// the query in spelling also matches (a typo), below the exact matches.
func (s *Store) SearchPosts(ctx context.Context, q SearchQuery) ([]PostHit, int, error) {
	db := s.db(ctx)
	var hits []PostHit
	var sel, count *bun.SelectQuery
	if Dialect(db) == "postgres" {
		sel, count = pgPostSearch(db, q)
	} else {
		sel, count = litePostSearch(db, q)
	}
	if err := sel.Limit(int64(q.Limit)).Offset(int64(q.Offset)).Scan(ctx, &hits); err != nil {
		return nil, 0, err
	}
	n, err := count.Count(ctx)
	return hits, int(n), err
}

// typoWeight scales a title's spelling similarity (0..1) below the rank of
// real matches.
const typoWeight = 0.05

func pgPostSearch(db bun.IDB, q SearchQuery) (*bun.SelectQuery, *bun.SelectQuery) {
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		sq = sq.Where("(p.search_vector @@ websearch_to_tsquery('english', ?) OR ? <% p.title)", q.Text, q.Text)
		if !q.AllPosts {
			sq = sq.Where("p.status = ?", PostPublished)
		}
		return sq
	}
	ranked := match(db.NewSelect().TableExpr("posts AS p").Column("p.id", "p.title", "p.content").
		ColumnExpr("ts_rank_cd(p.search_vector, websearch_to_tsquery('english', ?)) + ? * word_similarity(?, p.title) AS score",
			q.Text, typoWeight, q.Text).
		OrderExpr("score DESC, p.id DESC").Limit(int64(q.Offset + q.Limit)))
	// The headline is drawn for the page's rows only: it parses the whole text.
	sel := db.NewSelect().TableExpr("(?) AS r", ranked).Column("r.id", "r.title", "r.score").
		ColumnExpr("ts_headline('english', r.content, websearch_to_tsquery('english', ?), ?) AS snippet", q.Text,
			"StartSel="+MarkStart+", StopSel="+MarkStop+", MaxWords=24, MinWords=8, MaxFragments=1").
		OrderExpr("r.score DESC, r.id DESC")
	return sel, match(db.NewSelect().TableExpr("posts AS p"))
}

func litePostSearch(db bun.IDB, q SearchQuery) (*bun.SelectQuery, *bun.SelectQuery) {
	match := func(sq *bun.SelectQuery) *bun.SelectQuery {
		sq = sq.Join("JOIN posts AS p ON p.id = posts_fts.rowid").Where("posts_fts MATCH ?", ftsQuery(q.Text))
		if !q.AllPosts {
			sq = sq.Where("p.status = ?", PostPublished)
		}
		return sq
	}
	// bm25 is lower for better matches; a title counts ten times the body.
	sel := match(db.NewSelect().TableExpr("posts_fts").Column("p.id", "p.title").
		ColumnExpr("snippet(posts_fts, 1, ?, ?, '…', 16) AS snippet", MarkStart, MarkStop).
		ColumnExpr("-bm25(posts_fts, 10.0, 1.0) AS score").
		OrderExpr("score DESC, p.id DESC"))
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
