package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// fuller are the operations whose sample cut down to its required fields
// is refused for reasons no schema can state, with the reason.
var fuller = map[string]string{
	"POST /api/auth/2fa/setup": "an account with a password must send it; one that signs in only through a provider sends none",
}

// TestRequestBodiesFollowValidators holds what the document says a
// request body needs to what its handler refuses, for every JSON body
// outside the console (whose pages share the API routes' handlers and
// types), from each operation's sample in openapi_test.go: no body where
// the body is required, each required field taken away (and each field a
// condition requires, when the sample meets the condition), and an empty
// object where at least one field is asked for, are each refused as
// invalid input naming the field; the sample cut down to what the
// document requires succeeds as the whole sample does.
func TestRequestBodiesFollowValidators(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		e := newSampleEnv(t, db)
		raw, err := web.OpenAPI(e.app.Deps)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		checked := 0
		for path, item := range doc["paths"].(map[string]any) {
			for method, o := range item.(map[string]any) {
				op := o.(map[string]any)
				rb, ok := op["requestBody"].(map[string]any)
				if !ok || slices.Contains(op["tags"].([]any), any("Console")) || !takesJSON(rb) {
					continue
				}
				name := strings.ToUpper(method) + " " + path
				t.Run(name, func(t *testing.T) {
					checkBody(t, e, doc, name, op, rb)
				})
				checked++
			}
		}
		if checked < 25 {
			t.Fatalf("only %d request bodies checked", checked)
		}
	})
}

func checkBody(t *testing.T, e sampleEnv, doc map[string]any, name string, op, rb map[string]any) {
	sample, ok := samples[name]
	if !ok {
		t.Fatalf("no sample for %s", name)
	}
	s := sample(t, e)
	method, _, _ := strings.Cut(name, " ")
	invalid := http.StatusUnprocessableEntity
	if _, ok := op["responses"].(map[string]any)["422"]; !ok {
		invalid = http.StatusBadRequest
	}
	send := func(body string) (int, any) {
		res := apptest.DoBody(t, e.app, method, s.target, s.header, body)
		var out any
		json.Unmarshal(res.Body.Bytes(), &out)
		return res.Code, out
	}
	if rb["required"] == true {
		if code, _ := send(""); code != invalid {
			t.Errorf("no body: got %d, want %d", code, invalid)
		}
	}
	if s.body == "" {
		if rb["required"] == true {
			t.Fatalf("the sample sends no body, but the document requires one")
		}
		return
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(s.body), &body); err != nil {
		t.Fatalf("the sample's body is not an object: %v", err)
	}
	schema := resolve(doc, rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
	schema = branch(doc, schema, body)
	for _, path := range needed(doc, schema, body, nil) {
		code, out := send(marshal(t, without(body, path)))
		if code != invalid || !mentions(out, path) {
			t.Errorf("without %s: got %d %v, want %d naming it", strings.Join(path, "."), code, out, invalid)
		}
	}
	for _, path := range atLeastOne(doc, schema, body, nil) {
		code, out := send(marshal(t, emptied(body, path)))
		if code != invalid || len(path) > 0 && !mentions(out, path) {
			t.Errorf("%s emptied: got %d %v, want %d", "/"+strings.Join(path, "."), code, out, invalid)
		}
	}
	if why, ok := fuller[name]; ok {
		t.Logf("the cut-down body is not sent: %s", why)
		return
	}
	least := minimal(doc, schema, body)
	if code, out := send(marshal(t, least)); code != s.status {
		t.Errorf("only what the document requires, %v: got %d %v, want %d", least, code, out, s.status)
	}
}

// resolve follows a local $ref.
func resolve(doc, schema map[string]any) map[string]any {
	ref, ok := schema["$ref"].(string)
	if !ok {
		return schema
	}
	var cur any = doc
	for _, k := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = cur.(map[string]any)[k]
	}
	return cur.(map[string]any)
}

// branch picks the alternative of a oneOf whose properties hold every
// field of body.
func branch(doc, schema, body map[string]any) map[string]any {
	alts, ok := schema["oneOf"].([]any)
	if !ok {
		return schema
	}
	for _, a := range alts {
		alt := resolve(doc, a.(map[string]any))
		props, _ := alt["properties"].(map[string]any)
		fits := true
		for k := range body {
			fits = fits && props[k] != nil
		}
		if fits {
			return alt
		}
	}
	return schema
}

// requiredOf is what schema requires of body: its required list, and its
// then's when body meets its if (a const on one field).
func requiredOf(schema, body map[string]any) []string {
	var out []string
	for _, r := range asList(schema["required"]) {
		out = append(out, r.(string))
	}
	cond, _ := schema["if"].(map[string]any)
	then, _ := schema["then"].(map[string]any)
	if cond == nil || then == nil {
		return out
	}
	for field, p := range cond["properties"].(map[string]any) {
		if body[field] != p.(map[string]any)["const"] {
			return out
		}
	}
	for _, r := range asList(then["required"]) {
		out = append(out, r.(string))
	}
	return out
}

// needed lists the paths of the fields body cannot do without, nested
// objects included.
func needed(doc, schema, body map[string]any, at []string) [][]string {
	var out [][]string
	for _, name := range requiredOf(schema, body) {
		path := append(slices.Clone(at), name)
		out = append(out, path)
		if sub, ok := body[name].(map[string]any); ok {
			out = append(out, needed(doc, property(doc, schema, name), sub, path)...)
		}
	}
	return out
}

// atLeastOne lists the paths of the objects that need at least one field.
func atLeastOne(doc, schema, body map[string]any, at []string) [][]string {
	var out [][]string
	if n, _ := schema["minProperties"].(float64); n > 0 {
		out = append(out, slices.Clone(at))
	}
	for name, v := range body {
		if sub, ok := v.(map[string]any); ok {
			out = append(out, atLeastOne(doc, property(doc, schema, name), sub, append(slices.Clone(at), name))...)
		}
	}
	return out
}

// minimal is body cut down to what schema requires: the required fields
// (their objects cut down too), and where an object needs some fields,
// that many of those it has, in name order.
func minimal(doc, schema, body map[string]any) map[string]any {
	out := map[string]any{}
	keep := func(name string) {
		if sub, ok := body[name].(map[string]any); ok {
			out[name] = minimal(doc, property(doc, schema, name), sub)
		} else {
			out[name] = body[name]
		}
	}
	for _, name := range requiredOf(schema, body) {
		keep(name)
	}
	names := make([]string, 0, len(body))
	for name := range body {
		names = append(names, name)
	}
	slices.Sort(names)
	n, _ := schema["minProperties"].(float64)
	for _, name := range names {
		if len(out) >= int(n) {
			break
		}
		keep(name)
	}
	return out
}

func property(doc, schema map[string]any, name string) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	if p == nil {
		return map[string]any{}
	}
	return resolve(doc, p)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// without is a deep copy of body lacking the field at path.
func without(body map[string]any, path []string) map[string]any {
	out := copyObject(body)
	cur := out
	for _, k := range path[:len(path)-1] {
		cur = cur[k].(map[string]any)
	}
	delete(cur, path[len(path)-1])
	return out
}

// emptied is a deep copy of body with the object at path emptied.
func emptied(body map[string]any, path []string) map[string]any {
	if len(path) == 0 {
		return map[string]any{}
	}
	out := copyObject(body)
	cur := out
	for _, k := range path[:len(path)-1] {
		cur = cur[k].(map[string]any)
	}
	cur[path[len(path)-1]] = map[string]any{}
	return out
}

func copyObject(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = copyObject(sub)
		}
		out[k] = v
	}
	return out
}

func marshal(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mentions reports whether an error body names the field at path: as a
// string ("changes.status", or the last name alone) or as a path array,
// anywhere in it, whatever the family's shape of details.
func mentions(body any, path []string) bool {
	want := strings.Join(path, ".")
	switch v := body.(type) {
	case string:
		return v == want
	case []any:
		if len(v) > 0 {
			var parts []string
			for _, p := range v {
				s, ok := p.(string)
				if !ok {
					break
				}
				parts = append(parts, s)
			}
			if strings.Join(parts, ".") == want {
				return true
			}
		}
		for _, c := range v {
			if mentions(c, path) {
				return true
			}
		}
	case map[string]any:
		for _, c := range v {
			if mentions(c, path) {
				return true
			}
		}
	}
	return false
}

// takesJSON reports whether a request body may be JSON: next-auth's posts
// are forms only, and their tests (auth_nextauth_test.go) hold them.
func takesJSON(rb map[string]any) bool {
	_, ok := rb["content"].(map[string]any)["application/json"]
	return ok
}
