package auth

import (
	"net/url"
	"strings"
	"unicode"
)

// SameSiteTarget is the one rule for where Plaza may send a browser after
// signing it in: target, resolved against publicURL (PUBLIC_APP_URL), must
// have publicURL's scheme and host and a path that starts with one slash.
// It answers the target rebuilt from its parsed path, query and fragment,
// so that what the browser gets is what was checked, or false.
//
// Browsers forgive what a parser does not: they drop tabs and newlines
// from a URL and read a backslash as a slash, so "/\t/evil.example" and
// "/\\evil.example" are scheme-relative to them. Such characters are
// refused anywhere in the target, and in its decoded path.
func SameSiteTarget(target, publicURL string) (string, bool) {
	if target == "" || strings.ContainsFunc(target, unsafeInURL) {
		return "", false
	}
	base, err := url.Parse(publicURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return "", false
	}
	ref, err := url.Parse(target)
	if err != nil {
		return "", false
	}
	u := base.ResolveReference(ref)
	if u.Scheme != base.Scheme || u.Host != base.Host || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.ContainsFunc(u.Path, unsafeInURL) {
		return "", false
	}
	out := (&url.URL{Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery, Fragment: u.Fragment}).String()
	if !strings.HasPrefix(out, "/") || strings.HasPrefix(out, "//") {
		return "", false
	}
	return out, true
}

func unsafeInURL(r rune) bool {
	return r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r)
}
