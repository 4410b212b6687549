package handlers

import (
	"net/url"
	"testing"
)

// TestQueryParamMatchesParseQuery checks queryParam against the standard
// library's reading of the same query strings.
func TestQueryParamMatchesParseQuery(t *testing.T) {
	for _, raw := range []string{
		"", "seed=ada", "seed=ada&size=300", "size=300&seed=ada&seed=bob", "seed=a%20b+c", "se%65d=ada",
		"seed=%zz&seed=ok", "seed;x=1&seed=ok", "seed", "seed=", "&&seed=ada&", "seed=%F0%9F%98%80", "x=1&seed=a=b",
	} {
		q, _ := url.ParseQuery(raw)
		for _, name := range []string{"seed", "size", "x"} {
			if got, want := queryParam(raw, name), q.Get(name); got != want {
				t.Errorf("queryParam(%q, %q) = %q, want %q", raw, name, got, want)
			}
		}
	}
}

func FuzzQueryParam(f *testing.F) {
	f.Add("seed=a%20b&size=3")
	f.Fuzz(func(t *testing.T, raw string) {
		q, _ := url.ParseQuery(raw)
		if got, want := queryParam(raw, "seed"), q.Get("seed"); got != want {
			t.Errorf("queryParam(%q) = %q, want %q", raw, got, want)
		}
	})
}
