package api

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestErrorBodies pins each family's envelope for a validation error and a
// plain refusal (docs/api.md, "Families and their errors").
func TestErrorBodies(t *testing.T) {
	invalid := &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidationError, Message: "Invalid input",
		Details: Invalid(Issue{Path: []string{"limit"}, Code: "too_big", Message: "limit must be between 1 and 100"})}
	two := &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidationError, Message: "Invalid input",
		Details: Invalid(FieldIssue("limit", "too_big", "limit must be between 1 and 100"), FieldIssue("sort", "invalid_enum_value", "sort must be one of title"))}
	limited := &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited, Message: "Too many requests; try again later"}
	denied := &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: "Insufficient permissions", RequiredPermission: "admin:super"}
	tests := []struct {
		fam        Family
		err        *Error
		wantStatus int
		wantBody   string
	}{
		{FamilyV1, invalid, 422, `{"success":false,"error":{"code":"VALIDATION_ERROR","message":"Invalid input","details":{"field":"limit","reason":"limit must be between 1 and 100","issues":[{"field":"limit","reason":"limit must be between 1 and 100"}]}}}`},
		{FamilyV1, two, 422, `{"success":false,"error":{"code":"VALIDATION_ERROR","message":"Invalid input","details":{"field":"limit","reason":"limit must be between 1 and 100","issues":[{"field":"limit","reason":"limit must be between 1 and 100"},{"field":"sort","reason":"sort must be one of title"}]}}}`},
		{FamilyV1, ErrMalformedJSON, 422, `{"success":false,"error":{"code":"VALIDATION_ERROR","message":"Malformed JSON body"}}`},
		{FamilyV1, denied, 403, `{"success":false,"error":{"code":"INSUFFICIENT_ADMIN_PERMISSIONS","message":"Insufficient permissions","requiredPermission":"admin:super"}}`},
		{FamilyGeneral, invalid, 422, `{"error":{"code":"VALIDATION_ERROR","message":"Invalid input","details":{"field":"limit","reason":"limit must be between 1 and 100","issues":[{"field":"limit","reason":"limit must be between 1 and 100"}]}}}`},
		{FamilyGeneral, two, 422, `{"error":{"code":"VALIDATION_ERROR","message":"Invalid input","details":{"field":"limit","reason":"limit must be between 1 and 100","issues":[{"field":"limit","reason":"limit must be between 1 and 100"},{"field":"sort","reason":"sort must be one of title"}]}}}`},
		{FamilyAdmin, invalid, 400, `{"error":"Invalid input","details":[{"code":"too_big","path":["limit"],"message":"limit must be between 1 and 100"}]}`},
		{FamilyPublic, limited, 429, `{"error":"Too many requests; try again later"}`},
		{FamilyCollector, limited, 429, `{"success":false,"error":"Too many requests; try again later"}`},
		{FamilyCollector, invalid, 400, `{"success":false,"error":"Invalid input","details":{"field":"limit","reason":"limit must be between 1 and 100","issues":[{"field":"limit","reason":"limit must be between 1 and 100"}]}}`},
		{FamilyAvatar, invalid, 400, `{"error":"Invalid input","status":400}`},
		{FamilyNextAuth, limited, 429, `{"url":"/api/auth/error?error=RATE_LIMITED"}`},
		{FamilyNextAuth, &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "Invalid email or password"}, 401,
			`{"url":"/api/auth/error?error=CredentialsSignin"}`},
		{FamilyNextAuth, &Error{Status: http.StatusForbidden, Code: CodeCSRFInvalid}, 403, `{"url":"/api/auth/error?error=MissingCSRF"}`},
	}
	for _, tt := range tests {
		t.Run(tt.fam.String()+"/"+tt.err.Code, func(t *testing.T) {
			status, body := tt.fam.ErrorBody(tt.err)
			got, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.wantStatus || string(got) != tt.wantBody {
				t.Errorf("got %d %s\nwant %d %s", status, got, tt.wantStatus, tt.wantBody)
			}
		})
	}
}
