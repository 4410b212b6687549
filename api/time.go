package api

import "time"

// TimeLayout is RFC 3339 in UTC with milliseconds, the one timestamp format
// of every response.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Timestamp formats t for the wire.
func Timestamp(t time.Time) string { return t.UTC().Format(TimeLayout) }

// OptionalTimestamp formats t, or gives nil (JSON null) when t is nil.
func OptionalTimestamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Timestamp(*t)
	return &s
}
