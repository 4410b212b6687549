package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestRoutesDeclareTheirNeeds walks the route table: every route declares
// its error family and rate-limit scope, API routes an API family, and
// every admin route of either family a permission, a counted scope and an
// audit action.
func TestRoutesDeclareTheirNeeds(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin := 0
	for _, r := range web.Routes(app.Deps) {
		if r.Family == 0 || r.Scope == "" || strings.HasPrefix(r.Path, "/api/") && r.Family == api.FamilyConsole {
			t.Errorf("%s %s: family %v, scope %q; every route declares both, API routes an API family", r.Method, r.Path, r.Family, r.Scope)
		}
		v1 := strings.HasPrefix(r.Path, "/api/v1/admin")
		if !v1 && !strings.HasPrefix(r.Path, "/api/admin") {
			continue
		}
		admin++
		if len(r.Permissions) == 0 || r.Scope == web.ScopeExempt || r.Audit.Action == "" || v1 && r.Family != api.FamilyV1 {
			t.Errorf("%s %s: permissions %v, scope %q, audit %q, family %v; every admin route needs them all",
				r.Method, r.Path, r.Permissions, r.Scope, r.Audit.Action, r.Family)
		}
	}
	if admin == 0 {
		t.Fatal("no admin routes found")
	}
}

// TestRoutesDeriveTheirPermissions: a route never restates the permission
// its action's rule holds; the unversioned admin family and the console
// take it from the rule, the versioned family asks its gate (the method's
// admin permission, or admin:super) and may only say admin:super, which
// replaces it.
func TestRoutesDeriveTheirPermissions(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	for _, r := range web.Routes(app.Deps) {
		need := policy.Table[r.Action].Permission
		if need != "" && slices.Contains(web.Declared(r), need) {
			t.Errorf("%s %s restates %s, which the rule of %s holds", r.Method, r.Path, need, r.Action)
		}
		staff := r.Family == api.FamilyAdmin || r.Family == api.FamilyConsole
		if staff && need != "" && !slices.Contains(r.Permissions, need) {
			t.Errorf("%s %s: permissions %v lack %s, the rule of %s", r.Method, r.Path, r.Permissions, need, r.Action)
		}
		if r.Family != api.FamilyV1 {
			continue
		}
		for _, p := range web.Declared(r) {
			if p != access.PermAdminSuper {
				t.Errorf("%s %s says %s: a versioned route asks its gate, or admin:super", r.Method, r.Path, p)
			}
		}
		if len(r.Permissions) != 1 || r.Permissions[0] != r.Gate || r.Gate == access.PermUsersManage || r.Gate == access.PermPostsModerate {
			t.Errorf("%s %s: permissions %v, gate %q; the versioned family asks its gate alone", r.Method, r.Path, r.Permissions, r.Gate)
		}
	}
}

// TestActionsNameTheirAudit: a door's action is named as the audit action
// the route writes, so that the policy's name and the audit log's agree;
// where one rule serves two audit names, the policy has two actions with
// that rule (user.ban and user.unban).
func TestActionsNameTheirAudit(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	for _, r := range web.Routes(app.Deps) {
		if r.Action == "" || r.Audit.Action == "" {
			continue
		}
		if string(r.Action) != r.Audit.Action {
			t.Errorf("%s %s: action %s, audit %s", r.Method, r.Path, r.Action, r.Audit.Action)
		}
	}
}

// callers of the permission matrix.
type callers map[string]http.Header

func matrixCallers(t *testing.T, app *apptest.App) callers {
	t.Helper()
	ctx := context.Background()
	user := app.User(t, "user@example.com")
	mod := app.User(t, "mod@example.com", access.RoleModerator)
	adm := app.User(t, "admin@example.com", access.RoleAdmin)
	super := app.User(t, "super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	banned := app.User(t, "banned@example.com", access.RoleAdmin)

	readonly, _ := app.TokenFor(t, adm.ID, access.PermAdminRead)
	revoked, jti := app.TokenFor(t, super.ID, access.AllPermissions()...)
	if err := app.Store.Auth.RevokeAPIToken(ctx, jti); err != nil {
		t.Fatal(err)
	}
	bannedTok, _ := app.TokenFor(t, banned.ID, access.AllPermissions()...)
	app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", banned.ID).Exec(ctx)

	expired, err := auth.SignToken([]byte(app.Deps.Config.JWTSecret), auth.TokenClaims{UserID: super.ID,
		Permissions: access.AllPermissions(), IssuedAt: time.Now().Add(-2 * time.Hour), ExpiresAt: time.Now().Add(-time.Hour), ID: "expired-jti"})
	if err != nil {
		t.Fatal(err)
	}
	return callers{
		"anonymous":       nil,
		"user":            app.SessionFor(t, user.ID),
		"moderator":       app.SessionFor(t, mod.ID),
		"admin read-only": readonly,
		"admin":           app.SessionFor(t, adm.ID),
		"super admin":     app.SessionFor(t, super.ID),
		"revoked token":   revoked,
		"expired token":   {"Authorization": {"Bearer " + expired}},
		"banned's token":  bannedTok,
	}
}

func TestPermissionMatrix(t *testing.T) {
	type want map[string]int // caller → status
	deny := func(ok map[string]int) want {
		w := want{"anonymous": 401, "user": 403, "moderator": 403, "admin read-only": 403, "admin": 403,
			"super admin": 403, "revoked token": 401, "expired token": 401, "banned's token": 401}
		for k, v := range ok {
			w[k] = v
		}
		return w
	}
	tests := []struct {
		method, path, body string
		want               want
		required           string // requiredPermission of the admin's 403
	}{
		{"GET", "/api/v1/admin/tokens", "", deny(want{"super admin": 200}), "admin:super"},
		{"POST", "/api/v1/admin/tokens", `{"permissions":["admin:read"],"ttl":"1h"}`, deny(want{"super admin": 201}), "admin:super"},
		{"DELETE", "/api/v1/admin/tokens/{jti}", "", deny(want{"super admin": 200}), "admin:super"},
		{"GET", "/api/v1/admin/audit-logs", "", deny(want{"admin read-only": 200, "admin": 200, "super admin": 200}), ""},
		{"GET", "/api/v1/admin/audit-logs/verify", "", deny(want{"admin read-only": 200, "admin": 200, "super admin": 200}), ""},
		{"POST", "/api/v1/admin/locks", `{"type":"post","id":"{n}"}`, deny(want{"admin": 201, "super admin": 201}), "admin:write"},
		{"DELETE", "/api/v1/admin/locks/post/1", "", deny(want{"admin": 200, "super admin": 200}), "admin:delete"},
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		who := matrixCallers(t, app)
		_, super := app.Admin(t)
		for _, tt := range tests {
			for caller, status := range tt.want {
				t.Run(tt.method+" "+tt.path+"/"+caller, func(t *testing.T) {
					path := tt.path
					if strings.Contains(path, "{jti}") {
						_, jti := app.TokenFor(t, super.ID, access.PermAdminRead)
						path = strings.Replace(path, "{jti}", jti, 1)
					}
					body := strings.Replace(tt.body, "{n}", caller, 1)
					res := apptest.DoBody(t, app, tt.method, path, who[caller], body)
					if res.Code != status {
						t.Fatalf("got %d %s, want %d", res.Code, res.Body, status)
					}
					checkV1Body(t, res.Body.Bytes(), status, tt.required, caller)
				})
			}
		}
	})
}

func checkV1Body(t *testing.T, body []byte, status int, required, caller string) {
	t.Helper()
	var got struct {
		Success bool
		Error   struct{ Code, Message, RequiredPermission string }
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	switch {
	case status < 300 && !got.Success:
		t.Errorf("success body without success:true: %s", body)
	case status == 401 && (got.Success || got.Error.Code != "UNAUTHORIZED"):
		t.Errorf("401 body %s, want UNAUTHORIZED", body)
	case status == 403 && (got.Error.Code != "INSUFFICIENT_ADMIN_PERMISSIONS" || got.Error.RequiredPermission == ""):
		t.Errorf("403 body %s, want INSUFFICIENT_ADMIN_PERMISSIONS with requiredPermission", body)
	case status == 403 && caller == "admin" && required != "" && got.Error.RequiredPermission != required:
		t.Errorf("admin's requiredPermission %q, want %q", got.Error.RequiredPermission, required)
	}
}
