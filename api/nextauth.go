package api

import (
	"net/url"
	"regexp"
	"strings"
)

// The routes next-auth's client calls beside Plaza's own sign-in
// (docs/api.md, "next-auth").
const (
	PathCSRF                = "/api/auth/csrf"
	PathAuthError           = "/api/auth/error"
	PathCallbackCredentials = "/api/auth/callback/" + CredentialsProviderID
)

// CredentialsProviderID names password sign-in among the providers, as
// next-auth's credentials provider is named.
const CredentialsProviderID = "credentials"

// CodeCSRFInvalid refuses a next-auth post whose csrfToken is missing or
// is not the one its cookie carries.
const CodeCSRFInvalid = "CSRF_INVALID"

// CSRFToken is the body of GET /api/auth/csrf.
type CSRFToken struct {
	CSRFToken string `json:"csrfToken" description:"Post it back as the form field csrfToken; the cookie set beside it must come too."`
}

// NextAuthURL is next-auth's answer to its client's posts: where to go
// next. An error's is the error page naming the error (error=<name>).
type NextAuthURL struct {
	URL string `json:"url" format:"uri" description:"An absolute URL; on errors, /api/auth/error?error=<name>."`
}

// CredentialsSignIn is the form next-auth's signIn("credentials", …)
// posts: its options (email, password, redirect, …) beside the token,
// callbackUrl and json. Other fields are ignored.
type CredentialsSignIn struct {
	Email        string   `formData:"email" description:"The account's email. Missing: CredentialsSignin, as a wrong one is."`
	Password     string   `formData:"password"`
	CSRFToken    string   `formData:"csrfToken" required:"true" description:"From GET /api/auth/csrf, with its cookie."`
	CallbackURL  string   `formData:"callbackUrl" description:"Where to go once signed in (this site only; else the console)."`
	JSON         string   `formData:"json" enum:"true" description:"true: answer {url}, as next-auth's client asks; otherwise a redirect there."`
	TOTP         string   `formData:"totp" description:"The six-digit code of an account enrolled in two-factor sign-in."`
	RecoveryCode string   `formData:"recoveryCode" description:"One of the account's recovery codes, instead of totp."`
	_            struct{} `additionalProperties:"true"`
}

// NextAuthForm is the form of next-auth's other posts: sign-out and
// starting a provider's sign-in.
type NextAuthForm struct {
	CSRFToken   string   `formData:"csrfToken" description:"From GET /api/auth/csrf, with its cookie; required when json or csrfToken is sent."`
	CallbackURL string   `formData:"callbackUrl" description:"Where to go afterwards (this site only)."`
	JSON        string   `formData:"json" enum:"true" description:"true: answer {url}, as next-auth's client asks."`
	_           struct{} `additionalProperties:"true"`
}

// AuthErrorQuery is the query of the error page.
type AuthErrorQuery struct {
	Error string `query:"error" description:"The error's name: next-auth's (CredentialsSignin, MissingCSRF, …) or a Plaza code."`
}

// CredentialsProvider is password sign-in as next-auth's client lists
// it; base is the public URL.
func CredentialsProvider(base string) Provider {
	base = strings.TrimRight(base, "/")
	return Provider{ID: CredentialsProviderID, Name: "Email and password", Type: "credentials",
		SigninURL: base + PathSignIn, CallbackURL: base + PathCallbackCredentials}
}

// NextAuthErrorName is the name next-auth's client reads from an error's
// url for a Plaza error code: its own where it has one, else the code.
func NextAuthErrorName(code string) string {
	switch code {
	case CodeUnauthorized:
		return "CredentialsSignin"
	case CodeCSRFInvalid:
		return "MissingCSRF"
	}
	return code
}

// AuthErrorPath is the error page naming the error.
func AuthErrorPath(name string) string {
	return PathAuthError + "?" + url.Values{"error": {name}}.Encode()
}

// AuthErrorPage is the view model of the error page.
type AuthErrorPage struct {
	Name    string // shown when it is a plain name
	Title   string
	Message string
}

var errorName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)

// NewAuthErrorPage puts the error named in words.
func NewAuthErrorPage(name string) AuthErrorPage {
	p := AuthErrorPage{Title: "Sign-in could not be completed", Message: "Something stopped the sign-in. Please try again."}
	if errorName.MatchString(name) {
		p.Name = name
	}
	if w, ok := authErrorWords[name]; ok {
		p.Title, p.Message = w[0], w[1]
	}
	return p
}

// authErrorWords are the errors Plaza names, next-auth's first.
var authErrorWords = map[string][2]string{
	"CredentialsSignin": {"Sign-in failed", "The email or password is wrong, or the account cannot sign in."},
	"MissingCSRF": {"This form has expired", "The sign-in or sign-out form did not carry this browser's security token. " +
		"Reload the page and try again."},
	"Configuration":         {"Sign-in is not set up", "The server's sign-in settings are incomplete; tell the site's operator."},
	"AccessDenied":          {"Access denied", "You may not sign in here."},
	"Verification":          {"The link has expired", "The sign-in link is no longer valid. Ask for a new one."},
	"OAuthSignin":           {"Sign-in could not start", "The sign-in with the provider could not be started. Please try again."},
	"OAuthCallback":         {"The provider's answer was refused", "The sign-in with the provider could not be completed. Please try again."},
	"OAuthAccountNotLinked": {"Use your usual sign-in", "This email belongs to an account that signs in another way."},
	"SessionRequired":       {"Please sign in", "This page needs you to be signed in."},
	CodeTOTPRequired: {"Your code is needed", "This account uses two-factor sign-in: send the code from your " +
		"authenticator app (totp) or a recovery code (recoveryCode) with the password."},
	CodeTOTPInvalid: {"That code did not work", "The code is wrong or was already used."},
	CodeRateLimited: {"Too many attempts", "There were too many sign-in attempts. Wait a while before trying again."},
	CodeIPBlocked:   {"Sign-in is blocked", "Sign-in is not accepted from your network."},
	CodeForbidden:   {"Request refused", "The request did not come from this site's own pages."},
	CodeNotFound:    {"Unknown sign-in method", "This site does not offer that way of signing in."},
	CodeServerError: {"Something went wrong on our side", "Sign-in failed because of a problem on the server. Please try again."},
}
