// Package states names the statuses a user and a post can be in, once:
// the models store them, the wire contract (api) filters and validates
// them, the pages compare them. It is a leaf, so that every layer shares
// it.
package states

// User statuses. A user's IsActive is false exactly when the status is
// inactive; a CHECK constraint holds the two together.
const (
	UserActive   = "active"
	UserInactive = "inactive"
	UserBanned   = "banned"
)

// Post statuses.
const (
	PostPublished = "published"
	PostDraft     = "draft"
	PostHidden    = "hidden"
	PostFlagged   = "flagged"
	// PostPending is a post its author asked to publish that the hold of
	// new accounts' posts keeps back until a moderator approves it: out of
	// view like a draft, in the moderation queue like a flagged post. Its
	// author sees it "awaiting approval".
	PostPending = "pending"
)
