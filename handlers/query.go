package handlers

import (
	"net/url"
	"strings"
)

// queryParam is the first value of name in a raw query string, decoded as
// url.ParseQuery decodes it (pairs with a semicolon or a bad escape are
// skipped). It builds no map, so a hot route reading a parameter or two
// allocates nothing for them.
func queryParam(raw, name string) string {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, ok := unescapeQuery(k)
		if !ok || k != name {
			continue
		}
		if v, ok = unescapeQuery(v); ok {
			return v
		}
	}
	return ""
}

func unescapeQuery(s string) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	v, err := url.QueryUnescape(s)
	return v, err == nil
}
