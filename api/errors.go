package api

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Error codes of the versioned admin and general families (docs/api.md,
// "Families and their errors").
const (
	CodeUnauthorized                 = "UNAUTHORIZED"
	CodeForbidden                    = "FORBIDDEN"
	CodeInsufficientAdminPermissions = "INSUFFICIENT_ADMIN_PERMISSIONS"
	CodeNotFound                     = "NOT_FOUND"
	CodeValidationError              = "VALIDATION_ERROR"
	CodeResourceLocked               = "RESOURCE_LOCKED"
	CodeConflict                     = "CONFLICT"
	CodeRateLimited                  = "RATE_LIMITED"
	CodePayloadTooLarge              = "PAYLOAD_TOO_LARGE"
	CodeMethodNotAllowed             = "METHOD_NOT_ALLOWED"
	CodeServerError                  = "SERVER_ERROR"
	// CodeSelfActionForbidden refuses an admin action on one's own
	// account (banning oneself, changing one's own status or role): no
	// permission would allow it, so it is not INSUFFICIENT_ADMIN_PERMISSIONS.
	CodeSelfActionForbidden = "SELF_ACTION_FORBIDDEN"
	// CodeUserSilenced refuses a silenced member's own write (a post, an
	// edit, a report, the profile) until the silence ends.
	CodeUserSilenced = "USER_SILENCED"
	// CodeEmailUnverified refuses what waits for the acting account's
	// address to be verified: posting and reporting under
	// REQUIRE_VERIFIED_EMAIL, linking a sign-in provider.
	CodeEmailUnverified = "EMAIL_UNVERIFIED"
	// Sign-ups the registration rules refuse (docs/api.md,
	// "Registration"): paused for some hours, closed, invite-only without
	// an invitation, or from a network blocked from opening accounts.
	CodeRegistrationPaused = "REGISTRATION_PAUSED"
	CodeRegistrationClosed = "REGISTRATION_CLOSED"
	CodeInvitationRequired = "INVITATION_REQUIRED"
	CodeSignUpBlocked      = "SIGNUP_BLOCKED"
	// Two-factor sign-in and re-confirmation (docs/api.md, "Two-factor
	// sign-in").
	CodeTOTPRequired      = "TOTP_REQUIRED"
	CodeTOTPInvalid       = "TOTP_INVALID"
	CodeTwoFactorRequired = "TWO_FACTOR_REQUIRED"
	CodeSudoRequired      = "SUDO_REQUIRED"
)

// Error is a failure with a public face: the status, a code, a message a
// client may read and optional details. The web error handler renders it in
// the envelope of the caller's family; Cause is logged, never shown.
type Error struct {
	Status  int
	Code    string
	Message string
	Details any
	Cause   error
	// Extra fields of the v1 error object: requiredPermission on a 403,
	// lockedBy and lockedAt on a 423.
	RequiredPermission string
	LockedBy           string
	LockedAt           string
	// RetryAfter is set on 429s (seconds until the window resets) and
	// 503s (seconds to wait before trying again).
	RetryAfter int
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%d %s: %s: %v", e.Status, e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// CodeForStatus is the default code of a status.
func CodeForStatus(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return CodeUnauthorized
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusUnprocessableEntity, http.StatusBadRequest:
		return CodeValidationError
	case http.StatusConflict:
		return CodeConflict
	case http.StatusLocked:
		return CodeResourceLocked
	case http.StatusTooManyRequests:
		return CodeRateLimited
	case http.StatusRequestEntityTooLarge:
		return CodePayloadTooLarge
	case http.StatusMethodNotAllowed:
		return CodeMethodNotAllowed
	}
	return CodeServerError
}

// DatabaseRetryAfter is the Retry-After, in seconds, of an answer refused
// because the database could not be reached: a restart takes a few
// seconds, and clients that come back sooner only add to the queue.
const DatabaseRetryAfter = 2

// DatabaseUnavailable answers a request that the database, refusing
// connections or restarting, could not serve: 503 SERVER_ERROR with
// Retry-After, so that the client sends it again rather than take it
// for a bug (docs/api.md, "When the database is away").
func DatabaseUnavailable(cause error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeServerError,
		Message: "The service cannot reach its database right now; retry shortly", RetryAfter: DatabaseRetryAfter, Cause: cause}
}

// ErrVersionUnknown answers GET /api/version when no version can be read.
func ErrVersionUnknown(cause error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeServerError,
		Message: "Version information is not available", Details: cause.Error()}
}

// PublicError is the body of the public utilities' errors.
type PublicError struct {
	Error   string `json:"error"`
	Details any    `json:"details,omitempty"`
}

// GeneralError is the body of the general API's errors.
type GeneralError struct {
	Error GeneralErrorBody `json:"error"`
}

// GeneralErrorBody is the error object of the general and v1 envelopes;
// the v1 family adds requiredPermission (403) and lockedBy/lockedAt (423).
type GeneralErrorBody struct {
	Code               string `json:"code" enum:"UNAUTHORIZED,FORBIDDEN,INSUFFICIENT_ADMIN_PERMISSIONS,NOT_FOUND,VALIDATION_ERROR,CONFLICT,RESOURCE_LOCKED,RATE_LIMITED,PAYLOAD_TOO_LARGE,METHOD_NOT_ALLOWED,SERVER_ERROR,IP_BLOCKED,TOTP_REQUIRED,TOTP_INVALID,TWO_FACTOR_REQUIRED,SUDO_REQUIRED,SELF_ACTION_FORBIDDEN,USER_SILENCED,EMAIL_UNVERIFIED,CSRF_INVALID,REGISTRATION_PAUSED,REGISTRATION_CLOSED,INVITATION_REQUIRED,SIGNUP_BLOCKED"`
	Message            string `json:"message"`
	Details            any    `json:"details,omitempty"`
	RequiredPermission string `json:"requiredPermission,omitempty"`
	LockedBy           string `json:"lockedBy,omitempty"`
	LockedAt           string `json:"lockedAt,omitempty" format:"date-time"`
}

// V1Error is the body of the versioned admin family's errors.
type V1Error struct {
	Success bool             `json:"success"`
	Error   GeneralErrorBody `json:"error"`
}

// ErrorView is an error as the console shows it in an alert.
type ErrorView struct {
	Status  int
	Message string
	Issues  []ViewIssue // one per invalid field
}

// ViewIssue is what is wrong with one field: its dotted path (empty for
// the body as a whole) and the message.
type ViewIssue struct {
	Field   string
	Message string
}

// NewErrorView describes e for the console.
func NewErrorView(e *Error) ErrorView {
	v := ErrorView{Status: e.Status, Message: e.Message}
	if ve, ok := e.Details.(*ValidationError); ok {
		for _, is := range ve.Issues {
			v.Issues = append(v.Issues, ViewIssue{Field: strings.Join(is.Path, "."), Message: is.Message})
		}
	}
	if e.LockedBy != "" {
		since := e.LockedAt
		if t, err := time.Parse(time.RFC3339Nano, e.LockedAt); err == nil {
			since = t.UTC().Format("15:04 UTC")
		}
		v.Message = "Being edited by " + e.LockedBy + " since " + since + "."
	}
	return v
}
