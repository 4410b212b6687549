package api

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// V1 is the envelope of every successful versioned admin response.
type V1 struct {
	Success bool    `json:"success"`
	Data    any     `json:"data"`
	Meta    *V1Meta `json:"meta,omitempty"`
}

// V1Meta carries a list's pagination.
type V1Meta struct {
	Pagination Pagination `json:"pagination"`
}

// Pagination of the versioned admin lists.
type Pagination struct {
	Total   int  `json:"total"`
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	HasMore bool `json:"hasMore"`
	// TotalCapped, Plaza's addition, says that a list matched more than
	// total. Only a title search of the admin posts list is capped (it
	// keeps its newest 1,000 matches); every other list counts exactly.
	TotalCapped bool `json:"totalCapped,omitempty" description:"Present and true when a list matched more than total (Plaza's addition): a title search of the admin posts list keeps its newest 1,000 matches. Every other list counts exactly."`
}

// OK wraps data in the v1 envelope.
func OK(data any) V1 { return V1{Success: true, Data: data} }

// Page wraps a list page in the v1 envelope with its pagination.
func Page(data any, total int, p PageParams) V1 {
	return V1{Success: true, Data: data, Meta: &V1Meta{Pagination: Pagination{
		Total: total, Limit: p.Limit, Offset: p.Offset, HasMore: p.Offset+p.Limit < total,
	}}}
}

// PageParams are limit and offset of a versioned admin list.
type PageParams struct {
	Limit  int
	Offset int
}

// V1PageQuery documents the query of a versioned admin list with no
// filters.
type V1PageQuery struct {
	Limit  int `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset int `query:"offset" minimum:"0" default:"0"`
}

// V1 list bounds. A limit outside 1..MaxLimit is an error, never clamped.
const (
	DefaultLimit = 50
	MaxLimit     = 100
)

// ParsePage reads limit (1..100, default 50) and offset (>= 0, default 0);
// anything else is an issue, never silently clamped.
func ParsePage(q url.Values) (PageParams, []Issue) {
	p := PageParams{Limit: DefaultLimit}
	var issues []Issue
	if v, ok := param(q, "limit"); ok {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			issues = append(issues, FieldIssue("limit", "invalid_type", "limit must be an integer"))
		case n < 1 || n > MaxLimit:
			issues = append(issues, FieldIssue("limit", "too_big", "limit must be between 1 and 100"))
		default:
			p.Limit = n
		}
	}
	if v, ok := param(q, "offset"); ok {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			issues = append(issues, FieldIssue("offset", "invalid_type", "offset must be an integer"))
		case n < 0:
			issues = append(issues, FieldIssue("offset", "too_small", "offset must be 0 or more"))
		default:
			p.Offset = n
		}
	}
	return p, issues
}

// ParseTime reads an optional RFC 3339 timestamp or ISO date (a date means
// its midnight UTC); endOfDay moves a bare date to the next midnight, so an
// end date includes its whole day.
func ParseTime(q url.Values, name string, endOfDay bool) (*time.Time, []Issue) {
	v, ok := param(q, name)
	if !ok {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		t = t.UTC()
		return &t, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if endOfDay {
			d = d.AddDate(0, 0, 1)
		}
		return &d, nil
	}
	return nil, []Issue{FieldIssue(name, "invalid_string", name+" must be an ISO 8601 date or timestamp")}
}

// ParseID reads an optional numeric id parameter.
func ParseID(q url.Values, name string) (*int64, []Issue) {
	v, ok := param(q, name)
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		return nil, []Issue{FieldIssue(name, "invalid_type", name+" must be a positive integer id")}
	}
	return &n, nil
}

// QueryParam is a query parameter, trimmed, and whether it was given.
func QueryParam(q url.Values, name string) (string, bool) { return param(q, name) }

func param(q url.Values, name string) (string, bool) {
	v := strings.TrimSpace(q.Get(name))
	return v, q.Has(name)
}
