package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConsoleCreatesAndDeletesUsers: the users page offers "New user",
// whose form posts to POST /api/users (the registration's own door and
// policy entry), which answers htmx with a toast and the list's refresh;
// a user's page offers an admin "Delete" behind a dialog that sends
// DELETE /api/users/{id}, the API's account deletion (a fresh
// confirmation asked as for the API), which writes user.delete in the
// audit log and sends the console back to the users list. Nobody is offered to delete themselves,
// and an admin is not offered a super admin.
func TestConsoleCreatesAndDeletesUsers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin := app.User(t, "ana@plaza.test", access.RoleAdmin)
		super := app.User(t, "root@plaza.test", access.ImpliedRoles(access.RoleSuperAdmin)...)
		page := withHeader(app.SessionFor(t, admin.ID), "Accept", "text/html")
		list := docOf(t, app, api.PathConsoleUsers, page)
		if form := list.Find(`dialog#new-user form[hx-post="` + api.PathUsers + `"]`); form.Length() != 1 || list.Find(`[data-testid="new-user-open"]`).Length() != 1 {
			t.Fatal("the users page offers no New user dialog posting to POST /api/users")
		}
		htmx := withHeader(app.SessionFor(t, admin.ID), "HX-Request", "true")
		res := apptest.DoBody(t, app, http.MethodPost, api.PathUsers, htmx, `{"name":"Nia Obi","email":"nia@plaza.test","password":"a long garden path"}`)
		if res.Code != http.StatusCreated || !strings.Contains(res.Header().Get("HX-Trigger"), "can sign in now") || !strings.Contains(res.Header().Get("HX-Trigger"), "plaza:users") {
			t.Fatalf("create from the console: %d %q %s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
		var id int64
		if err := db.NewRaw(`SELECT id FROM users WHERE email = 'nia@plaza.test'`).Scan(context.Background(), &id); err != nil {
			t.Fatal(err)
		}
		userPage := api.ConsoleUserPath(id)
		doc := docOf(t, app, userPage, page)
		if doc.Find(`[data-testid="delete-user-open"]`).Length() != 1 || doc.Find(fmt.Sprintf(`dialog#delete-user form[hx-delete=%q]`, api.UserPath(itoa(id)))).Length() != 1 {
			t.Fatalf("%s offers no Delete behind a dialog", userPage)
		}
		for _, other := range []int64{admin.ID, super.ID} {
			if docOf(t, app, api.ConsoleUserPath(other), page).Find(`[data-testid="delete-user-open"]`).Length() != 0 {
				t.Errorf("the admin is offered to delete user %d", other)
			}
		}
		res = apptest.Do(t, app, http.MethodDelete, api.UserPath(itoa(id)), htmx) // a session just signed in: confirmed
		if res.Code != http.StatusNoContent || res.Header().Get("HX-Redirect") != api.PathConsoleUsers {
			t.Fatalf("delete from the console: %d %v %s", res.Code, res.Header(), res.Body)
		}
		var left, audited int
		if err := db.NewRaw(`SELECT count(*) FROM users WHERE id = ?`, id).Scan(context.Background(), &left); err != nil || left != 0 {
			t.Errorf("the user is still there (%d, %v)", left, err)
		}
		err := db.NewRaw(`SELECT count(*) FROM audit_log WHERE action = 'user.delete' AND target_id = ? AND status = 204`, itoa(id)).Scan(context.Background(), &audited)
		if err != nil || audited != 1 {
			t.Errorf("user.delete audited %d times (%v)", audited, err)
		}
	})
}
