// Package validate checks responses against an OpenAPI document that
// package openapi built. It is apart from the generator so that the
// binary, which serves the document but never validates, does not carry
// (and initialise at start) the JSON Schema validator.
package validate

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/plazahq/plaza/internal/openapi"
)

// Validator checks responses against a document: that their status is
// documented for their operation, that a JSON body validates against the
// status's schema (JSON Schema 2020-12, the dialect of OpenAPI 3.1), and
// that the headers the document requires are there. Schemas are compiled
// on first use; a Validator is safe for concurrent use.
type Validator struct {
	ops      map[string]map[string]any // "GET /api/health" → its responses
	compiler *jsonschema.Compiler

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

// docURL names the document for the schema compiler, which resolves the
// schemas' $refs inside it.
const docURL = "urn:plaza:openapi.json"

// New reads a document openapi.Build wrote.
func New(doc []byte) (*Validator, error) {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("validate: read document: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // a timestamp that is not RFC 3339 is drift too
	if err := c.AddResource(docURL, parsed); err != nil {
		return nil, err
	}
	v := &Validator{ops: map[string]map[string]any{}, compiler: c, compiled: map[string]*jsonschema.Schema{}}
	paths, _ := field(parsed, "paths").(map[string]any)
	for path, item := range paths {
		for method, op := range item.(map[string]any) {
			if res, ok := field(op, "responses").(map[string]any); ok {
				v.ops[strings.ToUpper(method)+" "+path] = res
			}
		}
	}
	return v, nil
}

// Has reports whether the document describes method on path (a template
// such as /api/v1/admin/tokens/{id}).
func (v *Validator) Has(method, path string) bool {
	_, ok := v.ops[method+" "+path]
	return ok
}

// Operations lists every documented operation as "METHOD /path".
func (v *Validator) Operations() []string {
	out := make([]string, 0, len(v.ops))
	for k := range v.ops {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Check reports how a response of method on path departs from the
// document. A JSON response must have a documented status, the headers the
// document requires of it, and a body that validates against the status's
// schema. Responses of other media types (HTML renderings, images,
// redirects) are checked for their required headers when their status is
// documented. HEAD is checked as its GET, without a body.
func (v *Validator) Check(method, path string, status int, header http.Header, body []byte) error {
	if method == http.MethodHead {
		method, body = http.MethodGet, nil
	}
	responses, ok := v.ops[method+" "+path]
	if !ok {
		return fmt.Errorf("%s %s is not in the document", method, path)
	}
	mt, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	json := err == nil && isJSON(mt) && body != nil
	res, ok := responses[strconv.Itoa(status)].(map[string]any)
	switch {
	case !ok && json:
		return fmt.Errorf("status %d is not documented (documented: %s)", status, strings.Join(statuses(responses), ", "))
	case !ok:
		return nil
	}
	if err := requiredHeaders(res, header); err != nil || !json {
		return err
	}
	content, _ := field(res, "content").(map[string]any)
	if _, ok := content[openapi.JSON]; !ok {
		return fmt.Errorf("the document gives status %d no JSON body, but the response has one", status)
	}
	schema, err := v.schema(method, path, status)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	if err := schema.Validate(inst); err != nil {
		return fmt.Errorf("the body breaks the documented schema: %w", err)
	}
	return nil
}

// schema compiles (once) the JSON schema of one status of one operation.
func (v *Validator) schema(method, path string, status int) (*jsonschema.Schema, error) {
	ptr := "#/paths/" + escape(path) + "/" + strings.ToLower(method) + "/responses/" + strconv.Itoa(status) +
		"/content/" + escape(openapi.JSON) + "/schema"
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[ptr]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(docURL + ptr)
	if err != nil {
		return nil, fmt.Errorf("validate: compile %s: %w", ptr, err)
	}
	v.compiled[ptr] = s
	return s, nil
}

func requiredHeaders(res map[string]any, header http.Header) error {
	hs, _ := field(res, "headers").(map[string]any)
	var missing []string
	for name, h := range hs {
		if req, _ := field(h, "required").(bool); req && header.Get(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("required headers missing: %s", strings.Join(missing, ", "))
	}
	return nil
}

func statuses(responses map[string]any) []string {
	out := make([]string, 0, len(responses))
	for s := range responses {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func isJSON(mediaType string) bool {
	return mediaType == openapi.JSON || strings.HasSuffix(mediaType, "+json")
}

func field(v any, name string) any {
	m, _ := v.(map[string]any)
	return m[name]
}

// escape writes s as one JSON pointer token inside a URI fragment.
func escape(s string) string {
	s = strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
	return strings.NewReplacer("{", "%7B", "}", "%7D").Replace(s)
}

// MediaTypes lists the media types the document gives one status of an
// operation.
func (v *Validator) MediaTypes(method, path string, status int) []string {
	res, _ := v.ops[method+" "+path][strconv.Itoa(status)].(map[string]any)
	content, _ := field(res, "content").(map[string]any)
	out := make([]string, 0, len(content))
	for mt := range content {
		out = append(out, mt)
	}
	slices.Sort(out)
	return out
}
