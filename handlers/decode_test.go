package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestBodiesMustBeObjects: JSON that is not an object (null, an array, a
// number, a string, a boolean) is refused as invalid input in each
// family's shape on every route that reads a JSON body, and changes
// nothing. Decoding null into a request left it empty, which passed for a
// body of defaults: PUT …/feature-flags/{name} with null created a flag.
func TestBodiesMustBeObjects(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		u := app.UserWithPassword(t, "member@example.com", "a long password 1")
		member := app.SessionFor(t, u.ID)
		routes := []struct {
			method, path string
			as           http.Header
			family       api.Family
		}{
			{"PUT", "/api/v1/admin/feature-flags/from_null", super, api.FamilyV1},
			{"PUT", "/api/v1/admin/users/" + itoa(u.ID), super, api.FamilyV1},
			{"POST", "/api/v1/admin/users/" + itoa(u.ID) + "/ban", super, api.FamilyV1},
			{"POST", "/api/v1/admin/notifications/broadcast", super, api.FamilyV1},
			{"POST", "/api/v1/admin/locks", super, api.FamilyV1},
			{"POST", "/api/v1/admin/system/maintenance", super, api.FamilyV1},
			{"POST", api.AdminUserBanPath(u.ID), super, api.FamilyAdmin},
			{"POST", "/api/posts", member, api.FamilyGeneral},
			{"PUT", "/api/users/" + itoa(u.ID), member, api.FamilyGeneral},
			{"DELETE", "/api/users/" + itoa(u.ID), member, api.FamilyGeneral},
			{"POST", "/api/users", nil, api.FamilyGeneral},
			{"POST", api.PathSignIn, nil, api.FamilyGeneral},
		}
		for _, r := range routes {
			for body, kind := range map[string]string{"null": "null", " [] ": "array", `[{"enabled":true}]`: "array", "42": "number",
				`"on"`: "string", "true": "boolean", "-1.5": "number"} {
				res := apptest.DoBody(t, app, r.method, r.path, r.as, body)
				if msg := notAnObject(res.Code, res.Body.Bytes(), r.family, kind); msg != "" {
					t.Errorf("%s %s with %s: %s: %d %s", r.method, r.path, body, msg, res.Code, res.Body)
				}
			}
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/feature-flags", super); strings.Contains(res.Body.String(), "from_null") {
			t.Errorf("a flag was created: %s", res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users/"+itoa(u.ID), super); !strings.Contains(res.Body.String(), `"status":"active"`) {
			t.Errorf("the member changed: %s", res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/session", member); !strings.Contains(res.Body.String(), `"user"`) {
			t.Errorf("the member's account or session went: %s", res.Body)
		}
	})
}

// notAnObject says what is wrong with a refusal of a body of kind, or "".
func notAnObject(status int, body []byte, fam api.Family, kind string) string {
	if fam == api.FamilyAdmin {
		var got struct {
			Error   string
			Details []api.ZodIssue
		}
		if json.Unmarshal(body, &got) != nil || status != 400 || len(got.Details) != 1 {
			return "want 400 with one issue"
		}
		if is := got.Details[0]; is.Code != "invalid_type" || is.Expected != "object" || is.Received != kind || len(is.Path) != 0 {
			return "want an invalid_type issue on the body"
		}
		return ""
	}
	var got struct {
		Error struct {
			Code    string
			Details *api.InvalidDetails
		}
	}
	if json.Unmarshal(body, &got) != nil || status != 422 || got.Error.Code != api.CodeValidationError {
		return "want 422 VALIDATION_ERROR"
	}
	if d := got.Error.Details; d == nil || d.Field != "" || d.Reason != "the body must be a JSON object, not "+kind || len(d.Issues) != 1 {
		return "want details on the body"
	}
	return ""
}
