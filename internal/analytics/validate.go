// Package analytics is Plaza's event ingest engine (docs/performance.md, "Analytics
// ingestion"): it validates the bodies of POST /api/analytics/collect, turns
// visitors' IP addresses into keyed hashes under a daily key, and writes
// events through a group-commit Batcher. It knows nothing of HTTP or of the
// database: the store and the key source are interfaces declared here.
package analytics

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of an analytics request and its events.
const (
	MaxBodyBytes  = 256 << 10 // a request body; larger is refused before parsing
	MaxBatch      = 100       // events in one {events:[…]} request
	MaxDataBytes  = 8 << 10   // event_data serialised without insignificant whitespace
	MaxFutureSkew = 5 * time.Minute
	MaxAge        = 90 * 24 * time.Hour
	// maxIssues bounds the details of one refusal: a 256 KiB body could
	// otherwise name thousands of problems.
	maxIssues = 100
)

// Types are the accepted event_type values; any other is a 400.
var Types = []string{
	"page_view", "button_click", "form_submit", "error_encountered",
	"feature_used", "scroll", "click", "test_event",
}

// Input is one valid event as the client sent it.
type Input struct {
	Type string
	// Data is event_data decoded with json.Number for numbers, so that it
	// serialises back without losing precision.
	Data map[string]any
	// OccurredAt is the client's timestamp, or the server's time when the
	// client sent none; UTC, microsecond precision.
	OccurredAt time.Time
}

// Issue is one problem with a body: the JSON path of the offending value
// ("events.3.event_type"; "" for the body itself) and what is wrong with it.
type Issue struct {
	Path    string
	Message string
}

// ValidationError lists every problem found in a body. Malformed is set
// when the body is not JSON at all.
type ValidationError struct {
	Malformed bool
	Issues    []Issue
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid analytics events:")
	for _, is := range e.Issues {
		fmt.Fprintf(&b, " %s: %s;", cmp.Or(is.Path, "(body)"), is.Message)
	}
	return b.String()
}

// Parse validates a collect body: one event {event_type, event_data,
// timestamp?} or a batch {events:[…]} of 1 to MaxBatch events. now is the
// server's time: it stands for a missing timestamp and bounds the accepted
// ones. The caller enforces MaxBodyBytes before reading. On failure the
// error is a *ValidationError naming every bad path.
//
// The body is decoded once (numbers kept as json.Number); the checks walk
// the decoded tree.
func Parse(body []byte, now time.Time) (events []Input, batch bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil || dec.InputOffset() != int64(len(bytes.TrimRight(body, " \t\r\n"))) {
		return nil, false, &ValidationError{Malformed: true, Issues: []Issue{{"", "body is not valid JSON"}}}
	}
	v := &validator{now: now.UTC()}
	top, ok := doc.(map[string]any)
	if !ok {
		v.add("", "body must be a JSON object: one event or {\"events\": [...]}")
		return nil, false, v.err()
	}
	raw, batch := top["events"]
	if !batch {
		in := v.event("", top)
		if err := v.err(); err != nil {
			return nil, false, err
		}
		return []Input{in}, false, nil
	}
	for _, k := range sortedKeys(top) {
		if k != "events" {
			v.add(k, "unknown field "+strconv.Quote(k)+": a batch holds only events")
		}
	}
	items, ok := raw.([]any)
	if !ok {
		v.add("events", "events must be an array of event objects")
		return nil, true, v.err()
	}
	if len(items) == 0 || len(items) > MaxBatch {
		v.add("events", fmt.Sprintf("events must hold 1 to %d events, not %d", MaxBatch, len(items)))
		return nil, true, v.err()
	}
	events = make([]Input, 0, len(items))
	for i, item := range items {
		path := "events." + strconv.Itoa(i)
		fields, ok := item.(map[string]any)
		if !ok {
			v.add(path, "each event must be an object")
			continue
		}
		events = append(events, v.event(path+".", fields))
	}
	if err := v.err(); err != nil {
		return nil, true, err
	}
	return events, true, nil
}

type validator struct {
	now    time.Time
	issues []Issue
	more   int
}

func (v *validator) add(path, msg string) {
	if len(v.issues) < maxIssues {
		v.issues = append(v.issues, Issue{path, msg})
	} else {
		v.more++
	}
}

func (v *validator) err() error {
	if len(v.issues) == 0 {
		return nil
	}
	issues := v.issues
	if v.more > 0 {
		issues = append(issues, Issue{"", fmt.Sprintf("%d more problems not listed", v.more)})
	}
	return &ValidationError{Issues: issues}
}

// eventFields are the fields an event may carry.
var eventFields = []string{"event_type", "event_data", "timestamp"}

// event checks one event's fields; prefix is "" or "events.N.".
func (v *validator) event(prefix string, f map[string]any) Input {
	var in Input
	if len(f) > 3 || !hasOnly(f, eventFields) {
		for _, k := range sortedKeys(f) {
			if !slices.Contains(eventFields, k) {
				v.add(prefix+k, "unknown field "+strconv.Quote(k)+"; an event has event_type, event_data and timestamp")
			}
		}
	}
	typ, ok := f["event_type"]
	in.Type = v.eventType(prefix, typ, ok)
	data, ok := f["event_data"]
	in.Data = v.eventData(prefix, data, ok)
	in.OccurredAt = v.timestamp(prefix, f["timestamp"])
	return in
}

func hasOnly(f map[string]any, allowed []string) bool {
	for k := range f {
		if !slices.Contains(allowed, k) {
			return false
		}
	}
	return true
}

// The checks of one field take the event's path prefix and build the
// field's path only for an issue: valid events cost no path strings.

func (v *validator) eventType(prefix string, val any, present bool) string {
	path := func() string { return prefix + "event_type" }
	if !present {
		v.add(path(), "event_type is required")
		return ""
	}
	s, ok := val.(string)
	if !ok {
		v.add(path(), "event_type must be a string")
		return ""
	}
	if !slices.Contains(Types, s) {
		v.add(path(), "event_type must be one of "+strings.Join(Types, ", "))
		return ""
	}
	return s
}

func (v *validator) eventData(prefix string, val any, present bool) map[string]any {
	path := func() string { return prefix + "event_data" }
	if !present {
		v.add(path(), "event_data is required")
		return nil
	}
	data, ok := val.(map[string]any)
	if !ok {
		v.add(path(), "event_data must be an object")
		return nil
	}
	if n := encodedSize(data, MaxDataBytes+1); n > MaxDataBytes {
		v.add(path(), fmt.Sprintf("event_data must be at most %d bytes serialised", MaxDataBytes))
		return nil
	}
	// PostgreSQL's jsonb cannot hold U+0000; refusing it here keeps one
	// event from failing the group commit it would share with others.
	if hasNUL(data) {
		walkStrings(data, path(), func(p string) { v.add(p, "event_data must not contain the NUL character (\\u0000)") })
	}
	return data
}

// timestampLayout is RFC 3339 (the ISO 8601 profile with a mandatory
// offset); fractional seconds of any length are accepted by time.Parse.
const timestampLayout = time.RFC3339

func (v *validator) timestamp(prefix string, val any) time.Time {
	path := func() string { return prefix + "timestamp" }
	if val == nil { // absent or null
		return v.now.Truncate(time.Microsecond)
	}
	s, ok := val.(string)
	if !ok {
		v.add(path(), "timestamp must be a string")
		return time.Time{}
	}
	t, err := time.Parse(timestampLayout, s)
	if err != nil {
		v.add(path(), "timestamp must be an ISO 8601 date-time with a time zone (RFC 3339), e.g. 2026-11-22T10:15:30.250Z")
		return time.Time{}
	}
	switch {
	case t.After(v.now.Add(MaxFutureSkew)):
		v.add(path(), "timestamp must not be more than 5 minutes in the future")
	case t.Before(v.now.Add(-MaxAge)):
		v.add(path(), "timestamp must not be older than 90 days")
	}
	return t.UTC().Truncate(time.Microsecond)
}

// encodedSize is the length of v as compact JSON with minimal escaping
// (quotes, backslashes, control characters, U+2028 and U+2029), the form
// the limit on event_data is measured in; it stops counting past limit.
func encodedSize(v any, limit int) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case json.Number:
		return len(x)
	case string:
		return stringSize(x)
	case []any:
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			if n += encodedSize(e, limit-n); n > limit {
				return n
			}
		}
		return n
	case map[string]any:
		n := 2 + max(len(x)-1, 0)
		for k, e := range x {
			if n += stringSize(k) + 1 + encodedSize(e, limit-n); n > limit {
				return n
			}
		}
		return n
	}
	return 0
}

func stringSize(s string) int {
	n := 2
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
			n += 2
		case r < 0x20 || r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// hasNUL reports whether any key or string in v holds a NUL character.
func hasNUL(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.IndexByte(x, 0) >= 0
	case map[string]any:
		for k, e := range x {
			if strings.IndexByte(k, 0) >= 0 || hasNUL(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNUL(e) {
				return true
			}
		}
	}
	return false
}

// walkStrings calls bad with the path of every key or string value that
// holds a NUL character.
func walkStrings(v any, path string, bad func(path string)) {
	switch x := v.(type) {
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			bad(path)
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			p := path + "." + k
			if strings.IndexByte(k, 0) >= 0 {
				bad(path)
				continue
			}
			walkStrings(x[k], p, bad)
		}
	case []any:
		for i, e := range x {
			walkStrings(e, path+"."+strconv.Itoa(i), bad)
		}
	}
}
