package api

// TwoFactorSetup answers POST /api/auth/2fa/setup: a new secret, not yet
// enabled, for the person's authenticator app.
type TwoFactorSetup struct {
	Secret     string `json:"secret" description:"The base32 secret, for typing into an app by hand."`
	OTPAuthURL string `json:"otpauthUrl" description:"The otpauth:// URL the QR code holds."`
	QRCode     string `json:"qrCode" description:"The QR code as a data:image/png;base64 URL."`
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
}

// TwoFactorDisabled answers POST /api/auth/2fa/disable.
type TwoFactorDisabled struct {
	Enabled bool `json:"enabled"`
}

// Confirmation is the body of POST /api/auth/confirm: the password, or a
// code for an account enrolled in two-factor sign-in.
type Confirmation struct {
	Password string `json:"password,omitempty"`
	TOTP     string `json:"totp,omitempty"`
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
}

// TwoFactorStep is the sign-in page's second step: the code of an account
// whose password was right.
type TwoFactorStep struct {
	Email       string
	CallbackURL string
	Error       string
}
