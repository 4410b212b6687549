package api

// Types the OpenAPI document shows where a handler's own type leaves a
// part open (an `any`), so that the document spells out each route's body
// and the response checks of the tests (app/apptest) hold handlers to it.

// V1Of is the versioned admin envelope (V1) of one result, its data typed.
type V1Of[T any] struct {
	Success bool `json:"success" const:"true"`
	Data    T    `json:"data"`
}

// V1PageOf is the versioned admin envelope of a list page (Page).
type V1PageOf[T any] struct {
	Success bool   `json:"success" const:"true"`
	Data    []T    `json:"data"`
	Meta    V1Meta `json:"meta"`
}

// V1PagedOf is the versioned admin envelope of an object that carries a
// page of rows (the user-activity report): its pagination counts the rows.
type V1PagedOf[T any] struct {
	Success bool   `json:"success" const:"true"`
	Data    T      `json:"data"`
	Meta    V1Meta `json:"meta"`
}

// V1Invalid is the v1 family's 422: {success:false, error:{code, message,
// details:{field, reason, issues:[{field, reason}]}}}.
type V1Invalid struct {
	Success bool        `json:"success" const:"false"`
	Error   InvalidBody `json:"error"`
}

// GeneralInvalid is the general API's 422: {error:{code, message,
// details:{field, reason, issues:[{field, reason}]}}}.
type GeneralInvalid struct {
	Error InvalidBody `json:"error"`
}

// InvalidBody is the error object of a 422 VALIDATION_ERROR; a body that
// is not JSON at all has no details.
type InvalidBody struct {
	Code    string          `json:"code" const:"VALIDATION_ERROR"`
	Message string          `json:"message"`
	Details *InvalidDetails `json:"details,omitempty"`
}

// AdminInvalid is the unversioned admin family's 400: {error, details:[zod issues]}.
type AdminInvalid struct {
	Error   string     `json:"error"`
	Details []ZodIssue `json:"details,omitempty"`
}

// OpenAPIDocument is the body of GET /api/openapi.json: an OpenAPI 3.1 document.
type OpenAPIDocument map[string]any
