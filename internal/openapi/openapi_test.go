package openapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
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

type lockRequest struct {
	Type string `json:"type" required:"true" enum:"user,post"`
	ID   string `json:"id" required:"true"`
}

type lockQuery struct {
	Limit int    `query:"limit" minimum:"1" maximum:"100" default:"50" description:"rows per page"`
	Order string `query:"order" enum:"asc,desc"`
}

type failure struct {
	Error string `json:"error"`
}

type empty struct{}

func testDocument() Document {
	rate := []Header{{Name: "X-RateLimit-Limit", Type: "integer", Required: true}}
	return Document{
		Title: "Test", Version: "1.2.3",
		Tags:    []Tag{{Name: "locks", Description: "Locks"}},
		Schemes: []Scheme{{Name: "bearer", BearerFormat: "JWT"}, {Name: "session", Cookie: "plaza_session"}},
		Operations: []Operation{
			{Method: http.MethodGet, Path: "/api/locks/:type/:id", Tag: "locks", Summary: "One lock", Query: lockQuery{},
				PathParams: map[string]string{"type": "the kind of resource"},
				Responses: []Response{
					{Status: 200, Body: envelope[lock]{}, Headers: rate},
					{Status: 404, Body: failure{}},
					{Status: 200, ContentType: "text/html"},
				},
				Security: [][]string{{"bearer"}, {"session"}}},
			{Method: http.MethodPost, Path: "/api/locks", Tag: "locks", Summary: "Take a lock", Body: lockRequest{},
				Responses: []Response{{Status: 201, Body: envelope[[]lock]{}}, {Status: 204, Body: empty{}, Headers: rate}}},
			{Method: http.MethodGet, Path: "/static/*", Tag: "locks", Summary: "Files",
				Responses: []Response{{Status: 200, ContentType: "text/css"}}},
		},
	}
}

func build(t *testing.T) map[string]any {
	t.Helper()
	b, err := Build(testDocument())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at walks doc along a slash-separated path of keys.
func at(t *testing.T, doc any, path string) any {
	t.Helper()
	for _, k := range strings.Split(path, "|") {
		m, ok := doc.(map[string]any)
		if !ok {
			t.Fatalf("%s: %q is not in an object", path, k)
		}
		doc = m[k]
	}
	return doc
}

func TestBuildFollowsPlazaConventions(t *testing.T) {
	doc := build(t)
	if got := at(t, doc, "openapi"); got != "3.1.0" {
		t.Errorf("openapi %v", got)
	}
	op := "paths|/api/locks/{type}/{id}|get"
	if got := at(t, doc, op+"|operationId"); got != "get_api_locks_type_id" {
		t.Errorf("operationId %v", got)
	}
	params, _ := at(t, doc, op+"|parameters").([]any)
	var names []string
	for _, p := range params {
		names = append(names, p.(map[string]any)["in"].(string)+":"+p.(map[string]any)["name"].(string))
	}
	if want := []string{"query:limit", "query:order", "path:type", "path:id"}; !reflect.DeepEqual(names, want) {
		t.Errorf("parameters %v, want %v", names, want)
	}
	lock := at(t, doc, "components|schemas|lock")
	if got := at(t, lock, "required"); !reflect.DeepEqual(got, []any{"type", "id", "lockedBy", "tags"}) {
		t.Errorf("lock required %v: every field without omitempty", got)
	}
	if got := at(t, lock, "additionalProperties"); got != false {
		t.Errorf("lock additionalProperties %v, want false", got)
	}
	if got := at(t, lock, "properties|tags|type"); got != "array" {
		t.Errorf("tags type %v, want array (never null)", got)
	}
	if got := at(t, lock, "properties|lockedBy|type"); !reflect.DeepEqual(got, []any{"null", "string"}) {
		t.Errorf("lockedBy type %v, want string or null", got)
	}
	if got := at(t, doc, "components|schemas|lockRequest|required"); !reflect.DeepEqual(got, []any{"type", "id"}) {
		t.Errorf("request required %v: only what is tagged required", got)
	}
	for _, name := range []string{"envelope_lock", "envelope_lockList"} {
		if at(t, doc, "components|schemas|"+name) == nil {
			t.Errorf("no schema %s for the generic envelope", name)
		}
	}
	if got := at(t, doc, op+"|responses|200|headers|X-RateLimit-Limit|required"); got != true {
		t.Errorf("rate header required %v", got)
	}
	if at(t, doc, op+"|responses|200|content|text/html") == nil || at(t, doc, op+"|responses|200|content|application/json") == nil {
		t.Errorf("200 should offer JSON and HTML: %v", at(t, doc, op+"|responses|200|content"))
	}
	if got := at(t, doc, "paths|/api/locks|post|responses|204|content|application/json|schema|maxProperties"); got != float64(0) {
		t.Errorf("empty body schema: %v", got)
	}
	if at(t, doc, "paths|/api/locks|post|responses|204|headers|X-RateLimit-Limit") == nil {
		t.Error("an empty body lost its headers")
	}
	if got := at(t, doc, op+"|x-forbid-unknown-query"); got != nil {
		t.Errorf("x-forbid-unknown-query %v: unknown query parameters are ignored, not refused", got)
	}
	if at(t, doc, "paths|/static/{path}|get") == nil {
		t.Error("the wildcard route is not /static/{path}")
	}
	if got := at(t, doc, "components|securitySchemes|session|in"); got != "cookie" {
		t.Errorf("session scheme in %v", got)
	}
	if got := at(t, doc, op+"|security"); !reflect.DeepEqual(got, []any{map[string]any{"bearer": []any{}}, map[string]any{"session": []any{}}}) {
		t.Errorf("security %v", got)
	}
}

func TestPathOf(t *testing.T) {
	for pattern, want := range map[string]string{
		"/api/health":                   "/api/health",
		"/api/v1/admin/locks/:type/:id": "/api/v1/admin/locks/{type}/{id}",
		"/static/*":                     "/static/{path}",
	} {
		if got, _ := PathOf(pattern); got != want {
			t.Errorf("PathOf(%q) = %q, want %q", pattern, got, want)
		}
	}
}

type banRequest struct {
	Action string   `json:"action" required:"true" enum:"ban,unban"`
	Reason string   `json:"reason,omitempty" requiredWhen:"action=ban"`
	Notes  *string  `json:"notes,omitempty"`
	Until  *string  `json:"until,omitempty" nullable:"true"`
	_      struct{} `minProperties:"1"`
}

// TestRequestsAndMedia covers what request bodies and non-JSON answers
// get: a server, an explicit empty security list on a public operation,
// bodies required unless optional, requiredWhen as an if/then, pointers
// not nullable unless tagged, minProperties, and a media type's schema.
func TestRequestsAndMedia(t *testing.T) {
	d := Document{Title: "Test", Version: "1", Servers: []Server{{URL: "/", Description: "here"}},
		Operations: []Operation{
			{Method: http.MethodPost, Path: "/api/bans", Summary: "Ban", Body: banRequest{},
				Responses: []Response{{Status: 200, ContentType: "image/png", Schema: map[string]any{"type": "string", "format": "binary"}}},
				Security:  [][]string{{"bearer"}}},
			{Method: http.MethodPut, Path: "/api/bans/:id", Summary: "Lift", Body: lockRequest{}, BodyOptional: true,
				Responses: []Response{{Status: 200, ContentType: "text/csv"}}},
		}}
	b, err := Build(d)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got := at(t, doc, "servers"); !reflect.DeepEqual(got, []any{map[string]any{"url": "/", "description": "here"}}) {
		t.Errorf("servers %v", got)
	}
	post, del := "paths|/api/bans|post", "paths|/api/bans/{id}|put"
	if got, ok := at(t, doc, del+"|security").([]any); !ok || len(got) != 0 {
		t.Errorf("a public operation's security is %v, want []", at(t, doc, del+"|security"))
	}
	if got := at(t, doc, post+"|security"); !reflect.DeepEqual(got, []any{map[string]any{"bearer": []any{}}}) {
		t.Errorf("security %v", got)
	}
	if at(t, doc, post+"|requestBody|required") != true || at(t, doc, del+"|requestBody|required") != false {
		t.Errorf("required bodies: post %v, put %v", at(t, doc, post+"|requestBody|required"), at(t, doc, del+"|requestBody|required"))
	}
	ban := at(t, doc, "components|schemas|banRequest")
	if got := at(t, ban, "if"); !reflect.DeepEqual(got, map[string]any{"required": []any{"action"},
		"properties": map[string]any{"action": map[string]any{"const": "ban"}}}) {
		t.Errorf("if %v", got)
	}
	if got := at(t, ban, "then|required"); !reflect.DeepEqual(got, []any{"reason"}) {
		t.Errorf("then %v", at(t, ban, "then"))
	}
	if got := at(t, ban, "minProperties"); got != float64(1) {
		t.Errorf("minProperties %v", got)
	}
	if got := at(t, ban, "properties|notes|type"); got != "string" {
		t.Errorf("a request pointer's type is %v, want string (not nullable)", got)
	}
	if got := at(t, ban, "properties|until|type"); !reflect.DeepEqual(got, []any{"null", "string"}) {
		t.Errorf("a pointer tagged nullable is %v", got)
	}
	if got := at(t, doc, post+"|responses|200|content|image/png|schema|format"); got != "binary" {
		t.Errorf("png schema format %v", got)
	}
	if got := at(t, doc, del+"|responses|200|content|text/csv|schema|type"); got != "string" {
		t.Errorf("a media type without a schema is %v, want a string", got)
	}
}
