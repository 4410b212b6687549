package api

import "net/http"

// Family is a group of routes that share an error envelope (docs/api.md,
// "Families and their errors"). Every route names its family in the route table.
type Family int

// The families. The public utilities share one shape, except the
// collector and the avatar endpoint, which have their own.
const (
	FamilyConsole   Family = iota + 1 // HTML pages: an error page, or an alert for htmx
	FamilyV1                          // /api/v1/admin: {success:false, error:{code, message, …}}
	FamilyAdmin                       // the unversioned /api/admin: {error, details}
	FamilyGeneral                     // the rest of /api: {error:{code, message, details}}
	FamilyPublic                      // link preview, og-image, version, health: {error, details}
	FamilyCollector                   // analytics collection: {success:false, error, details}
	FamilyAvatar                      // avatar-image: {error, status}
	FamilyNextAuth                    // next-auth's client protocol: {url} of the error page naming the error
)

// String names the family in logs and test output.
func (f Family) String() string {
	return [...]string{"undeclared", "console", "v1", "admin", "general", "public", "collector", "avatar", "nextauth"}[f]
}

// ErrorBody is e as the family writes it: the status and the JSON body.
// The unversioned admin family and the public utilities answer invalid
// input with 400 where the others use 422. The
// console family has no JSON body; its errors are pages.
func (f Family) ErrorBody(e *Error) (int, any) {
	ve, _ := e.Details.(*ValidationError)
	switch f {
	case FamilyV1:
		body := e.objectBody(ve)
		if e.RequiredPermission != "" {
			body.Code = CodeInsufficientAdminPermissions
		}
		body.RequiredPermission, body.LockedBy, body.LockedAt = e.RequiredPermission, e.LockedBy, e.LockedAt
		return e.Status, V1Error{Error: body}
	case FamilyGeneral, FamilyConsole:
		return e.Status, GeneralError{Error: e.objectBody(ve)}
	case FamilyNextAuth:
		// A path: the error handler puts the public URL before it.
		return e.Status, NextAuthURL{URL: AuthErrorPath(NextAuthErrorName(e.Code))}
	}
	status := e.Status
	if e.Code == CodeValidationError {
		status = http.StatusBadRequest
	}
	switch f {
	case FamilyCollector:
		var details *InvalidDetails
		if ve != nil {
			details = ve.FieldDetails()
		}
		var code string
		if e.Code == CodeIPBlocked {
			code = e.Code
		}
		return status, CollectFailure{Error: e.Message, Code: code, Details: details}
	case FamilyAvatar:
		return status, AvatarFailure{Error: e.Message, Status: status}
	}
	var details any = e.Details
	if ve != nil {
		details = ve.ZodIssues()
	}
	return status, PublicError{Error: e.Message, Details: details}
}

func (e *Error) objectBody(ve *ValidationError) GeneralErrorBody {
	body := GeneralErrorBody{Code: e.Code, Message: e.Message, Details: e.Details}
	if ve != nil {
		body.Details = nil
		if d := ve.FieldDetails(); d != nil {
			body.Details = d
		}
	}
	return body
}
