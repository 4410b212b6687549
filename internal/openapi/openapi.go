// Package openapi builds Plaza's OpenAPI 3.1 document from plain
// descriptions of its routes and the Go types of their bodies (package
// validate checks responses against it). It knows nothing of HTTP routers
// or databases: package web describes each route of its table as an
// Operation.
//
// The schemas come from reflection over the api types (swaggest's
// openapi31 reflector and jsonschema-go) with Plaza's conventions on top:
// a response field without omitempty is required, slices and maps are never
// null unless a field says `nullable:"true"`, and an object has no
// properties beyond its fields (`additionalProperties` false) unless its
// type says otherwise with `_ struct{} additionalProperties:"true"`.
//
// Request bodies follow their validators: a field the handler refuses
// when absent is tagged `required:"true"`, one it needs only when another
// field has a value `requiredWhen:"action=ban"` (an if/then), and an update
// that needs at least one field says so with `_ struct{} minProperties:"1"`.
// A pointer field of a request is how Go tells "absent" from "zero", not a
// promise to take null, so it is not nullable unless tagged so.
package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/swaggest/jsonschema-go"
	"github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"
)

// Document is what the document is made of.
type Document struct {
	Title       string
	Version     string
	Description string
	Servers     []Server
	Tags        []Tag
	Schemes     []Scheme
	Operations  []Operation
}

// Server is a base URL the operations' paths are relative to.
type Server struct {
	URL         string
	Description string
}

// Tag groups operations; the viewer shows one section per tag.
type Tag struct {
	Name        string
	Description string
}

// Scheme is a security scheme: a bearer token in the Authorization header,
// or a cookie.
type Scheme struct {
	Name        string // its key, which operations' Security names
	Description string
	// BearerFormat, when set, makes the scheme HTTP bearer ("JWT", or
	// "opaque"); otherwise Cookie names the cookie that carries it.
	BearerFormat string
	Cookie       string
}

// Operation is one method on one path.
type Operation struct {
	Method string
	// Path is a route pattern: ":name" segments are path parameters and a
	// trailing "*" is the rest of the path (PathOf).
	Path        string
	Tag         string
	Summary     string
	Description string
	// PathParams describe path parameters by name (all are strings).
	PathParams map[string]string
	// Query is a struct whose `query` tags name the query parameters.
	Query any
	// Body is the request body's Go value: JSON by its `json` tags, and an
	// HTML form too when it has `formData` tags.
	Body any
	// BodyOptional says the handler also takes a request without a body;
	// otherwise a Body is required.
	BodyOptional bool
	// Responses, one per status. A status may appear twice with different
	// content types (JSON and an HTML page).
	Responses []Response
	// Security lists alternatives, each the schemes that together admit a
	// caller; an empty alternative means no credentials are needed. None
	// at all is a public operation, written as an explicit empty list.
	Security [][]string
	// Extensions are x- fields of the operation.
	Extensions map[string]any
}

// Response is one status of an operation.
type Response struct {
	Status      int
	Description string
	// Body is the JSON body's Go value (OneOf for alternatives); nil with
	// ContentType set is a body of that media type, described by Schema
	// (a string when Schema is nil); nil without is none.
	Body        any
	ContentType string
	Schema      map[string]any
	Headers     []Header
}

// Header is a response header.
type Header struct {
	Name        string
	Description string
	Type        string // "string" or "integer"
	Required    bool
}

// JSON is the media type of JSON bodies.
const JSON = "application/json"

// OneOf documents a body that is exactly one of the alternatives.
func OneOf(alternatives ...any) any { return jsonschema.OneOf(alternatives...) }

// Build writes the document as JSON.
func Build(d Document) ([]byte, error) {
	r := newReflector(d)
	for _, op := range d.Operations {
		if err := addOperation(r, op); err != nil {
			return nil, fmt.Errorf("openapi: %s %s: %w", op.Method, op.Path, err)
		}
	}
	return json.Marshal(r.Spec)
}

func newReflector(d Document) *openapi31.Reflector {
	r := openapi31.NewReflector()
	r.Spec.Info.WithTitle(d.Title).WithVersion(d.Version).WithDescription(d.Description)
	for _, sv := range d.Servers {
		r.Spec.Servers = append(r.Spec.Servers, openapi31.Server{URL: sv.URL, Description: &sv.Description})
	}
	for _, t := range d.Tags {
		r.Spec.Tags = append(r.Spec.Tags, openapi31.Tag{Name: t.Name, Description: &t.Description})
	}
	schemes := map[string]openapi31.SecuritySchemeOrReference{}
	for _, s := range d.Schemes {
		ss := &openapi31.SecurityScheme{Description: &s.Description}
		if s.BearerFormat != "" {
			ss.HTTPBearer = (&openapi31.SecuritySchemeHTTPBearer{Scheme: "bearer"}).WithBearerFormat(s.BearerFormat)
		} else {
			ss.APIKey = &openapi31.SecuritySchemeAPIKey{Name: s.Cookie, In: openapi31.SecuritySchemeAPIKeyInCookie}
		}
		schemes[s.Name] = openapi31.SecuritySchemeOrReference{SecurityScheme: ss}
	}
	r.SpecEns().ComponentsEns().SecuritySchemes = schemes
	r.DefaultOptions = append(r.DefaultOptions,
		jsonschema.InterceptDefName(defName),
		jsonschema.InterceptProp(conventions),
		jsonschema.InterceptSchema(closedObjects),
		jsonschema.InterceptSchema(requiredWhen))
	return r
}

func addOperation(r *openapi31.Reflector, op Operation) error {
	path, params := PathOf(op.Path)
	oc, err := r.NewOperationContext(op.Method, path)
	if err != nil {
		return err
	}
	req, err := parameters(params, op.PathParams, op.Query)
	if err != nil {
		return err
	}
	if req != nil {
		oc.AddReqStructure(req)
	}
	if op.Body != nil {
		required := openapi.WithCustomize(func(cor openapi.ContentOrReference) {
			if rb := cor.(*openapi31.RequestBodyOrReference).RequestBody; rb != nil {
				rb.Required = new(!op.BodyOptional)
			}
		})
		// A body of form fields only (next-auth's posts) is a form, not JSON.
		if hasTag(op.Body, "json") || !hasTag(op.Body, "formData") {
			oc.AddReqStructure(op.Body, openapi.WithContentType(JSON), required)
		}
		if hasTag(op.Body, "formData") {
			oc.AddReqStructure(op.Body, openapi.WithContentType("application/x-www-form-urlencoded"), required)
		}
	}
	for _, res := range op.Responses {
		addResponse(oc, res)
	}
	o := oc.(openapi31.OperationExposer).Operation() // AddOperation copies it into the document
	o.WithTags(op.Tag).WithSummary(op.Summary).WithID(operationID(op.Method, path))
	if op.Description != "" {
		o.WithDescription(op.Description)
	}
	for _, alt := range op.Security {
		req := map[string][]string{}
		for _, name := range alt {
			req[name] = []string{}
		}
		o.Security = append(o.Security, req)
	}
	o.MapOfAnything = map[string]any{}
	for k, v := range op.Extensions {
		o.MapOfAnything[k] = v
	}
	if len(op.Security) == 0 {
		// The reflector drops an empty security list (omitempty); said
		// explicitly, it tells generators the operation takes no credentials.
		o.MapOfAnything["security"] = []any{}
	}
	return r.AddOperation(oc)
}

// addResponse adds one status's body and headers.
func addResponse(oc openapi.OperationContext, res Response) {
	opts := []openapi.ContentOption{openapi.WithHTTPStatus(res.Status), func(cu *openapi.ContentUnit) {
		cu.Description = res.Description
	}}
	body := res.Body
	var empty bool
	switch {
	case body == nil && res.ContentType != "":
		opts = append(opts, openapi.WithContentType(res.ContentType))
	case body != nil && isEmptyStruct(body):
		// The reflector leaves out a body without fields: {} is still a body.
		body, empty = nil, true
	}
	opts = append(opts, openapi.WithCustomize(func(cor openapi.ContentOrReference) {
		resp := cor.(*openapi31.ResponseOrReference).Response
		if empty {
			if resp.Content == nil {
				resp.Content = map[string]openapi31.MediaType{}
			}
			resp.Content[JSON] = openapi31.MediaType{Schema: map[string]any{"type": "object", "additionalProperties": false, "maxProperties": 0}}
		}
		if mt, ok := resp.Content[res.ContentType]; ok && res.Body == nil && res.Schema != nil {
			mt.Schema = res.Schema
			resp.Content[res.ContentType] = mt
		}
		addHeaders(resp, res.Headers)
	}))
	oc.AddRespStructure(body, opts...)
}

func addHeaders(resp *openapi31.Response, hs []Header) {
	if len(hs) > 0 && resp.Headers == nil {
		resp.Headers = map[string]openapi31.HeaderOrReference{}
	}
	for _, h := range hs {
		oh := &openapi31.Header{Schema: map[string]any{"type": h.Type}}
		if h.Description != "" {
			oh.Description = &h.Description
		}
		if h.Required {
			oh.Required = &h.Required
		}
		resp.Headers[h.Name] = openapi31.HeaderOrReference{Header: oh}
	}
}

// hasTag reports whether v is a struct with a field tagged tag.
func hasTag(v any, tag string) bool {
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Struct {
		return false
	}
	for _, f := range reflect.VisibleFields(t) {
		if _, ok := f.Tag.Lookup(tag); ok {
			return true
		}
	}
	return false
}

func isEmptyStruct(v any) bool {
	t := reflect.TypeOf(v)
	return t.Kind() == reflect.Struct && t.NumField() == 0
}

// PathOf turns a route pattern into an OpenAPI path template and its
// parameters: "/locks/:type/:id" is "/locks/{type}/{id}"; a trailing "*"
// (the rest of the path, slashes included) is the parameter "path".
func PathOf(pattern string) (string, []string) {
	segs := strings.Split(pattern, "/")
	var params []string
	for i, s := range segs {
		name, ok := strings.CutPrefix(s, ":")
		if s == "*" {
			name, ok = "path", true
		}
		if ok {
			params = append(params, name)
			segs[i] = "{" + name + "}"
		}
	}
	return strings.Join(segs, "/"), params
}

// parameters is a struct type made for the reflector: a `path` field per
// path parameter, then the query struct's fields.
func parameters(names []string, docs map[string]string, query any) (any, error) {
	var fields []reflect.StructField
	for i, name := range names {
		tag := `path:` + strconv.Quote(name)
		if d := docs[name]; d != "" {
			tag += ` description:` + strconv.Quote(d)
		}
		fields = append(fields, reflect.StructField{Name: "P" + strconv.Itoa(i), Type: reflect.TypeFor[string](), Tag: reflect.StructTag(tag)})
	}
	if query != nil {
		t := reflect.TypeOf(query)
		if t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("query must be a struct, not %s", t)
		}
		for _, f := range reflect.VisibleFields(t) {
			if _, ok := f.Tag.Lookup("query"); ok && f.IsExported() && !f.Anonymous {
				f.Index, f.Offset = nil, 0
				fields = append(fields, f)
			}
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return reflect.New(reflect.StructOf(fields)).Elem().Interface(), nil
}

// operationID is a stable name for an operation: "get_api_v1_admin_tokens_id".
func operationID(method, path string) string {
	id := strings.ToLower(method) + strings.NewReplacer("/", "_", "{", "", "}", "", "-", "_", ".", "_").Replace(path)
	return strings.TrimSuffix(id, "_")
}

// defName names a schema after its Go type: "Lock", and for a generic
// type its arguments after it, "V1Of_Lock" or "V1Of_TokenList" for a slice.
func defName(t reflect.Type, def string) string {
	name := t.Name()
	base, args, ok := strings.Cut(name, "[")
	if !ok {
		if name == "" {
			return def
		}
		return name
	}
	var parts []string
	for a := range strings.SplitSeq(strings.TrimSuffix(args, "]"), ",") {
		list := strings.HasPrefix(a, "[]")
		a = strings.TrimPrefix(a, "[]")
		if i := strings.LastIndexByte(a, '.'); i >= 0 {
			a = a[i+1:]
		}
		if list {
			a += "List"
		}
		parts = append(parts, a)
	}
	return base + "_" + strings.Join(parts, "_")
}

// conventions applies Plaza's rules to each property once it is reflected:
// in responses a field without omitempty is always there (required), and a
// slice or map is never null (handlers make them) unless tagged nullable;
// in request bodies a pointer is not nullable either unless tagged so.
func conventions(p jsonschema.InterceptPropParams) error {
	if !p.Processed {
		return nil
	}
	name, opts, _ := strings.Cut(p.Field.Tag.Get("json"), ",")
	k := p.Field.Type.Kind()
	oc, ok := openapi.OperationCtx(p.Context)
	request := ok && !oc.IsProcessingResponse() && oc.ProcessingIn() == openapi.InBody
	if _, tagged := p.Field.Tag.Lookup("nullable"); !tagged && (k == reflect.Slice || k == reflect.Map || request && k == reflect.Pointer) {
		p.PropertySchema.RemoveType(jsonschema.Null)
	}
	if ok && oc.IsProcessingResponse() && name != "" && name != "-" && !strings.Contains(opts, "omitempty") &&
		!slices.Contains(p.ParentSchema.Required, p.Name) {
		p.ParentSchema.Required = append(p.ParentSchema.Required, p.Name)
	}
	return nil
}

// closedObjects gives the struct objects of bodies additionalProperties
// false unless the type set it itself. (Parameters stay open: unknown
// query parameters are ignored, not refused.)
func closedObjects(p jsonschema.InterceptSchemaParams) (bool, error) {
	if !p.Processed || !p.Value.IsValid() {
		return false, nil
	}
	if oc, ok := openapi.OperationCtx(p.Context); ok && oc.ProcessingIn() != openapi.InBody {
		return false, nil
	}
	t := p.Value.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && p.Schema.HasType(jsonschema.Object) && p.Schema.AdditionalProperties == nil {
		p.Schema.WithAdditionalProperties(jsonschema.SchemaOrBool{TypeBoolean: new(false)})
	}
	return false, nil
}

// requiredWhen turns `requiredWhen:"field=value"` tags into an if/then on
// the struct's schema: the tagged field is required when field has value
// (a reason to ban, none to unban). Several tags on one condition share it.
func requiredWhen(p jsonschema.InterceptSchemaParams) (bool, error) {
	if !p.Processed || !p.Value.IsValid() {
		return false, nil
	}
	t := p.Value.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false, nil
	}
	for _, f := range reflect.VisibleFields(t) {
		cond, ok := f.Tag.Lookup("requiredWhen")
		if !ok {
			continue
		}
		on, value, ok := strings.Cut(cond, "=")
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !ok || name == "" {
			return false, fmt.Errorf("%s.%s: requiredWhen wants field=value and a json name", t.Name(), f.Name)
		}
		if p.Schema.If == nil {
			var when jsonschema.Schema
			when.WithRequired(on).WithPropertiesItem(on, (&jsonschema.Schema{}).WithConst(value).ToSchemaOrBool())
			p.Schema.WithIf(when.ToSchemaOrBool()).WithThen((&jsonschema.Schema{}).ToSchemaOrBool())
		} else if c := p.Schema.If.TypeObject.Properties[on].TypeObject; c == nil || c.Const == nil || *c.Const != value {
			return false, fmt.Errorf("%s: requiredWhen names one condition per type", t.Name())
		}
		then := p.Schema.Then.TypeObject
		if !slices.Contains(then.Required, name) {
			// Named under then's properties too, so that a linter sees the
			// requirement names a property; it must not be empty there.
			then.Required = append(then.Required, name)
			then.WithPropertiesItem(name, (&jsonschema.Schema{}).WithMinLength(1).ToSchemaOrBool())
		}
	}
	return false, nil
}
