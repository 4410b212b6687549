package web

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// checkText refuses a request whose query string or path parameters carry
// a NUL character or invalid UTF-8: neither database stores them in text,
// and PostgreSQL cuts a query at a NUL. Bodies are checked where they are
// decoded (handlers.decodeJSON, handlers.decodeForm), so together no text
// from outside reaches a handler unchecked. The refusal is invalid input
// in the route family's shape.
func (p *pipeline) checkText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		for i, v := range c.ParamValues() {
			if !cleanText(v) || strings.Contains(v, "%") && !cleanEscaped(v, url.PathUnescape) {
				return badText(c.ParamNames()[i])
			}
		}
		if raw := c.Request().URL.RawQuery; raw != "" && !cleanQuery(raw) {
			return badText("query")
		}
		return next(c)
	}
}

// cleanQuery reports whether every name and value of a raw query string
// decodes to clean text. Plain ASCII without escapes is clean as it is, so
// the common query costs one scan and no allocation.
func cleanQuery(raw string) bool {
	plain := true
	for i := 0; i < len(raw); i++ {
		if b := raw[i]; b == '%' || b == '+' || b >= utf8.RuneSelf || b == 0 {
			plain = false
			break
		}
	}
	if plain {
		return true
	}
	for part := range strings.SplitSeq(raw, "&") {
		if !cleanEscaped(part, url.QueryUnescape) {
			return false
		}
	}
	return true
}

func cleanEscaped(s string, unescape func(string) (string, error)) bool {
	v, err := unescape(s)
	return err != nil || cleanText(v) // a malformed escape is the handler's to refuse
}

// cleanText reports whether s is valid UTF-8 without NUL.
func cleanText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

func badText(field string) error {
	return api.Invalid(api.FieldIssue(field, "invalid_string", field+" must be valid UTF-8 text without NUL characters"))
}
