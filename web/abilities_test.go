package web_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/views"
)

// TestSidebarFollowsTheRoutes: the console's sidebar links a page exactly
// when that page's route lets the viewer in, for a moderator, an admin and
// a super admin; and a control shows only to those its route lets through
// (a new feature flag is the super admin's).
func TestSidebarFollowsTheRoutes(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	links := regexp.MustCompile(`data-testid="nav-([a-z-]+)"`)
	keyOf := map[string]string{}
	for _, g := range views.ConsoleNav(views.Viewer{May: views.Abilities{Pages: allPages()}}) {
		for _, it := range g.Items {
			keyOf[it.Href] = it.Key
		}
	}
	for _, role := range []string{access.RoleModerator, access.RoleAdmin, access.RoleSuperAdmin} {
		u := app.User(t, role+"@example.com", access.ImpliedRoles(role)...)
		h := app.SessionFor(t, u.ID)
		h.Set("Accept", "text/html")
		page := apptest.Do(t, app, http.MethodGet, api.PathConsole, h)
		if page.Code != http.StatusOK {
			t.Fatalf("%s: the dashboard answers %d", role, page.Code)
		}
		shown := map[string]bool{}
		for _, m := range links.FindAllStringSubmatch(page.Body.String(), -1) {
			shown[m[1]] = true
		}
		for _, path := range views.ConsolePaths() {
			res := apptest.Do(t, app, http.MethodGet, path, h)
			opens := res.Code == http.StatusOK
			if opens != shown[keyOf[path]] {
				t.Errorf("%s: %s answers %d, and the sidebar shows it: %v", role, path, res.Code, shown[keyOf[path]])
			}
		}
		flags := apptest.Do(t, app, http.MethodGet, api.PathConsoleFlags, h)
		offered := regexp.MustCompile(`data-testid="flag-new-open"`).MatchString(flags.Body.String())
		if want := role == access.RoleSuperAdmin; flags.Code == http.StatusOK && offered != want {
			t.Errorf("%s: the flags page offers a new flag: %v", role, offered)
		}
	}
}

func allPages() map[string]bool {
	out := map[string]bool{}
	for _, p := range views.ConsolePaths() {
		out[p] = true
	}
	return out
}
