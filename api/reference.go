package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// APIReference is the view of the OpenAPI document that /api/docs shows:
// the operations grouped by tag, and the named schemas they refer to, each
// written out once.
type APIReference struct {
	Title, Version, Description string
	// SpecURL is the document's address with its content version.
	SpecURL    string
	Groups     []RefGroup
	Schemes    []RefScheme
	Schemas    []RefSchema
	Operations int
}

// RefGroup is one tag's operations.
type RefGroup struct {
	Name, ID, Description string
	Ops                   []RefOp
}

// RefScheme is a security scheme.
type RefScheme struct {
	Name, Kind, Description string
}

// RefSchema is a named schema (components/schemas).
type RefSchema struct {
	Name string
	Node RefNode
}

// RefOp is one operation.
type RefOp struct {
	ID, Method, Path, Summary, Description string
	// Auth names the schemes that admit a caller ("Public" for none).
	Auth         string
	Params       []RefParam
	Body         []RefMedia
	BodyRequired bool
	Responses    []RefResponse
}

// RefParam is a parameter or a response header.
type RefParam struct {
	Name, In, Description string
	Required              bool
	Node                  RefNode
}

// RefMedia is a body of one media type.
type RefMedia struct {
	Type string
	Node RefNode
}

// RefResponse is one status of an operation.
type RefResponse struct {
	Status, Description string
	Media               []RefMedia
	Headers             []RefParam
}

// RefNode is a schema written for reading: its type in words, what
// constrains it, and its parts.
type RefNode struct {
	// Ref names a schema of APIReference.Schemas.
	Ref, Type, Description string
	Notes                  []string
	Props                  []RefProp
	Items                  *RefNode
	// Alts are the alternatives of a oneOf or anyOf.
	Alts []RefNode
}

// RefProp is a property of an object.
type RefProp struct {
	Name     string
	Required bool
	Node     RefNode
}

// SchemaAnchor is the fragment of a named schema on the reference page.
func SchemaAnchor(name string) string { return "schema-" + name }

// ReadReference reads an OpenAPI 3.1 document into the reference's view;
// specURL is where the page links the document.
func ReadReference(doc []byte, specURL string) (APIReference, error) {
	var d oaDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return APIReference{}, fmt.Errorf("api reference: %w", err)
	}
	ref := APIReference{Title: d.Info.Title, Version: d.Info.Version, Description: d.Info.Description, SpecURL: specURL}
	groups := map[string]*RefGroup{}
	for _, t := range d.Tags {
		ref.Groups = append(ref.Groups, RefGroup{Name: t.Name, ID: "tag-" + slug(t.Name), Description: t.Description})
	}
	for i := range ref.Groups {
		groups[ref.Groups[i].Name] = &ref.Groups[i]
	}
	for _, path := range sortedKeys(d.Paths) {
		for _, method := range methods {
			op, ok := d.Paths[path][method]
			if !ok {
				continue
			}
			r := readOp(method, path, op)
			tag := "Other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			g := groups[tag]
			if g == nil {
				ref.Groups = append(ref.Groups, RefGroup{Name: tag, ID: "tag-" + slug(tag)})
				g = &ref.Groups[len(ref.Groups)-1]
				groups = regroup(ref.Groups)
			}
			g.Ops = append(g.Ops, r)
			ref.Operations++
		}
	}
	ref.Groups = slices.DeleteFunc(ref.Groups, func(g RefGroup) bool { return len(g.Ops) == 0 })
	for _, name := range sortedKeys(d.Components.SecuritySchemes) {
		s := d.Components.SecuritySchemes[name]
		kind := "HTTP " + s.Scheme
		if s.In != "" {
			kind = "cookie " + s.Name
		}
		ref.Schemes = append(ref.Schemes, RefScheme{Name: name, Kind: kind, Description: s.Description})
	}
	for _, name := range sortedKeys(d.Components.Schemas) {
		ref.Schemas = append(ref.Schemas, RefSchema{Name: name, Node: readNode(d.Components.Schemas[name], 0)})
	}
	return ref, nil
}

// regroup indexes the groups again after an append moved them.
func regroup(gs []RefGroup) map[string]*RefGroup {
	m := map[string]*RefGroup{}
	for i := range gs {
		m[gs[i].Name] = &gs[i]
	}
	return m
}

var methods = []string{"get", "post", "put", "patch", "delete", "head", "options"}

func readOp(method, path string, op oaOp) RefOp {
	r := RefOp{ID: op.OperationID, Method: strings.ToUpper(method), Path: path, Summary: op.Summary,
		Description: op.Description, Auth: callers(op.Security)}
	for _, p := range op.Parameters {
		node := readNode(p.Schema, 0)
		if node.Description == p.Description {
			node.Description = "" // said once, beside the name
		}
		r.Params = append(r.Params, RefParam{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required, Node: node})
	}
	if op.RequestBody != nil {
		r.Body = readContent(op.RequestBody.Content)
		r.BodyRequired = op.RequestBody.Required
	}
	statuses := sortedKeys(op.Responses)
	for _, status := range statuses {
		res := op.Responses[status]
		rr := RefResponse{Status: status, Description: res.Description, Media: readContent(res.Content)}
		for _, name := range sortedKeys(res.Headers) {
			h := res.Headers[name]
			rr.Headers = append(rr.Headers, RefParam{Name: name, In: "header", Description: h.Description,
				Required: h.Required, Node: readNode(h.Schema, 0)})
		}
		r.Responses = append(r.Responses, rr)
	}
	return r
}

// callers says who may call: each alternative's schemes joined by "and",
// the alternatives by "or"; an empty alternative makes the rest optional.
func callers(sec []map[string][]string) string {
	if len(sec) == 0 {
		return "Public"
	}
	var alts []string
	optional := false
	for _, alt := range sec {
		if len(alt) == 0 {
			optional = true
			continue
		}
		alts = append(alts, strings.Join(sortedKeys(alt), " and "))
	}
	s := strings.Join(alts, " or ")
	if optional {
		s = "Public; optionally " + s
	}
	return s
}

func readContent(content map[string]oaMedia) []RefMedia {
	var out []RefMedia
	for _, t := range sortedKeys(content) {
		out = append(out, RefMedia{Type: t, Node: readNode(content[t].Schema, 0)})
	}
	// JSON first: it is the answer most callers read.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Type == "application/json" && out[j].Type != "application/json" })
	return out
}

// maxDepth bounds how deep inline schemas are written out; named schemas
// are links, so real documents stay well within it.
const maxDepth = 8

func readNode(s map[string]any, depth int) RefNode {
	var n RefNode
	if s == nil {
		return n
	}
	if ref, ok := s["$ref"].(string); ok {
		n.Ref = strings.TrimPrefix(ref, "#/components/schemas/")
		return n
	}
	n.Description, _ = s["description"].(string)
	n.Type = typeOf(s)
	n.Notes = notes(s)
	if depth >= maxDepth {
		return n
	}
	if items, ok := s["items"].(map[string]any); ok {
		it := readNode(items, depth+1)
		n.Items = &it
	}
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		alts, _ := s[key].([]any)
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				n.Alts = append(n.Alts, readNode(m, depth+1))
			}
		}
		if len(alts) > 0 && n.Type == "" {
			n.Type = map[string]string{"oneOf": "one of", "anyOf": "any of", "allOf": "all of"}[key]
		}
	}
	props, _ := s["properties"].(map[string]any)
	required := strs(s["required"])
	for _, name := range sortedKeys(props) {
		m, _ := props[name].(map[string]any)
		n.Props = append(n.Props, RefProp{Name: name, Required: slices.Contains(required, name), Node: readNode(m, depth+1)})
	}
	return n
}

// typeOf is the schema's type in words: "string (date-time)",
// "integer or null", "array".
func typeOf(s map[string]any) string {
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, v := range t {
			if str, ok := v.(string); ok {
				types = append(types, str)
			}
		}
	}
	out := strings.Join(types, " or ")
	if f, ok := s["format"].(string); ok {
		out += " (" + f + ")"
	}
	return out
}

// notes are the constraints worth reading beside a type.
func notes(s map[string]any) []string {
	var out []string
	if v, ok := s["const"]; ok {
		out = append(out, "always "+literal(v))
	}
	if e, ok := s["enum"].([]any); ok {
		var vs []string
		for _, v := range e {
			vs = append(vs, literal(v))
		}
		out = append(out, "one of "+strings.Join(vs, ", "))
	}
	for _, k := range []struct{ key, say string }{{"minimum", "at least "}, {"maximum", "at most "},
		{"minLength", "length at least "}, {"maxLength", "length at most "}, {"minItems", "items at least "},
		{"maxItems", "items at most "}, {"minProperties", "fields at least "}, {"default", "default "},
		{"pattern", "matches "}} {
		if v, ok := s[k.key]; ok {
			out = append(out, k.say+literal(v))
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok && len(ap) > 0 {
		out = append(out, "values: "+describeShort(ap))
	}
	if item, ok := s["x-itemSchema"].(map[string]any); ok {
		out = append(out, "each line: "+describeShort(item))
	}
	if cond, ok := s["if"].(map[string]any); ok {
		if then, ok := s["then"].(map[string]any); ok {
			out = append(out, "when "+condition(cond)+", also requires "+strings.Join(strs(then["required"]), ", "))
		}
	}
	return out
}

// describeShort names a schema in a few words: its reference or its type.
func describeShort(s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	if t := typeOf(s); t != "" {
		return t
	}
	return "any"
}

func condition(cond map[string]any) string {
	props, _ := cond["properties"].(map[string]any)
	var parts []string
	for _, name := range sortedKeys(props) {
		m, _ := props[name].(map[string]any)
		if v, ok := m["const"]; ok {
			parts = append(parts, name+" is "+literal(v))
		} else {
			parts = append(parts, name+" is given")
		}
	}
	if len(parts) == 0 {
		return "it applies"
	}
	return strings.Join(parts, " and ")
}

func literal(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func strs(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// The parts of an OpenAPI 3.1 document the reference reads.
type oaDoc struct {
	Info struct {
		Title, Version, Description string
	}
	Tags []struct {
		Name, Description string
	}
	Paths      map[string]map[string]oaOp
	Components struct {
		Schemas         map[string]map[string]any
		SecuritySchemes map[string]struct {
			Type, Scheme, In, Name, Description string
		} `json:"securitySchemes"`
	}
}

type oaOp struct {
	OperationID string `json:"operationId"`
	Summary     string
	Description string
	Tags        []string
	Security    []map[string][]string
	Parameters  []struct {
		Name, In, Description string
		Required              bool
		Schema                map[string]any
	}
	RequestBody *struct {
		Required bool
		Content  map[string]oaMedia
	} `json:"requestBody"`
	Responses map[string]struct {
		Description string
		Content     map[string]oaMedia
		Headers     map[string]struct {
			Description string
			Required    bool
			Schema      map[string]any
		}
	}
}

type oaMedia struct {
	Schema map[string]any
}
