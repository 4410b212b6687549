package views

import (
	"net/url"
	"strconv"

	"github.com/plazahq/plaza/api"
)

// Query is a console list's state as its URL holds it: the path and the
// query (filters, sort, order, limit, offset). Its methods build the URLs
// of the list's links, each a copy with one thing changed.
type Query struct {
	Path   string
	Values url.Values
	// DefaultSort and DefaultDesc are how the list sorts when the query
	// does not say.
	DefaultSort string
	DefaultDesc bool
}

// Get is the value of key in the query.
func (q Query) Get(key string) string { return q.Values.Get(key) }

// withID is the query with a person filter's name or email replaced by
// the id it resolved to, for links to the API, which takes ids only.
func (q Query) withID(key, id string) Query {
	if id == "" || q.Get(key) == "" {
		return q
	}
	v := url.Values{}
	for k, vs := range q.Values {
		v[k] = vs
	}
	v.Set(key, id)
	q.Values = v
	return q
}

// with is the URL with key set to value (removed when empty) and the
// offset back at the first page.
func (q Query) with(set map[string]string) string {
	v := url.Values{}
	for k, vs := range q.Values {
		v[k] = append([]string(nil), vs...)
	}
	v.Del("offset")
	for k, val := range set {
		if val == "" {
			v.Del(k)
		} else {
			v.Set(k, val)
		}
	}
	if len(v) == 0 {
		return q.Path
	}
	return q.Path + "?" + v.Encode()
}

// URL is the list as it is now.
func (q Query) URL() string {
	if len(q.Values) == 0 {
		return q.Path
	}
	return q.Path + "?" + q.Values.Encode()
}

// Clear is the list with no filters.
func (q Query) Clear() string { return q.Path }

// Filtered reports whether any filter or search narrows the list.
func (q Query) Filtered(keys ...string) bool {
	for _, k := range keys {
		if q.Values.Get(k) != "" {
			return true
		}
	}
	return false
}

func (q Query) sort() (string, bool) {
	key, desc := q.Values.Get("sort"), q.DefaultDesc
	if key == "" {
		key = q.DefaultSort
	}
	switch q.Values.Get("order") {
	case "asc":
		desc = false
	case "desc":
		desc = true
	}
	return key, desc
}

// SortBy is the list sorted by key: descending first, ascending when it
// is already sorted by key descending.
func (q Query) SortBy(key string) string {
	cur, desc := q.sort()
	order := "desc"
	if cur == key && desc {
		order = "asc"
	}
	return q.with(map[string]string{"sort": key, "order": order})
}

// AriaSort is the aria-sort of key's column.
func (q Query) AriaSort(key string) string {
	cur, desc := q.sort()
	switch {
	case cur != key:
		return "none"
	case desc:
		return "descending"
	}
	return "ascending"
}

// SortMark is the arrow after a sorted column's label.
func (q Query) SortMark(key string) string {
	switch q.AriaSort(key) {
	case "descending":
		return "↓"
	case "ascending":
		return "↑"
	}
	return ""
}

// PageAt is the list from offset, limit rows a page.
func (q Query) PageAt(offset, limit int) string {
	set := map[string]string{"limit": strconv.Itoa(limit)}
	if offset > 0 {
		set["offset"] = strconv.Itoa(offset)
	}
	return q.with(set)
}

// pageSummary is "1–20 of 1,234" (or "of 200+" when the total is capped).
func pageSummary(p api.Pagination) string {
	if p.Total == 0 {
		return "Nothing to show"
	}
	last := min(p.Offset+p.Limit, p.Total)
	if p.HasMore && last < p.Offset+p.Limit {
		last = p.Offset + p.Limit
	}
	total := count(p.Total)
	if p.TotalCapped {
		total += "+"
	}
	return count(p.Offset+1) + "–" + count(last) + " of " + total
}
