package api

import (
	"net/url"
	"unicode/utf8"
)

// SearchResult is one hit of /api/search: a post
// carries its title, a user its name; the snippet is HTML whose only tags
// are <mark> around the matched words.
type SearchResult struct {
	Type    string  `json:"type" enum:"post,user"`
	ID      string  `json:"id"`
	Title   string  `json:"title,omitempty"`
	Name    string  `json:"name,omitempty"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// SearchResults answers /api/search, /api/search/users and /api/search/posts.
type SearchResults struct {
	Query   string         `json:"query"`
	Results []SearchResult `json:"results"`
	Total   int            `json:"total"`
	// TotalCapped, Plaza's addition, says that more posts or
	// users matched than Plaza ranks and counts (200 of each kind): Total
	// is a lower bound.
	TotalCapped bool `json:"totalCapped"`
}

// SearchQuery documents the query of /api/search.
type SearchQuery struct {
	Q      string `query:"q" required:"true" minLength:"1" maxLength:"200" description:"The words to find."`
	Type   string `query:"type" enum:"all,users,posts" default:"all" description:"What to search (only on /api/search)."`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"20"`
	Offset int    `query:"offset" minimum:"0" default:"0"`
}

// Search kinds.
const (
	SearchAll   = "all"
	SearchUsers = "users"
	SearchPosts = "posts"
)

// MaxSearchText is the longest query /api/search takes, in characters.
const MaxSearchText = 200

// SearchParams are a search request's checked parameters.
type SearchParams struct {
	Text string
	Type string
	Page PageParams
}

// ParseSearch reads q (required, 1..200 characters after trimming), type
// (when withType), limit and offset; anything else is an issue.
func ParseSearch(q url.Values, withType bool) (SearchParams, error) {
	out := SearchParams{Type: SearchAll}
	page, issues := ParseGeneralPage(q)
	out.Page = page
	text, _ := param(q, "q")
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		issues = append(issues, FieldIssue("q", "too_small", "q is required: the words to search for"))
	case n > MaxSearchText:
		issues = append(issues, FieldIssue("q", "too_big", "q must be at most 200 characters"))
	}
	out.Text = text
	if withType {
		t, is := ParseChoice(q, "type", SearchAll, SearchAll, SearchUsers, SearchPosts)
		out.Type, issues = t, append(issues, is...)
	}
	if len(issues) > 0 {
		return out, Invalid(issues...)
	}
	return out, nil
}
