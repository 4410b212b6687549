package audit

import "unicode/utf8"

// Caps on what a client can make an entry hold: every entry is kept for
// good and hashed into the chain, so no request may make one large. A
// longer value keeps its first bytes (whole characters) and an ellipsis.
const (
	MaxUserAgent    = 512  // the User-Agent header
	MaxIPAddress    = 64   // enough for any IPv6 text form with a zone
	MaxField        = 256  // the username, the target's type and id
	MaxDetailString = 4096 // each string anywhere in Details, keys included
	maxDetailDepth  = 8    // deeper nesting is replaced by a note
)

// Clip shortens s to at most n bytes, cutting on a character boundary and
// ending the shortened value with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// ClipDetails is details with every string clipped to MaxDetailString.
func ClipDetails(details map[string]any) map[string]any {
	if details == nil {
		return nil
	}
	out, _ := clipValue(details, 0).(map[string]any)
	return out
}

func clipValue(v any, depth int) any {
	if depth > maxDetailDepth {
		return "(nested too deep)"
	}
	switch v := v.(type) {
	case string:
		return Clip(v, MaxDetailString)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[Clip(k, MaxDetailString)] = clipValue(x, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = clipValue(x, depth+1)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = Clip(x, MaxDetailString)
		}
		return out
	default:
		return v
	}
}
