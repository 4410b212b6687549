package api

// TwoFactorSetup answers POST /api/auth/2fa/setup: a new secret, not yet
// enabled, for the person's authenticator app.
type TwoFactorSetup struct {
	Secret     string `json:"secret" description:"The base32 secret, for typing into an app by hand."`
	OTPAuthURL string `json:"otpauthUrl" description:"The otpauth:// URL the QR code holds."`
	QRCode     string `json:"qrCode" description:"The QR code as a data:image/png;base64 URL."`
}

// TwoFactorSetupRequest is the body of POST /api/auth/2fa/setup: the
// account's password, so that a session alone (a stolen one) enrols no
// authenticator. An account without a password (it signs in through a
// provider) sends {} within 10 minutes of signing in.
type TwoFactorSetupRequest struct {
	Password string `json:"password,omitempty" description:"The account's password; omitted for an account that signs in only through a provider, whose sign-in must then be under 10 minutes old."`
}

// TwoFactorCode is the body of POST /api/auth/2fa/enable.
type TwoFactorCode struct {
	Code string `json:"code" required:"true" description:"The six-digit code the app shows now."`
}

// TwoFactorEnabled answers POST /api/auth/2fa/enable: the ten recovery
// codes, shown this once.
type TwoFactorEnabled struct {
	RecoveryCodes []string `json:"recoveryCodes"`
}

// TwoFactorDisable is the body of POST /api/auth/2fa/disable.
type TwoFactorDisable struct {
	Password string `json:"password" required:"true"`
	Code     string `json:"code,omitempty" description:"While two-factor sign-in is on (required then): the six-digit code the app shows now, or an unused recovery code."`
}

// TwoFactorDisabled answers POST /api/auth/2fa/disable.
type TwoFactorDisabled struct {
	Enabled bool `json:"enabled"`
}

// Confirmation is the body of POST /api/auth/confirm: the password, or a
// code for an account enrolled in two-factor sign-in.
type Confirmation struct {
	Password string   `json:"password,omitempty" description:"The account's password."`
	TOTP     string   `json:"totp,omitempty" description:"A code from the authenticator app, for an enrolled account; checked instead of the password."`
	_        struct{} `minProperties:"1"`
}

// Confirmed answers POST and GET /api/auth/confirm: until when dangerous
// actions need no new confirmation (null when they need one now).
type Confirmed struct {
	Confirmed bool    `json:"confirmed"`
	Until     *string `json:"until"`
}

// TwoFactorStatus is the console's two-factor page for one person.
type TwoFactorStatus struct {
	Enabled   bool    `json:"enabled"`
	EnabledAt *string `json:"enabledAt"`
	Required  bool    `json:"required"`
	// HasPassword says whether setting up asks for the password.
	HasPassword bool `json:"hasPassword"`
}

// TwoFactorStep is the sign-in page's second step: the code of an account
// whose password was right.
type TwoFactorStep struct {
	Email       string
	CallbackURL string
	Error       string
}
