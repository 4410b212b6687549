package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/flags"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestFeatureFlags: a put creates (201) then changes (200) a flag, with
// before and after in the audit entry; the list shows it; each signed-in
// user gets the answer of the flag's rollout; a delete removes it.
func TestFeatureFlags(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, root := app.Admin(t)
		path := "/api/v1/admin/feature-flags/new_editor"
		res := apptest.DoBody(t, app, "PUT", path, super, `{"description":"The new post editor"}`)
		if res.Code != 201 || !strings.Contains(res.Body.String(), `"enabled":false,"rolloutPercentage":0`) ||
			!strings.Contains(res.Body.String(), `"updatedBy":"`+itoa(root.ID)+`"`) {
			t.Fatalf("create: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", path, super, `{"enabled":true,"rolloutPercentage":30}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"description":"The new post editor","enabled":true,"rolloutPercentage":30`) {
			t.Fatalf("update: %d %s", res.Code, res.Body)
		}
		e := lastEntry(t, app, "feature_flag.update")
		before, _ := e.Details["before"].(map[string]any)
		after, _ := e.Details["after"].(map[string]any)
		if e.TargetID != "new_editor" || before["enabled"] != false || after["rolloutPercentage"] != float64(30) {
			t.Errorf("audit entry: %s %v", e.TargetID, e.Details)
		}
		apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/dark_mode", super, `{"enabled":true,"rolloutPercentage":100}`)
		list := apptest.Do(t, app, "GET", "/api/v1/admin/feature-flags", super).Body.String()
		if strings.Index(list, `"name":"dark_mode"`) > strings.Index(list, `"name":"new_editor"`) || strings.Count(list, `"name"`) != 2 {
			t.Errorf("the list, by name: %s", list)
		}
		for _, email := range []string{"a@example.com", "b@example.com", "c@example.com"} {
			u := app.User(t, email)
			res := apptest.Do(t, app, "GET", "/api/feature-flags", app.SessionFor(t, u.ID))
			var got map[string]bool
			json.Unmarshal(res.Body.Bytes(), &got)
			if res.Code != 200 || !got["dark_mode"] || got["new_editor"] != flags.On("new_editor", true, 30, u.ID) {
				t.Errorf("%s: %d %v", email, res.Code, got)
			}
		}
		if res := apptest.Do(t, app, "GET", "/api/feature-flags", nil); res.Code != 401 {
			t.Errorf("anonymous: %d", res.Code)
		}
		if res := apptest.Do(t, app, "DELETE", path, super); res.Code != 200 || !strings.Contains(res.Body.String(), `"deleted":true`) {
			t.Errorf("delete: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", path, super); res.Code != 404 {
			t.Errorf("delete again: %d", res.Code)
		}
	})
}

// TestFeatureFlagList: the list is a page by name with meta.pagination,
// limit and offset honoured as in every v1 list, and the console's page
// moves through it.
func TestFeatureFlagList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		for _, name := range []string{"echo", "alpha", "delta", "bravo", "charlie"} {
			if res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/"+name, super, `{}`); res.Code != 201 {
				t.Fatalf("create %s: %d %s", name, res.Code, res.Body)
			}
		}
		list := func(query string) (names []string, p api.Pagination) {
			res := apptest.Do(t, app, "GET", "/api/v1/admin/feature-flags"+query, super)
			var got struct {
				Data []struct{ Name string }
				Meta *struct{ Pagination api.Pagination }
			}
			if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 || got.Meta == nil {
				t.Fatalf("%s: %d %s", query, res.Code, res.Body)
			}
			for _, f := range got.Data {
				names = append(names, f.Name)
			}
			return names, got.Meta.Pagination
		}
		if names, p := list(""); strings.Join(names, " ") != "alpha bravo charlie delta echo" || p != (api.Pagination{Total: 5, Limit: 50}) {
			t.Errorf("the whole list: %v %+v", names, p)
		}
		if names, p := list("?limit=2&offset=2"); strings.Join(names, " ") != "charlie delta" || p != (api.Pagination{Total: 5, Limit: 2, Offset: 2, HasMore: true}) {
			t.Errorf("a middle page: %v %+v", names, p)
		}
		if names, p := list("?limit=2&offset=4"); strings.Join(names, " ") != "echo" || p.HasMore {
			t.Errorf("the last page: %v %+v", names, p)
		}
		for query, field := range map[string]string{"limit=0": "limit", "limit=101": "limit", "offset=-1": "offset", "limit=all": "limit"} {
			wantInvalid(t, app, "GET", "/api/v1/admin/feature-flags?"+query, super, "", field)
		}
		page := apptest.Do(t, app, "GET", api.PathConsoleFlags+"?limit=2", withHeader(super, "Accept", "text/html")).Body.String()
		if !strings.Contains(page, `data-testid="page-next"`) || !strings.Contains(page, "alpha") || strings.Contains(page, "charlie") {
			t.Errorf("the console's first page of two flags has no next page")
		}
	})
}

// TestFeatureFlagRefusals: 422 for a bad name or body, 403 without
// admin:super, 423 under another admin's lock and through for the holder.
func TestFeatureFlagRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		for target, body := range map[string]string{
			"Bad_Name": `{}`, "x": `{}`, "ok_name?rollout=1": `{"rolloutPercentage":101}`,
			"ok_name": `{"enabled":"yes"}`, "ok.name": `{"description":"` + strings.Repeat("d", 501) + `"}`, "ok-name": `{"owner":"me"}`,
			"not_null": `null`, "not_array": `[{"enabled":true}]`, "not_number": `1`, "not_string": `"on"`, "not_true": ` true`,
		} {
			if res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/"+target, super, body); res.Code != 422 {
				t.Errorf("%s %.30s: %d %s, want 422", target, body, res.Code, res.Body)
			}
		}
		for _, name := range []string{"not_null", "not_array", "not_number", "not_string", "not_true"} {
			if res := apptest.Do(t, app, "GET", "/api/v1/admin/feature-flags", super); strings.Contains(res.Body.String(), name) {
				t.Errorf("a body that is not an object created flag %s", name)
			}
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/beta", app.SessionFor(t, boss.ID), `{"enabled":true}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:super" {
			t.Errorf("an admin without admin:super: %d %s", res.Code, res.Body)
		}
		other := app.User(t, "other@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		otherSession := app.SessionFor(t, other.ID)
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", otherSession, `{"type":"feature_flag","id":"beta"}`); res.Code != 201 {
			t.Fatalf("lock: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/beta", super, `{"enabled":true}`); res.Code != 423 {
			t.Errorf("under another admin's lock: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/feature-flags/beta", otherSession, `{"enabled":true}`); res.Code != 201 {
			t.Errorf("the lock's holder: %d %s", res.Code, res.Body)
		}
	})
}
