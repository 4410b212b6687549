package views

import (
	"strings"

	"github.com/plazahq/plaza/api"
)

// badgeClass is the colour of a state's badge, the same on every page.
func badgeClass(state string) string {
	switch state {
	case "active", "published", "completed", "resolved", "approved", "enabled", "healthy", "connected", "delivered":
		return "badge-success"
	case "banned", "failed", "deleted", "revoked", "unhealthy", "disconnected":
		return "badge-danger"
	case "hidden", "flagged", "pending", "open", "scheduled", "warning":
		return "badge-warning"
	case "queued", "running", "sending", api.RoleModerator, api.RoleAdmin, api.RoleSuperAdmin:
		return "badge-accent"
	}
	return "badge-neutral"
}

// stateLabel is a state as a word: "super_admin" reads "Super admin".
func stateLabel(state string) string {
	if state == "" {
		return ""
	}
	return strings.ToUpper(state[:1]) + strings.ReplaceAll(state[1:], "_", " ")
}

// postStatusLabel is a post's status as a word; a post held for approval
// is "Awaiting approval".
func postStatusLabel(status string) string {
	if status == api.PostPending {
		return "Awaiting approval"
	}
	return stateLabel(status)
}

// deltaClass colours a growth figure: green up, red down.
func deltaClass(delta string) string {
	switch {
	case strings.HasPrefix(delta, "+") && delta != "+0%" && delta != "+0.0%":
		return "text-emerald-700 dark:text-emerald-400"
	case strings.HasPrefix(delta, "-"):
		return "text-red-700 dark:text-red-400"
	}
	return "t-muted"
}

// relatedReason says why an account is related to another, as a badge
// reads it.
func relatedReason(reason string) string {
	switch reason {
	case api.RelatedAddress:
		return "Same address"
	case api.RelatedRange:
		return "Same range"
	case api.RelatedEmail:
		return "Same mailbox"
	case api.RelatedSignup:
		return "Signed up together"
	}
	return stateLabel(reason)
}
