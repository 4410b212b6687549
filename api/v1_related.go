package api

import (
	"net/url"
	"strconv"
)

// V1RelatedAccounts answers GET /api/v1/admin/users/{id}/related: the
// accounts that share an address, a range or a mailbox with the user, most
// reasons first, then newest.
type V1RelatedAccounts struct {
	User      V1UserRef          `json:"user"`
	Accounts  []V1RelatedAccount `json:"accounts"`
	Truncated bool               `json:"truncated" description:"More accounts are related than limit: the list holds the first limit of them."`
}

// V1UserRef names a user.
type V1UserRef struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// The reasons an account is related to another (V1RelatedAccount.Reasons).
const (
	RelatedAddress = "address"
	RelatedEmail   = "email"
	RelatedRange   = "range"
	RelatedSignup  = "signup"
)

// V1RelatedAccount is an account related to another, and why.
type V1RelatedAccount struct {
	ID              string   `json:"id"`
	Username        string   `json:"username"`
	Email           string   `json:"email"`
	Status          string   `json:"status" enum:"active,inactive,banned" description:"As of now: a temporary ban that ran out shows active."`
	CreatedAt       string   `json:"createdAt" format:"date-time" description:"When the account was made."`
	PostCount       int      `json:"postCount" description:"Posts written, whatever their status."`
	ReportsReceived int      `json:"reportsReceived" description:"Reports filed against the account's posts, whatever became of them."`
	Reasons         []string `json:"reasons" description:"Sorted, among address (it signed up or signed in from one of the user's addresses), email (its email reaches the user's mailbox: case, +tags and Gmail's dots aside), range (it used another address of a /24 or /64 one of the user's addresses is in) and signup (it signed up within a minute of the user, from the user's sign-up range)."`
	Addresses       []string `json:"addresses" description:"The user's addresses it used, sorted."`
	Ranges          []string `json:"ranges" description:"The user's ranges it used another address of, or signed up from in the same minute, sorted."`
}

// V1RelatedQuery documents the query of GET
// /api/v1/admin/users/{id}/related.
type V1RelatedQuery struct {
	Limit int `query:"limit" minimum:"1" maximum:"500" default:"100" description:"Accounts at most; truncated says when more are related."`
}

// The bounds of limit in GET /api/v1/admin/users/{id}/related.
const (
	DefaultRelatedLimit = 100
	MaxRelatedLimit     = 500
)

// ParseV1Related reads limit (1..500, default 100); anything else is an
// issue, never clamped.
func ParseV1Related(q url.Values) (int, error) {
	v, ok := param(q, "limit")
	if !ok {
		return DefaultRelatedLimit, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return 0, Invalid(FieldIssue("limit", "invalid_type", "limit must be an integer"))
	case n < 1:
		return 0, Invalid(FieldIssue("limit", "too_small", "limit must be between 1 and 500"))
	case n > MaxRelatedLimit:
		return 0, Invalid(FieldIssue("limit", "too_big", "limit must be between 1 and 500"))
	}
	return n, nil
}
