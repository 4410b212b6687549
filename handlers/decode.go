package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// decodeJSON reads the request body into dst strictly: malformed JSON is
// api.ErrMalformedJSON, JSON that is not an object (null, an array, a
// number, a string, a boolean) an issue on the body, an unknown field a
// validation issue naming it, and text that is not valid UTF-8 or carries a
// NUL character (which neither database stores) an issue naming where it is.
func decodeJSON(c echo.Context, dst any) error {
	return decode(c, dst, true)
}

// decodeJSONAllowUnknown is decodeJSON for bodies whose senders may add
// fields of their own, which are ignored.
func decodeJSONAllowUnknown(c echo.Context, dst any) error {
	return decode(c, dst, false)
}

func decode(c echo.Context, dst any, strict bool) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // the body limit's 413 passes through
	}
	if !utf8.Valid(body) {
		return api.Invalid(api.Issue{Path: []string{}, Code: "invalid_string", Message: "the body must be valid UTF-8"})
	}
	if kind := jsonValueKind(body); kind != "" && kind != "object" && json.Valid(body) {
		// Decoding null into a struct leaves it as it was, and would pass
		// for an empty body of defaults: a PUT of null once created a flag.
		return api.Invalid(api.Issue{Path: []string{}, Code: "invalid_type", Expected: "object", Received: kind,
			Message: "the body must be a JSON object, not " + kind})
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	err = dec.Decode(dst)
	if err == nil && dec.More() {
		return api.ErrMalformedJSON
	}
	if err == nil {
		if path, ok := findNUL(reflect.ValueOf(dst), nil); ok {
			return nulIssue(path)
		}
		return nil
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field := strings.Trim(name, `"`)
		return api.Invalid(api.Issue{Path: []string{field}, Code: "unrecognized_keys", Message: "unknown field " + field})
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		return api.Invalid(api.Issue{Path: strings.Split(field, "."), Code: "invalid_type",
			Expected: te.Type.String(), Received: te.Value, Message: field + " must be " + jsonKind(te.Type.String())})
	}
	return api.ErrMalformedJSON
}

// jsonValueKind names the kind of JSON value body starts with, as zod
// names types ("object", "array", "null", "string", "number",
// "boolean"), or "" for an empty body or one that starts with anything
// else.
func jsonValueKind(body []byte) string {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 {
		return ""
	}
	switch c := b[0]; {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 'n':
		return "null"
	case c == 't' || c == 'f':
		return "boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	}
	return ""
}

// decodeForm reads a form body's fields, refusing NUL characters and
// invalid UTF-8 as decodeJSON does.
func decodeForm(c echo.Context) (url.Values, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, api.Invalid(api.Issue{Path: []string{}, Code: "invalid_type", Message: "the body must be a form"})
	}
	for name, vs := range form {
		for _, v := range vs {
			if !utf8.ValidString(name) || !utf8.ValidString(v) || strings.ContainsRune(name+v, 0) {
				return nil, nulIssue([]string{strings.ToValidUTF8(name, "?")})
			}
		}
	}
	return form, nil
}

func nulIssue(path []string) error {
	return api.Invalid(api.Issue{Path: path, Code: "invalid_string", Message: "text must not contain NUL characters"})
}

// findNUL walks decoded JSON for a string with a NUL character and
// returns the JSON path to it. (The decoder has already replaced invalid
// UTF-8 and lone surrogates with U+FFFD.)
func findNUL(v reflect.Value, path []string) ([]string, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return findNUL(v.Elem(), path)
		}
	case reflect.String:
		return path, strings.IndexByte(v.String(), 0) >= 0
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, ok := findNUL(v.Index(i), append(path, itoa(int64(i)))); ok {
				return p, true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			k := it.Key()
			name := k.String()
			if k.Kind() == reflect.String && strings.IndexByte(name, 0) >= 0 {
				return append(path, strings.ReplaceAll(name, "\x00", "")), true
			}
			if p, ok := findNUL(it.Value(), append(path, name)); ok {
				return p, true
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			if p, ok := findNUL(v.Field(i), append(path, jsonName(t.Field(i)))); ok {
				return p, true
			}
		}
	}
	return nil, false
}

func jsonName(f reflect.StructField) string {
	if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
		return name
	}
	return f.Name
}

func jsonKind(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "an object"
}
