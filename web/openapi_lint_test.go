package web_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/plazahq/plaza/web"
)

// TestDocumentIsValidOpenAPI holds the document to what a linter such as
// `redocly lint` calls an error, with Go only: it validates against the
// OpenAPI 3.1 schema (libopenapi-validator), every reference resolves
// (libopenapi builds its model), and the rules a schema cannot state
// hold: unique operation ids, path parameters declared both ways, every
// required property defined, an explicit security list and a server on
// every operation, and every request body saying whether it is required.
func TestDocumentIsValidOpenAPI(t *testing.T) {
	b, err := web.OpenAPIFor("test")
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range lint(t, b) {
		t.Error(problem)
	}
}

// TestLintFindsProblems shows the lint failing on documents broken in
// each of the ways it looks for.
func TestLintFindsProblems(t *testing.T) {
	b, err := web.OpenAPIFor("test")
	if err != nil {
		t.Fatal(err)
	}
	breaks := map[string]func(doc map[string]any){
		"not OpenAPI": func(doc map[string]any) { doc["info"] = "Plaza" },
		"dangling reference": func(doc map[string]any) {
			delete(doc["components"].(map[string]any)["schemas"].(map[string]any), "V1User")
		},
		"repeated operation id": func(doc map[string]any) {
			op(doc, "/api/users", "post")["operationId"] = op(doc, "/api/users", "get")["operationId"]
		},
		"undeclared path parameter": func(doc map[string]any) { op(doc, "/api/users/{id}", "get")["parameters"] = []any{} },
		"undefined required property": func(doc map[string]any) {
			s := doc["components"].(map[string]any)["schemas"].(map[string]any)["Registration"].(map[string]any)
			s["required"] = append(s["required"].([]any), "nickname")
		},
		"implicit security": func(doc map[string]any) { delete(op(doc, "/api/health", "get"), "security") },
		"body without required": func(doc map[string]any) {
			delete(op(doc, "/api/users", "post")["requestBody"].(map[string]any), "required")
		},
		"no server": func(doc map[string]any) { delete(doc, "servers") },
	}
	for name, breakIt := range breaks {
		t.Run(name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			breakIt(doc)
			broken, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if problems := lint(t, broken); len(problems) == 0 {
				t.Error("the lint found nothing")
			}
		})
	}
}

func op(doc map[string]any, path, method string) map[string]any {
	return doc["paths"].(map[string]any)[path].(map[string]any)[method].(map[string]any)
}

// lint lists what is wrong with the document b.
func lint(t *testing.T, b []byte) []string {
	t.Helper()
	var problems []string
	doc, err := libopenapi.NewDocument(b)
	if err != nil {
		return []string{"libopenapi cannot read the document: " + err.Error()}
	}
	if _, err := doc.BuildV3Model(); err != nil {
		problems = append(problems, "libopenapi cannot build the model: "+err.Error())
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return append(problems, fmt.Sprint("the validator cannot start: ", errs))
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			problems = append(problems, "not valid OpenAPI 3.1: "+e.Message+": "+e.Reason)
			for _, f := range e.SchemaValidationErrors {
				problems = append(problems, "  at "+f.KeywordLocation+" "+f.FieldPath+": "+f.Reason)
			}
		}
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	return append(problems, ownRules(raw)...)
}

var templateParam = regexp.MustCompile(`\{([^}]+)\}`)

// ownRules checks what the OpenAPI schema cannot.
func ownRules(doc map[string]any) []string {
	var problems []string
	if servers, _ := doc["servers"].([]any); len(servers) == 0 {
		problems = append(problems, "no servers: clients cannot tell what the paths are relative to")
	}
	ids := map[string]string{}
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		for method, o := range item.(map[string]any) {
			name := strings.ToUpper(method) + " " + path
			op, _ := o.(map[string]any)
			id, _ := op["operationId"].(string)
			if other, taken := ids[id]; taken || id == "" {
				problems = append(problems, fmt.Sprintf("%s: operationId %q is missing or also %s's", name, id, other))
			}
			ids[id] = name
			problems = append(problems, pathParamProblems(name, path, op)...)
			if _, ok := op["security"]; !ok {
				problems = append(problems, name+": no security list (an empty one marks a public operation)")
			}
			if rb, ok := op["requestBody"].(map[string]any); ok {
				if _, ok := rb["required"].(bool); !ok {
					problems = append(problems, name+": the request body does not say whether it is required")
				}
			}
		}
	}
	refs := map[string]bool{}
	walk(doc, "#", func(at string, node map[string]any) {
		if ref, ok := node["$ref"].(string); ok {
			refs[ref] = true
		}
		req, _ := node["required"].([]any)
		props, _ := node["properties"].(map[string]any)
		for _, r := range req {
			if name, ok := r.(string); ok && props[name] == nil {
				problems = append(problems, fmt.Sprintf("%s: required property %q is not defined", at, name))
			}
		}
	})
	for ref := range refs {
		if !resolves(doc, ref) {
			problems = append(problems, "a reference to "+ref+" resolves to nothing")
		}
	}
	slices.Sort(problems)
	return problems
}

// pathParamProblems: every {name} of the path is a required path
// parameter, and every path parameter is in the path.
func pathParamProblems(name, path string, op map[string]any) []string {
	var problems []string
	declared := map[string]bool{}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		if pm["in"] == "path" {
			pn, _ := pm["name"].(string)
			declared[pn] = true
			if pm["required"] != true {
				problems = append(problems, name+": path parameter "+pn+" is not required")
			}
		}
	}
	for _, m := range templateParam.FindAllStringSubmatch(path, -1) {
		if !declared[m[1]] {
			problems = append(problems, name+": {"+m[1]+"} is not declared")
		}
		delete(declared, m[1])
	}
	for pn := range declared {
		problems = append(problems, name+": path parameter "+pn+" is not in the path")
	}
	return problems
}

// walk calls fn on every object of the document, with its JSON pointer;
// required lists are looked at only where they belong to a schema (not a
// parameter's or a header's boolean).
func walk(v any, at string, fn func(at string, node map[string]any)) {
	switch n := v.(type) {
	case map[string]any:
		if _, isList := n["required"].([]any); isList || n["$ref"] != nil {
			fn(at, n)
		}
		for k, c := range n {
			walk(c, at+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k), fn)
		}
	case []any:
		for i, c := range n {
			walk(c, fmt.Sprintf("%s/%d", at, i), fn)
		}
	}
}

// resolves reports whether a local reference names something.
func resolves(doc map[string]any, ref string) bool {
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return false
	}
	var cur any = doc
	for _, k := range strings.Split(ptr, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(k)]; !ok {
			return false
		}
	}
	return true
}
