package api

import (
	"time"

	"github.com/plazahq/plaza/internal/wiretime"
)

// TimeLayout is RFC 3339 in UTC with milliseconds, the one timestamp format
// of every response (internal/wiretime, shared with the actions' audit
// details and the webhooks' messages).
const TimeLayout = wiretime.Layout

// Timestamp formats t for the wire.
func Timestamp(t time.Time) string { return wiretime.Format(t) }

// OptionalTimestamp formats t, or gives nil (JSON null) when t is nil.
func OptionalTimestamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Timestamp(*t)
	return &s
}
