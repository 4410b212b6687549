package api

// UserSession is one signed-in session as its owner and admins see it. ID
// is public (derived from the session's secret, which is never shown) and
// names the session to revoke.
type UserSession struct {
	ID         string `json:"id"`
	Device     string `json:"device" description:"Browser and system, read from the user agent: e.g. \"Firefox on Windows\"."`
	UserAgent  string `json:"userAgent"`
	IP         string `json:"ip" description:"The address of the session's latest write-back (sign-in, then at most once a minute)."`
	CreatedAt  string `json:"createdAt"`
	LastSeenAt string `json:"lastSeenAt" description:"Precise to a minute: a session is written back at most once a minute."`
	ExpiresAt  string `json:"expiresAt"`
	Current    bool   `json:"current" description:"The session this request came with."`
}

// UserSessions answers GET /api/auth/sessions: one's live sessions, most
// recently used first.
type UserSessions struct {
	Sessions []UserSession `json:"sessions"`
}

// SessionsRevoked answers a revocation: how many sessions it ended.
type SessionsRevoked struct {
	Revoked int `json:"revoked"`
}

// PasswordChange is the body of POST /api/auth/password.
type PasswordChange struct {
	CurrentPassword string `json:"currentPassword" required:"true"`
	NewPassword     string `json:"newPassword" required:"true"`
}

// PasswordForgot is the body of POST /api/auth/password/forgot.
type PasswordForgot struct {
	Email string `json:"email" required:"true" maxLength:"254"`
}

// PasswordForgotAccepted answers POST /api/auth/password/forgot, the same
// whether or not the address has an account.
type PasswordForgotAccepted struct {
	Message string `json:"message"`
}

// ForgotAccepted is the one answer to a reset link asked for.
const ForgotAccepted = "If an account uses this address, a link to choose a new password is on its way. It works for 60 minutes."

// ForgotPasswordPage is the view model of the page that asks for a reset
// link: the form, with Errors by field name when refused, or, once Sent,
// the one answer (ForgotAccepted) and whether the mail is kept on the
// console's mail page because no mail server is set.
type ForgotPasswordPage struct {
	Email    string
	Errors   map[string]string
	Sent     bool
	MailKept bool
}

// ResetPasswordPage is the view model of the page a reset link opens: the
// link's token, the new password asked twice, and the code field once the
// account turned out to need its two-factor code. Errors are by field name
// (token, password, confirm, code); Error is a message for the form as a
// whole.
type ResetPasswordPage struct {
	Token    string
	NeedCode bool
	Errors   map[string]string
	Error    string
}

// PasswordResetDone is the notice the sign-in page opens with after a
// reset; SignInNoticeReset is the query that asks for it.
const (
	PasswordResetDone = "Your password is changed; sign in with it."
	SignInNoticeReset = "reset"
)

// PasswordReset is the body of POST /api/auth/password/reset: the token of
// the mail's link, the new password, and for an account with two-factor
// sign-in a code from the app or a recovery code.
type PasswordReset struct {
	Token    string `json:"token" required:"true"`
	Password string `json:"password" required:"true"`
	Code     string `json:"code,omitempty"`
}

// PasswordChanged answers POST /api/auth/password: how many other sessions
// the change ended and how many API tokens it revoked.
type PasswordChanged struct {
	Changed         bool `json:"changed" const:"true"`
	RevokedSessions int  `json:"revokedSessions"`
	RevokedTokens   int  `json:"revokedTokens"`
}
