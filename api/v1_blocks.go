package api

import (
	"net/http"
	"strings"
	"time"
)

// CodeIPBlocked is the code of a request refused because its address is
// blocked (docs/api.md, "Blocks"). An email domain block is a 422 on the
// email field instead: the value is what is refused, not the caller.
const CodeIPBlocked = "IP_BLOCKED"

// ErrIPBlocked refuses a request from a blocked address.
var ErrIPBlocked = &Error{Status: http.StatusForbidden, Code: CodeIPBlocked, Message: "Requests from your network are blocked"}

// BlockKinds are the kinds of block.
var BlockKinds = []string{"ip", "email_domain"}

// MaxBlockReason is the longest reason a block keeps.
const MaxBlockReason = 500

// V1BlocksQuery documents the query of GET /api/v1/admin/blocks.
type V1BlocksQuery struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset int    `query:"offset" minimum:"0" default:"0"`
	Kind   string `query:"kind" enum:"ip,email_domain" description:"Only blocks of this kind."`
}

// V1BlockRequest is the body of POST /api/v1/admin/blocks.
type V1BlockRequest struct {
	Kind      string `json:"kind" required:"true" enum:"ip,email_domain"`
	Value     string `json:"value" required:"true" minLength:"1" maxLength:"253" description:"ip: an address or CIDR range (203.0.113.7, 203.0.113.0/24, 2001:db8::/32); a block of an IPv6 address, or of a range narrower than the client network (a /64 by default), refuses that whole network. email_domain: a domain, which covers its subdomains."`
	Reason    string `json:"reason,omitempty" maxLength:"500"`
	Severity  string `json:"severity,omitempty" enum:"all,signup,approval" description:"What it refuses: all (every blockable route; ip only), signup (opening an account), approval (an account opens only as an application for staff to approve). Default: all for ip, signup for email_domain."`
	ExpiresAt string `json:"expiresAt,omitempty" format:"date-time" description:"When the block stops applying; none: never."`
}

// Check reads the request with normalize, the block engine's parser of
// values, and returns the normalised value and expiry (nil: never), or
// what is wrong with it.
func (r *V1BlockRequest) Check(now time.Time, normalize func(kind, value string) (string, error)) (string, *time.Time, error) {
	r.Reason = strings.TrimSpace(r.Reason)
	var issues []Issue
	var value string
	if !oneOf(r.Kind, BlockKinds) {
		issues = append(issues, FieldIssue("kind", "invalid_enum_value", "kind must be ip or email_domain"))
	} else if v, err := normalize(r.Kind, r.Value); err != nil {
		issues = append(issues, FieldIssue("value", "invalid_string", err.Error()))
	} else {
		value = v
	}
	if len([]rune(r.Reason)) > MaxBlockReason {
		issues = append(issues, FieldIssue("reason", "too_big", atMost("reason", MaxBlockReason)))
	}
	var expires *time.Time
	if r.ExpiresAt != "" {
		at, err := time.Parse(time.RFC3339, r.ExpiresAt)
		switch {
		case err != nil:
			issues = append(issues, FieldIssue("expiresAt", "invalid_string", "expiresAt must be an RFC 3339 time"))
		case !at.After(now):
			issues = append(issues, FieldIssue("expiresAt", "too_small", "expiresAt must be in the future"))
		default:
			at = at.UTC()
			expires = &at
		}
	}
	if len(issues) > 0 {
		return "", nil, Invalid(issues...)
	}
	return value, expires, nil
}

// V1Block is a block as the list and its creation answer it.
type V1Block struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind" enum:"ip,email_domain"`
	Value     string  `json:"value" description:"Normalised: a CIDR range (a single address as /32 or /128), or a lower-case domain."`
	Reason    string  `json:"reason"`
	Severity  string  `json:"severity" enum:"all,signup,approval" description:"What it refuses (see the request's severity)."`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	CreatedBy *string `json:"createdBy" description:"The admin's id; null once that account is deleted."`
	ExpiresAt *string `json:"expiresAt" format:"date-time" description:"When it stops applying; null: never."`
	Expired   bool    `json:"expired" description:"It has stopped applying; it stays listed until deleted."`
}

// DeletedBlock answers a block's deletion.
type DeletedBlock struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}
