package linkpreview

import "fmt"

// Kind is the category of a failed preview. The handler of
// GET /api/link-preview maps it to a status as below; nothing a remote
// page does may end up as a 500.
//
//	Kind            status  error (suggested)          details
//	KindMissingURL  400     "URL is required"          empty
//	KindBadURL      400     "Invalid URL"              what is wrong with it
//	KindForbidden   403     "Target not allowed"       why the target was refused
//	KindUpstream    502     "Failed to fetch URL"      upstream status text ("404 Not Found") or failure class
//	KindTimeout     504     "Timed out fetching URL"   the time limit
//
// Details never contain an address the target resolved to, so a refusal
// does not tell a caller what an internal name points at.
type Kind int

const (
	// KindMissingURL means the url parameter was empty.
	KindMissingURL Kind = iota + 1
	// KindBadURL means the url was malformed, not http(s), or carried
	// credentials.
	KindBadURL
	// KindForbidden means the target, or a redirect on the way to it,
	// resolves to an address the policy refuses (see netguard.Allowed).
	KindForbidden
	// KindUpstream means the target answered with a non-2xx status or the
	// exchange failed (DNS, connection, TLS, too many redirects, a broken body).
	KindUpstream
	// KindTimeout means the whole exchange did not finish within
	// Config.Timeout.
	KindTimeout
)

// String returns the kind's name, for logs.
func (k Kind) String() string {
	switch k {
	case KindMissingURL:
		return "missing_url"
	case KindBadURL:
		return "bad_url"
	case KindForbidden:
		return "forbidden"
	case KindUpstream:
		return "upstream"
	case KindTimeout:
		return "timeout"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is the error Preview returns for every failure a caller or a remote
// page can cause. Details is safe to show to the caller; Err, when set, is
// the underlying cause and is meant for logs only.
type Error struct {
	Kind    Kind
	Details string
	Err     error
}

// Sentinels for errors.Is: errors.Is(err, linkpreview.ErrForbidden) is true
// for any *Error of that kind, whatever its details.
var (
	ErrMissingURL = &Error{Kind: KindMissingURL}
	ErrBadURL     = &Error{Kind: KindBadURL}
	ErrForbidden  = &Error{Kind: KindForbidden}
	ErrUpstream   = &Error{Kind: KindUpstream}
	ErrTimeout    = &Error{Kind: KindTimeout}
)

func (e *Error) Error() string {
	msg := "link preview: " + e.Kind.String()
	if e.Details != "" {
		msg += ": " + e.Details
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Details == "" && t.Err == nil && t.Kind == e.Kind
}

func newError(k Kind, details string, cause error) *Error {
	return &Error{Kind: k, Details: details, Err: cause}
}
