package handlers

import (
	"context"
	"html"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// SearchStore is what search needs.
type SearchStore interface {
	SearchPosts(ctx context.Context, q models.SearchQuery) (*models.PostHits, error)
	SearchUsers(ctx context.Context, q models.SearchQuery) (*models.UserHits, error)
}

// Search answers /api/search, /api/search/users and /api/search/posts
// (docs/api.md, "Search"): ranked results the caller may see, as the
// policy says, with the matched words marked in HTML-safe snippets.
type Search struct {
	Store  SearchStore
	Policy policy.Policy
}

// All answers GET /api/search?q&type&limit&offset.
func (h Search) All(c echo.Context) error { return h.answer(c, true, "") }

// Users answers GET /api/search/users?q&limit&offset.
func (h Search) Users(c echo.Context) error { return h.answer(c, false, api.SearchUsers) }

// Posts answers GET /api/search/posts?q&limit&offset.
func (h Search) Posts(c echo.Context) error { return h.answer(c, false, api.SearchPosts) }

func (h Search) answer(c echo.Context, withType bool, kind string) error {
	p, err := api.ParseSearch(c.QueryParams(), withType)
	if err != nil {
		return err
	}
	if kind != "" {
		p.Type = kind
	}
	caller := access.PrincipalFrom(c.Request().Context())
	q := models.SearchQuery{Text: p.Text, Limit: p.Page.Limit, Offset: p.Page.Offset,
		AllPosts: h.Policy.May(caller, policy.SeeUnpublishedPosts, policy.Platform),
		AllUsers: h.Policy.May(caller, policy.SeePrivateProfiles, policy.Platform)}
	ctx := c.Request().Context()
	var out api.SearchResults
	switch p.Type {
	case api.SearchPosts:
		out, err = h.posts(ctx, q)
	case api.SearchUsers:
		out, err = h.users(ctx, q)
	default:
		out, err = h.both(ctx, q)
	}
	if err != nil {
		return err
	}
	out.Query = p.Text
	return c.JSON(http.StatusOK, out)
}

func (h Search) posts(ctx context.Context, q models.SearchQuery) (api.SearchResults, error) {
	found, err := h.Store.SearchPosts(ctx, q)
	if err != nil {
		return api.SearchResults{}, err
	}
	out := api.SearchResults{Results: make([]api.SearchResult, len(found.Hits)), Total: found.Total, TotalCapped: found.Capped}
	for i, hit := range found.Hits {
		out.Results[i] = api.SearchResult{Type: "post", ID: itoa(hit.ID), Title: hit.Title, Snippet: markedSnippet(hit.Snippet), Score: hit.Score}
	}
	return out, nil
}

func (h Search) users(ctx context.Context, q models.SearchQuery) (api.SearchResults, error) {
	found, err := h.Store.SearchUsers(ctx, q)
	if err != nil {
		return api.SearchResults{}, err
	}
	out := api.SearchResults{Results: make([]api.SearchResult, len(found.Hits)), Total: found.Total, TotalCapped: found.Capped}
	if found.Respelled != "" {
		q.Text = found.Respelled
	}
	for i, hit := range found.Hits {
		out.Results[i] = api.SearchResult{Type: "user", ID: itoa(hit.ID), Name: displayName(hit),
			Snippet: userSnippet(hit, q), Score: hit.Score}
	}
	return out, nil
}

// both searches users and posts and merges them. The two rankings are on
// different scales (text rank against name similarity), so each is divided
// by its best score first: the best user and the best post both score 1,
// and the rest interleave by how close they come to their kind's best.
func (h Search) both(ctx context.Context, q models.SearchQuery) (api.SearchResults, error) {
	top := q
	top.Limit, top.Offset = q.Offset+q.Limit, 0
	// The two searches share nothing but the pool (search runs in no
	// change), so they run side by side: the answer waits for the slower.
	var posts, users api.SearchResults
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { posts, err = h.posts(gctx, top); return err })
	g.Go(func() (err error) { users, err = h.users(gctx, top); return err })
	if err := g.Wait(); err != nil {
		return api.SearchResults{}, err
	}
	merged := append(normalised(posts.Results), normalised(users.Results)...)
	slices.SortStableFunc(merged, func(a, b api.SearchResult) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(a.Type, b.Type)
	})
	from, to := min(q.Offset, len(merged)), min(q.Offset+q.Limit, len(merged))
	return api.SearchResults{Results: merged[from:to], Total: posts.Total + users.Total, TotalCapped: posts.TotalCapped || users.TotalCapped}, nil
}

func normalised(rs []api.SearchResult) []api.SearchResult {
	best := 0.0
	for _, r := range rs {
		best = max(best, r.Score)
	}
	for i := range rs {
		if best > 0 {
			rs[i].Score = round4(rs[i].Score / best)
		}
	}
	return rs
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// markedSnippet escapes a database snippet as text, then turns its match
// delimiters into <mark> tags: the only markup a snippet ever carries.
func markedSnippet(s string) string {
	s = html.EscapeString(s)
	return strings.NewReplacer(models.MarkStart, "<mark>", models.MarkStop, "</mark>").Replace(s)
}

func displayName(u models.UserHit) string {
	if u.Name != nil && *u.Name != "" {
		return *u.Name
	}
	return u.Username
}

// userSnippet shows who matched, with the query marked: name and
// username, and the email for callers who may see it (never a banned
// user's).
func userSnippet(u models.UserHit, q models.SearchQuery) string {
	parts := []string{displayName(u), "@" + u.Username}
	if q.AllUsers && u.Status != models.UserBanned {
		parts = append(parts, u.Email)
	}
	return markText(strings.Join(parts, " · "), q.Text)
}

// markText escapes text and marks each case-insensitive occurrence of term.
func markText(text, term string) string {
	re, err := regexp.Compile("(?i)" + regexp.QuoteMeta(term))
	if err != nil || term == "" {
		return html.EscapeString(text)
	}
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringIndex(text, -1) {
		b.WriteString(html.EscapeString(text[last:m[0]]))
		b.WriteString("<mark>" + html.EscapeString(text[m[0]:m[1]]) + "</mark>")
		last = m[1]
	}
	b.WriteString(html.EscapeString(text[last:]))
	return b.String()
}
