package analytics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// event builds a single-event body; "" fields are left out.
func event(typ, data, ts string) string {
	var parts []string
	if typ != "" {
		parts = append(parts, `"event_type":`+typ)
	}
	if data != "" {
		parts = append(parts, `"event_data":`+data)
	}
	if ts != "" {
		parts = append(parts, `"timestamp":`+ts)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func batchOf(events ...string) string { return `{"events":[` + strings.Join(events, ",") + `]}` }

func TestParseRefuses(t *testing.T) {
	ok := event(`"page_view"`, `{"path":"/"}`, "")
	big := `{"x":"` + strings.Repeat("a", MaxDataBytes-7) + `"}` // {"x":""} is 8 bytes: MaxDataBytes+1 in all
	hundredOne := make([]string, 101)
	for i := range hundredOne {
		hundredOne[i] = ok
	}
	tests := []struct {
		name      string
		body      string
		malformed bool
		want      []Issue // every issue, in order
	}{
		{"not JSON", `{"event_type":`, true, []Issue{{"", "body is not valid JSON"}}},
		{"trailing garbage", ok + `x`, true, []Issue{{"", "body is not valid JSON"}}},
		{"empty body", ``, true, []Issue{{"", "body is not valid JSON"}}},
		{"array body", `[` + ok + `]`, false, []Issue{{"", `body must be a JSON object: one event or {"events": [...]}`}}},
		{"null body", `null`, false, []Issue{{"", `body must be a JSON object: one event or {"events": [...]}`}}},
		{"event_type missing", event("", `{}`, ""), false, []Issue{{"event_type", "event_type is required"}}},
		{"event_type not a string", event(`7`, `{}`, ""), false, []Issue{{"event_type", "event_type must be a string"}}},
		{"event_type unknown", event(`"purchase"`, `{}`, ""), false, []Issue{{"event_type", "event_type must be one of " + strings.Join(Types, ", ")}}},
		{"event_type wrong case", event(`"PAGE_VIEW"`, `{}`, ""), false, []Issue{{"event_type", "event_type must be one of " + strings.Join(Types, ", ")}}},
		{"event_data missing", event(`"click"`, "", ""), false, []Issue{{"event_data", "event_data is required"}}},
		{"event_data a string", event(`"click"`, `"{\"a\":1}"`, ""), false, []Issue{{"event_data", "event_data must be an object"}}},
		{"event_data null", event(`"click"`, `null`, ""), false, []Issue{{"event_data", "event_data must be an object"}}},
		{"event_data an array", event(`"click"`, `[1]`, ""), false, []Issue{{"event_data", "event_data must be an object"}}},
		{"event_data over 8 KiB", event(`"click"`, big, ""), false, []Issue{{"event_data", "event_data must be at most 8192 bytes serialised"}}},
		{"event_data with NUL", event(`"click"`, `{"a":{"b":["x\u0000y"]}}`, ""), false, []Issue{{"event_data.a.b.0", "event_data must not contain the NUL character (\\u0000)"}}},
		{"timestamp not a string", event(`"click"`, `{}`, `1732269600`), false, []Issue{{"timestamp", "timestamp must be a string"}}},
		{"timestamp not a date", event(`"click"`, `{}`, `"yesterday"`), false, []Issue{{"timestamp", "timestamp must be an ISO 8601 date-time with a time zone (RFC 3339), e.g. 2026-11-22T10:15:30.250Z"}}},
		{"timestamp without zone", event(`"click"`, `{}`, `"2026-11-22T09:00:00"`), false, []Issue{{"timestamp", "timestamp must be an ISO 8601 date-time with a time zone (RFC 3339), e.g. 2026-11-22T10:15:30.250Z"}}},
		{"timestamp date only", event(`"click"`, `{}`, `"2026-11-22"`), false, []Issue{{"timestamp", "timestamp must be an ISO 8601 date-time with a time zone (RFC 3339), e.g. 2026-11-22T10:15:30.250Z"}}},
		{"timestamp too far ahead", event(`"click"`, `{}`, `"2026-11-22T10:05:01Z"`), false, []Issue{{"timestamp", "timestamp must not be more than 5 minutes in the future"}}},
		{"timestamp too old", event(`"click"`, `{}`, `"2026-08-23T09:59:59Z"`), false, []Issue{{"timestamp", "timestamp must not be older than 90 days"}}},
		{"unknown field", `{"event_type":"click","event_data":{},"page":"/"}`, false, []Issue{{"page", `unknown field "page"; an event has event_type, event_data and timestamp`}}},
		{"several problems at once", event(`"nope"`, `"x"`, `"soon"`), false, []Issue{
			{"event_type", "event_type must be one of " + strings.Join(Types, ", ")},
			{"event_data", "event_data must be an object"},
			{"timestamp", "timestamp must be an ISO 8601 date-time with a time zone (RFC 3339), e.g. 2026-11-22T10:15:30.250Z"}}},
		{"events not an array", `{"events":{}}`, false, []Issue{{"events", "events must be an array of event objects"}}},
		{"events null", `{"events":null}`, false, []Issue{{"events", "events must be an array of event objects"}}},
		{"empty batch", `{"events":[]}`, false, []Issue{{"events", "events must hold 1 to 100 events, not 0"}}},
		{"101 events", batchOf(hundredOne...), false, []Issue{{"events", "events must hold 1 to 100 events, not 101"}}},
		{"batch with other fields", `{"events":[` + ok + `],"event_type":"click"}`, false, []Issue{{"event_type", `unknown field "event_type": a batch holds only events`}}},
		{"batch item not an object", batchOf(ok, `"click"`), false, []Issue{{"events.1", "each event must be an object"}}},
		{"batch names each bad path", batchOf(ok, event(`"scroll"`, `[]`, ""), ok, event("", `{}`, `"2020-01-01T00:00:00Z"`)), false, []Issue{
			{"events.1.event_data", "event_data must be an object"},
			{"events.3.event_type", "event_type is required"},
			{"events.3.timestamp", "timestamp must not be older than 90 days"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, _, err := Parse([]byte(tt.body), now)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %d events and error %v, want a ValidationError", len(events), err)
			}
			if ve.Malformed != tt.malformed {
				t.Errorf("Malformed = %v, want %v", ve.Malformed, tt.malformed)
			}
			if fmt.Sprint(ve.Issues) != fmt.Sprint(tt.want) {
				t.Errorf("issues\n got %q\nwant %q", ve.Issues, tt.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantBatch bool
		wantTypes []string
		wantAt    []time.Time
	}{
		{"single without timestamp", event(`"page_view"`, `{"path":"/posts"}`, ""), false, []string{"page_view"}, []time.Time{now}},
		{"null timestamp is server time", event(`"click"`, `{}`, `null`), false, []string{"click"}, []time.Time{now}},
		{"offset timestamp", event(`"scroll"`, `{"depth":50}`, `"2026-11-22T11:59:00.123456789+02:00"`), false,
			[]string{"scroll"}, []time.Time{time.Date(2026, 11, 22, 9, 59, 0, 123456000, time.UTC)}},
		{"5 minutes ahead", event(`"click"`, `{}`, `"2026-11-22T10:05:00Z"`), false, []string{"click"}, []time.Time{now.Add(5 * time.Minute)}},
		{"90 days old", event(`"click"`, `{}`, `"2026-08-24T10:00:00Z"`), false, []string{"click"}, []time.Time{now.Add(-MaxAge)}},
		{"data exactly 8 KiB", event(`"click"`, `{"x":"`+strings.Repeat("a", MaxDataBytes-8)+`"}`, ""), false, []string{"click"}, []time.Time{now}},
		{"whitespace does not count", event(`"click"`, `{ "x" :  "`+strings.Repeat("a", MaxDataBytes-8)+`" }`, ""), false, []string{"click"}, []time.Time{now}},
		{"batch of every type", batchOf(func() []string {
			var out []string
			for _, typ := range Types {
				out = append(out, event(`"`+typ+`"`, `{}`, ""))
			}
			return out
		}()...), true, Types, func() []time.Time {
			out := make([]time.Time, len(Types))
			for i := range out {
				out[i] = now
			}
			return out
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, batch, err := Parse([]byte(tt.body), now)
			if err != nil {
				t.Fatal(err)
			}
			if batch != tt.wantBatch || len(events) != len(tt.wantTypes) {
				t.Fatalf("batch %v with %d events, want %v with %d", batch, len(events), tt.wantBatch, len(tt.wantTypes))
			}
			for i, e := range events {
				if e.Type != tt.wantTypes[i] || !e.OccurredAt.Equal(tt.wantAt[i]) || e.OccurredAt.Location() != time.UTC || e.Data == nil {
					t.Errorf("event %d: %s at %v (%v), want %s at %v", i, e.Type, e.OccurredAt, e.Data, tt.wantTypes[i], tt.wantAt[i])
				}
			}
		})
	}
}

func TestParseKeepsNumbers(t *testing.T) {
	events, _, err := Parse([]byte(event(`"click"`, `{"big":12345678901234567890,"f":0.1,"nested":{"ok":true}}`, "")), now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(events[0].Data)
	if want := `{"big":12345678901234567890,"f":0.1,"nested":{"ok":true}}`; string(b) != want {
		t.Errorf("re-encoded %s, want %s", b, want)
	}
}

func TestParseBoundsIssues(t *testing.T) {
	bad := make([]string, MaxBatch)
	for i := range bad {
		bad[i] = `{"event_type":1,"event_data":2,"timestamp":3}`
	}
	_, _, err := Parse([]byte(batchOf(bad...)), now)
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Issues) != maxIssues+1 || !strings.Contains(ve.Issues[maxIssues].Message, "200 more problems") {
		t.Errorf("got %d issues (%v), want %d and a count of the rest", len(ve.Issues), err, maxIssues+1)
	}
}

// FuzzParse: no input panics, and accepted events always satisfy the schema.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		event(`"page_view"`, `{"path":"/"}`, `"2026-11-22T09:00:00Z"`),
		batchOf(event(`"click"`, `{}`, ""), event(`"scroll"`, `{"a":[1,2,{"b":null}]}`, "")),
		`{"events":[1,"x",null]}`, `[]`, `{"event_data":"\u0000"}`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		events, batch, err := Parse(body, now)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Issues) == 0 {
				t.Fatalf("error %v is not a ValidationError with issues", err)
			}
			return
		}
		if len(events) == 0 || len(events) > MaxBatch || (!batch && len(events) != 1) {
			t.Fatalf("%d events (batch %v)", len(events), batch)
		}
		for _, e := range events {
			if n := compactSize(e.Data); n != encodedSize(e.Data, 1<<30) {
				t.Fatalf("encodedSize %d, encoding/json %d for %v", encodedSize(e.Data, 1<<30), n, e.Data)
			}
			if e.Data == nil || compactSize(e.Data) > MaxDataBytes || e.OccurredAt.After(now.Add(MaxFutureSkew)) || e.OccurredAt.Before(now.Add(-MaxAge)) {
				t.Fatalf("accepted a bad event %+v", e)
			}
		}
	})
}

// compactSize is the length of encoding/json's compact encoding of v
// without HTML escaping: what encodedSize computes without encoding.
func compactSize(v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Len() - 1 // the newline Encode adds
}

func TestEncodedSize(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":null,"b":true,"c":false,"d":-1.5e10,"e":12345678901234567890}`,
		`{"quote\"s":"back\\slash \n\r\t\b\f \u0001 \u001f"}`,
		`{"html":"<a href='x'>&amp;</a>","ls":"\u2028\u2029","uni":"日本語 émoji 🎉","bad":"\ud800"}`,
		`{"deep":{"a":[1,{"b":[2,3,{"c":"d"}]}],"e":{}}}`,
	} {
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if got, want := encodedSize(v, 1<<20), compactSize(v); got != want {
			t.Errorf("encodedSize(%s) = %d, want %d", doc, got, want)
		}
	}
}

// BenchmarkParse parses a browser-like batch of 10 events.
func BenchmarkParse(b *testing.B) {
	events := make([]string, 10)
	for i := range events {
		events[i] = fmt.Sprintf(`{"event_type":"page_view","event_data":{"path":"/posts/%d","referrer":"https://example.com/","session_id":"tab","load_ms":%d},"timestamp":"2026-11-22T09:59:00.123Z"}`, i, 80+i)
	}
	body := []byte(batchOf(events...))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(body, now); err != nil {
			b.Fatal(err)
		}
	}
}
