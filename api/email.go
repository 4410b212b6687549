package api

// EmailVerify is the body of POST /api/auth/email/verify: the token of
// the verification mail's link.
type EmailVerify struct {
	Token string `json:"token" required:"true"`
}

// EmailChange is the body of POST /api/auth/email/change: the new
// address, and the account's password.
type EmailChange struct {
	Email    string `json:"email" required:"true" maxLength:"254"`
	Password string `json:"password" required:"true"`
}

// EmailLinkSent answers POST /api/auth/email/resend and
// POST /api/auth/email/change: a link is on its way.
type EmailLinkSent struct {
	Message string `json:"message"`
}

// The answers of a verification link asked for again, and of a change of
// address asked for.
const (
	EmailResent        = "A new link is on its way to your address. It works once, for 24 hours."
	EmailChangeStarted = "A link is on its way to the new address. Your account keeps its address until the link is opened; it works once, for 24 hours."
)

// VerifyEmailPage is the view model of the page a verification link
// opens: the link's token and the button that sends it, or, once Verified,
// the address it verified. Errors are by field name (token, email).
type VerifyEmailPage struct {
	Token    string
	Errors   map[string]string
	Verified bool
	Email    string
}

// AccountEmail is the console's card of one's own address: whether it is
// verified, with the way to ask for a link again, and the form that
// changes it (for an account with a password).
type AccountEmail struct {
	Email       string
	Verified    bool
	HasPassword bool
}
