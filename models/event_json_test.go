package models_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/plazahq/plaza/models"
)

// eventDataCases are bodies a client could send as event_data, with what
// JSON makes hard: escapes, control characters, invalid UTF-8, numbers
// of every form, nesting.
var eventDataCases = []string{
	`{}`,
	`{"path":"/posts/1","load_ms":80,"ok":true,"gone":null}`,
	`{"q":"say \"hi\"\\ \n\r\t\b\f \u0001 \u001f <a>&amp; \u2028\u2029 \ud83d\ude00 caf\u00e9"}`,
	"{\"raw\":\"bad \xff\xfe bytes\",\"k\xffey\":1}",
	`{"n":[0,-0,1.5,-2e10,3E+2,4e-3,12345678901234567890123,0.000001]}`,
	`{"deep":{"a":[{"b":[[],[{}],{"c":"d"}]}],"e":{"f":{"g":[1,"2",false]}}}}`,
	`{"dup":1,"dup":2}`,
}

// TestAppendEventDataMatchesEncodingJSON: what the collector stores reads
// back as the same value encoding/json would have stored.
func TestAppendEventDataMatchesEncodingJSON(t *testing.T) {
	for _, c := range eventDataCases {
		checkEventData(t, []byte(c))
	}
	for _, n := range []json.Number{"1.", "01", "-", "1e", "abc"} {
		if _, err := models.AppendEventData(nil, map[string]any{"n": n}); err == nil {
			t.Errorf("invalid number %q: no error", n)
		}
	}
	if got, err := models.AppendEventData(nil, map[string]any{"f": 1.5, "i": 3}); err != nil || string(got) != `{"f":1.5,"i":3}` && string(got) != `{"i":3,"f":1.5}` {
		t.Errorf("other Go values: %s, %v", got, err)
	}
}

func FuzzAppendEventData(f *testing.F) {
	for _, c := range eventDataCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkEventData)
}

func checkEventData(t *testing.T, body []byte) {
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil || v == nil { // the collector stores no event_data as {}
		return
	}
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := models.AppendEventData(nil, v)
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	if a, b := decoded(t, got), decoded(t, want); !reflect.DeepEqual(a, b) {
		t.Errorf("%q: stored %s, encoding/json %s", body, got, want)
	}
}

func decoded(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s is not JSON: %v", b, err)
	}
	return v
}
