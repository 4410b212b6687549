package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// decodeJSON reads the request body into dst strictly: malformed JSON is
// api.ErrMalformedJSON, an unknown field a validation issue naming it.
func decodeJSON(c echo.Context, dst any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // the body limit's 413 passes through
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(dst)
	if err == nil && dec.More() {
		return api.ErrMalformedJSON
	}
	if err == nil {
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
