// Package wiretime is Plaza's one time format on the wire: RFC 3339 in UTC
// with milliseconds, as every response, audit detail and webhook message
// writes a time. It is a leaf, so that the wire contract (api), the
// actions and the engines share it.
package wiretime

import "time"

// Layout is RFC 3339 in UTC with milliseconds.
const Layout = "2006-01-02T15:04:05.000Z"

// Format writes t in Layout, in UTC.
func Format(t time.Time) string { return t.UTC().Format(Layout) }
