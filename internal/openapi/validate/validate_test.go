package validate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/openapi"
)

type lock struct {
	Type     string   `json:"type" enum:"user,post"`
	ID       string   `json:"id"`
	LockedBy *string  `json:"lockedBy"`
	Tags     []string `json:"tags"`
	Note     string   `json:"note,omitempty"`
}

type envelope[T any] struct {
	Success bool `json:"success"`
	Data    T    `json:"data"`
}

type failure struct {
	Error string `json:"error"`
}

type empty struct{}

func document() openapi.Document {
	rate := []openapi.Header{{Name: "X-RateLimit-Limit", Type: "integer", Required: true}}
	return openapi.Document{
		Title: "Test", Version: "1.2.3",
		Operations: []openapi.Operation{
			{Method: http.MethodGet, Path: "/api/locks/:type/:id", Summary: "One lock",
				Responses: []openapi.Response{
					{Status: 200, Body: envelope[lock]{}, Headers: rate},
					{Status: 404, Body: failure{}},
					{Status: 200, ContentType: "text/html"},
				}},
			{Method: http.MethodPost, Path: "/api/locks", Summary: "Take a lock",
				Responses: []openapi.Response{{Status: 204, Body: empty{}, Headers: rate}}},
			{Method: http.MethodGet, Path: "/static/*", Summary: "Files",
				Responses: []openapi.Response{{Status: 200, ContentType: "text/css"}}},
		},
	}
}

func TestValidatorFindsDrift(t *testing.T) {
	b, err := openapi.Build(document())
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(b)
	if err != nil {
		t.Fatal(err)
	}
	jsonH := func(extra ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json; charset=UTF-8"}}
		for i := 0; i+1 < len(extra); i += 2 {
			h.Set(extra[i], extra[i+1])
		}
		return h
	}
	rated := jsonH("X-RateLimit-Limit", "10")
	const path = "/api/locks/{type}/{id}"
	tests := []struct {
		name   string
		method string
		status int
		header http.Header
		body   string
		want   string // "" when the response matches
	}{
		{"matches", "GET", 200, rated, `{"success":true,"data":{"type":"user","id":"1","lockedBy":null,"tags":[]}}`, ""},
		{"head is its get", "HEAD", 200, rated, ``, ""},
		{"html rendering is not read", "GET", 200, http.Header{"Content-Type": {"text/html"}, "X-Ratelimit-Limit": {"1"}}, `<p>`, ""},
		{"undocumented status", "GET", 418, rated, `{}`, "status 418 is not documented (documented: 200, 404)"},
		{"missing field", "GET", 200, rated, `{"success":true,"data":{"type":"user","id":"1","tags":[]}}`, "missing property 'lockedBy'"},
		{"extra field", "GET", 200, rated, `{"success":true,"data":{"type":"user","id":"1","lockedBy":"a","tags":[],"x":1}}`, "additional properties 'x' not allowed"},
		{"null slice", "GET", 200, rated, `{"success":true,"data":{"type":"user","id":"1","lockedBy":"a","tags":null}}`, "got null, want array"},
		{"enum", "GET", 200, rated, `{"success":true,"data":{"type":"car","id":"1","lockedBy":"a","tags":[]}}`, "value must be one of"},
		{"missing rate header", "GET", 200, jsonH(), `{"success":true,"data":{"type":"user","id":"1","lockedBy":null,"tags":[]}}`, "required headers missing: X-RateLimit-Limit"},
		{"error shape", "GET", 404, jsonH(), `{"error":{"code":"NOT_FOUND"}}`, "got object, want string"},
		{"not json", "GET", 404, jsonH(), `{"error":`, "the body is not JSON"},
		{"empty body", "POST", 204, jsonH("X-RateLimit-Limit", "1"), `{"a":1}`, "maxProperties"},
		{"empty body matches", "POST", 204, jsonH("X-RateLimit-Limit", "1"), `{}`, ""},
		{"undocumented status of a page", "GET", 418, http.Header{"Content-Type": {"text/html"}}, `<p>`, ""},
		{"no JSON documented", "GET", 200, jsonH("X-RateLimit-Limit", "1"), ``, ""},
		{"css is not JSON", "GET", 200, http.Header{"Content-Type": {"text/css"}}, `a{}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := path
			if tt.method == "POST" {
				p = "/api/locks"
			}
			if tt.name == "css is not JSON" {
				p = "/static/{path}"
			}
			var body []byte
			if tt.body != "" {
				body = []byte(tt.body)
			}
			err := v.Check(tt.method, p, tt.status, tt.header, body)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
	if err := v.Check("GET", "/static/{path}", 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{}`)); err == nil ||
		!strings.Contains(err.Error(), "no JSON body") {
		t.Errorf("a JSON body where none is documented: %v", err)
	}
	if !v.Has("POST", "/api/locks") || v.Has("DELETE", "/api/locks") {
		t.Error("Has")
	}
}
