package api

// SignInRequest is the body of POST /api/auth/signin, as JSON or a form
// (formData tags name the form's fields in the OpenAPI document). Fields
// beyond these are ignored: NextAuth-style clients send their own.
type SignInRequest struct {
	Email        string   `json:"email" formData:"email" required:"true"`
	Password     string   `json:"password" formData:"password" required:"true"`
	CallbackURL  string   `json:"callbackUrl" formData:"callbackUrl" description:"Where a browser goes once signed in (this site only)."`
	TOTP         string   `json:"totp,omitempty" description:"The six-digit code of an account enrolled in two-factor sign-in."`
	RecoveryCode string   `json:"recoveryCode,omitempty" description:"One of the account's one-time recovery codes, instead of totp."`
	_            struct{} `additionalProperties:"true"`
}

// ForceJSONRequestBody tells the OpenAPI reflector that the body comes as
// JSON too, not only as the form its formData tags describe.
func (SignInRequest) ForceJSONRequestBody() {}

// SessionUser is the user object of the session endpoints.
type SessionUser struct {
	ID    string  `json:"id"`
	Name  *string `json:"name"`
	Email string  `json:"email"`
	Image *string `json:"image"`
	Role  string  `json:"role" enum:"user,moderator,admin,super_admin" description:"The highest of the user's roles."`
}

// Session is the body of GET /api/auth/session and of a JSON sign-in.
type Session struct {
	User    SessionUser `json:"user"`
	Expires string      `json:"expires" format:"date-time"`
}

// Provider is one external sign-in provider (GET /api/auth/providers).
type Provider struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type" enum:"oauth,credentials"`
	SigninURL   string `json:"signinUrl"`
	CallbackURL string `json:"callbackUrl"`
}

// SignInPage is the view model of the sign-in page.
type SignInPage struct {
	Providers   []Provider
	Email       string
	CallbackURL string
	Error       string
	// Notice is good news the page opens with (a password just reset).
	Notice string
}

// SignOutPage is the view model of the sign-out confirmation page.
type SignOutPage struct {
	Email string
}

// Providers is the body of GET /api/auth/providers: the enabled providers by id.
type Providers map[string]Provider

// NoSession is the body of GET /api/auth/session without a signed-in session: {}.
type NoSession struct{}

// SignedOut is the body of a JSON POST /api/auth/signout: {}.
type SignedOut struct{}
