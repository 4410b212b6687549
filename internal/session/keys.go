// Package session names the values Plaza keeps in a browser session, so
// that sign-in (handlers), the request pipeline (web) and the tests that
// seed sessions read and write the same keys.
package session

// The keys of a session's values.
const (
	// UserKey holds the signed-in user's id; nothing else grants anything.
	UserKey = "user_id"
	// SeenKey is when the session was last written back (unix seconds),
	// for the idle deadline.
	SeenKey = "seen"
	// StartedKey is when the session's user signed in (unix seconds):
	// the session's lifetime counts from it.
	StartedKey = "started"
	// IdleKey is the session's own idle timeout (seconds), by its user's
	// role: the store keeps the session no longer than that past each
	// write-back.
	IdleKey = "idle"
	// IPKey and AgentKey are where the session was last used from, for the
	// list of one's sessions.
	IPKey    = "ip"
	AgentKey = "ua"
	// ConfirmedKey is when the session last confirmed its password or a
	// code (unix seconds): signing in counts, and dangerous actions need
	// one within the policy's window.
	ConfirmedKey = "confirmed_at"
	// PendingKey and PendingAtKey hold a half-done sign-in (right
	// password, code still to come): the user's id and when the password
	// was checked. They grant nothing.
	PendingKey   = "pending_user"
	PendingAtKey = "pending_at"
	// OAuthPendingKey holds an external sign-in under way.
	OAuthPendingKey = "oauth_pending"
)
