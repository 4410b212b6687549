package api

import (
	"net/http"
	"strings"
)

// Issue is one problem with one input field. Families render issues in
// their own shapes: v1, general and the analytics collector as {field,
// reason, issues:[{field, reason}]}, the unversioned admin family as zod
// issues {code, expected, received, path, message}.
type Issue struct {
	Path     []string // e.g. ["limit"] or ["events", "3", "event_type"]
	Code     string   // zod-style: invalid_type, too_small, too_big, invalid_string, custom, unrecognized_keys
	Message  string
	Expected string
	Received string
}

// Field is the issue's path joined with dots.
func (i Issue) Field() string { return strings.Join(i.Path, ".") }

// ValidationError is invalid input: one or more issues.
type ValidationError struct {
	Message string
	Issues  []Issue
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid input:")
	for _, i := range e.Issues {
		b.WriteString(" " + i.Field() + ": " + i.Message + ";")
	}
	return b.String()
}

// Invalid builds a ValidationError from issues.
func Invalid(issues ...Issue) *ValidationError {
	return &ValidationError{Message: "Invalid input", Issues: issues}
}

// FieldIssue is an issue on one top-level field.
func FieldIssue(field, code, message string) Issue {
	return Issue{Path: []string{field}, Code: code, Message: message}
}

// FieldReason is the {field, reason} detail of the v1 and general families.
type FieldReason struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// ZodIssue is the validation detail of the unversioned admin family
// (zod's issue shape).
type ZodIssue struct {
	Code     string   `json:"code"`
	Expected string   `json:"expected,omitempty"`
	Received string   `json:"received,omitempty"`
	Path     []string `json:"path"`
	Message  string   `json:"message"`
}

// InvalidDetails is the details object of a VALIDATION_ERROR in the v1
// and general families: the first problem's field and reason, which is
// the shape the contract shows (error.details.field), and every problem
// beside them, so that none is lost.
type InvalidDetails struct {
	Field  string        `json:"field" description:"The first problem's field, a dotted path (events.2.event_type); empty for the body as a whole."`
	Reason string        `json:"reason" description:"What is wrong with that field."`
	Issues []FieldReason `json:"issues" minItems:"1" description:"Every problem, the first included, each as {field, reason}."`
}

// FieldDetails renders issues for the v1, general and collector families; nil when
// there are none.
func (e *ValidationError) FieldDetails() *InvalidDetails {
	if len(e.Issues) == 0 {
		return nil
	}
	out := &InvalidDetails{Issues: make([]FieldReason, len(e.Issues))}
	for i, is := range e.Issues {
		out.Issues[i] = FieldReason{Field: is.Field(), Reason: is.Message}
	}
	out.Field, out.Reason = out.Issues[0].Field, out.Issues[0].Reason
	return out
}

// ZodIssues renders issues for the unversioned admin family.
func (e *ValidationError) ZodIssues() []ZodIssue {
	out := make([]ZodIssue, len(e.Issues))
	for i, is := range e.Issues {
		path := is.Path
		if path == nil {
			path = []string{}
		}
		out[i] = ZodIssue{Code: is.Code, Expected: is.Expected, Received: is.Received, Path: path, Message: is.Message}
	}
	return out
}

// Common errors with fixed public messages.
var (
	ErrUnauthorized  = &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "Authentication required"}
	ErrInvalidToken  = &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "Invalid, expired or revoked token"}
	ErrForbidden     = &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: "Insufficient permissions"}
	ErrNotFound      = &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "Resource not found"}
	ErrCrossOrigin   = &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: "Cross-origin request refused"}
	ErrMalformedJSON = &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidationError, Message: "Malformed JSON body"}
)

// PermissionError says which permission a caller lacks.
type PermissionError struct {
	Required string
}

func (e *PermissionError) Error() string { return "missing permission " + e.Required }

func oneOf(v string, allowed []string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
