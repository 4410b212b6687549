package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// An admin may not rename a super admin through the general API.
func TestAdminCannotRenameSuperAdmin(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		other, _ := userWith(t, app, "other-root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)

		res := apptest.DoBody(t, app, "PUT", "/api/users/"+itoa(other.ID), adminH, `{"name":"Renamed by an admin"}`)
		wantError(t, res, 403, api.CodeForbidden, "")
		if u, _ := app.Store.Users.UserByID(context.Background(), other.ID); u.Name != nil && *u.Name == "Renamed by an admin" {
			t.Fatal("an admin renamed a super admin")
		}
	})
}

// An admin may not lift, through the unversioned family, a ban one super
// admin placed on another.
func TestAdminCannotUnbanSuperAdmin(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		rootH, _ := app.Admin(t)
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		other, _ := userWith(t, app, "other-root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)

		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(other.ID)+"/ban", rootH, `{"action":"ban","reason":"between super admins"}`)
		if res.Code != 200 {
			t.Fatalf("super admin banning a super admin: %d %s", res.Code, res.Body)
		}
		res = apptest.Do(t, app, "POST", "/api/admin/users/"+itoa(other.ID)+"/unban", adminH)
		if res.Code != 403 {
			t.Fatalf("admin lifting a super admin's ban through the unversioned family: %d %s", res.Code, res.Body)
		}
		if u, _ := app.Store.Users.UserByID(context.Background(), other.ID); u.Status != models.UserBanned {
			t.Fatalf("status %q after the refused unban, want banned", u.Status)
		}
	})
}

// A super admin's token scoped below admin:super does not carry the rank:
// the protection reads the effective permissions, not the user's role.
func TestScopedSuperAdminTokenDoesNotOutrankSuperAdmins(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, root := app.Admin(t)
		other, _ := userWith(t, app, "other-root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		tok, _ := app.TokenFor(t, root.ID, access.PermAdminWrite, access.PermUsersManage)

		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(other.ID)+"/ban", tok, `{"action":"ban","reason":"scoped token"}`)
		if res.Code != 403 {
			t.Fatalf("admin:write token banning a super admin: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", "/api/v1/admin/users/"+itoa(other.ID), tok, `{"notes":"scoped token"}`)
		if res.Code != 403 {
			t.Fatalf("admin:write token changing a super admin: %d %s", res.Code, res.Body)
		}
		plain := app.User(t, "plain@example.com")
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(plain.ID)+"/ban", tok, `{"action":"ban","reason":"scoped token"}`)
		if res.Code != 200 {
			t.Fatalf("the same token banning a plain user: %d %s", res.Code, res.Body)
		}
	})
}

// Deleting someone else's account through the general API is staff power:
// under REQUIRE_STAFF_2FA it needs the second factor, and it always needs a
// fresh confirmation, as the versioned family's dangerous actions do.
func TestGeneralAccountDeletionNeedsSecondFactorAndConfirmation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		strict := clockedApp(t, db, clock, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
		ada, _ := userWith(t, strict, "ada@example.com")
		_, adminH := userWith(t, strict, "admin@example.com", access.RoleAdmin)
		res := apptest.Do(t, strict, "DELETE", "/api/users/"+itoa(ada.ID), adminH)
		wantError(t, res, 403, api.CodeTwoFactorRequired, "")

		app := clockedApp(t, db, clock)
		bob, _ := userWith(t, app, "bob@example.com")
		_, admin2H := userWith(t, app, "admin2@example.com", access.RoleAdmin)
		clock.Add(11 * time.Minute) // the sign-in's confirmation has lapsed
		res = apptest.Do(t, app, "DELETE", "/api/users/"+itoa(bob.ID), admin2H)
		wantError(t, res, 403, api.CodeSudoRequired, "")
		if res.Header().Get(web.SudoHeader) != "required" {
			t.Errorf("no %s header on the refusal", web.SudoHeader)
		}
		if _, err := app.Store.Users.UserByID(context.Background(), bob.ID); err != nil {
			t.Fatalf("bob after the refused deletion: %v", err)
		}
		confirm(t, app, admin2H, "long enough secret")
		if res := apptest.Do(t, app, "DELETE", "/api/users/"+itoa(bob.ID), admin2H); res.Code != 200 {
			t.Fatalf("after confirming: %d %s", res.Code, res.Body)
		}
	})
}

// confirm re-enters the session's password, opening the confirmation
// window.
func confirm(t *testing.T, app *apptest.App, session http.Header, password string) {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", api.PathConfirm, session, `{"password":"`+password+`"}`)
	if res.Code != 200 {
		t.Fatalf("confirm: %d %s", res.Code, res.Body)
	}
}

// The user page offers only the controls its viewer may use: no Ban on
// one's own page, neither Ban nor Edit on a super admin's for an admin.
func TestUserPageOffersOnlyAllowedControls(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, root := app.Admin(t)
		admin, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		plain := app.User(t, "plain@example.com")
		page := func(id int64) string {
			h := adminH.Clone()
			h.Set("Accept", "text/html")
			res := apptest.Do(t, app, "GET", "/admin/users/"+itoa(id), h)
			if res.Code != 200 {
				t.Fatalf("user page %d: %d", id, res.Code)
			}
			return res.Body.String()
		}
		has := func(body, testid string) bool { return strings.Contains(body, `data-testid="`+testid+`"`) }
		if body := page(plain.ID); !has(body, "ban-open") || !has(body, "edit-open") {
			t.Error("an admin on a plain user's page: no Ban or Edit button")
		}
		if body := page(admin.ID); has(body, "ban-open") {
			t.Error("a Ban button on one's own page")
		}
		if body := page(root.ID); has(body, "ban-open") || has(body, "edit-open") {
			t.Error("an admin is offered Ban or Edit on a super admin's page")
		}
	})
}
