package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConsoleFiltersTakeNames: the console's audit log and reports filter
// on a person by username, email or id, link their exports by id, and
// answer a name nobody has in words; the API routes keep taking ids only.
func TestConsoleFiltersTakeNames(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, rootUser := app.Admin(t)
		ana := app.User(t, "ana.lima@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		anaSession := app.SessionFor(t, ana.ID)
		apptest.Do(t, app, "GET", "/api/v1/admin/users", anaSession)
		apptest.Do(t, app, "GET", "/api/v1/admin/users", root)
		app.FlushAudit(t)
		partial := http.Header{"Hx-Request": {"true"}, "Cookie": root["Cookie"]}
		page := http.Header{"Accept": {"text/html"}, "Cookie": root["Cookie"]}

		for _, ref := range []string{ana.Username, strings.ToUpper(ana.Username), "ANA.LIMA@example.com", itoa(ana.ID)} {
			res := apptest.Do(t, app, "GET", "/admin/audit?action=users.list&adminId="+url.QueryEscape(ref), partial)
			body := res.Body.String()
			if res.Code != 200 || strings.Count(body, `<li data-row`) != 1 || !strings.Contains(body, "adminId="+itoa(ana.ID)) {
				t.Errorf("audit filtered on %q: %d, %d entries, export by id: %v\n%.300s", ref, res.Code,
					strings.Count(body, `<li data-row`), strings.Contains(body, "adminId="+itoa(ana.ID)), body)
			}
		}
		for _, c := range []struct{ path, want string }{
			{"/admin/audit?adminId=nobody", "No user named &#39;nobody&#39;"},
			{"/admin/audit?adminId=who%40example.com", "No user has the email &#39;who@example.com&#39;"},
			{"/admin/reports?userId=nobody", "No user named &#39;nobody&#39;"},
			{"/admin/reports/moderation?adminId=nobody", "No user named &#39;nobody&#39;"},
		} {
			for _, h := range []http.Header{partial, page} {
				res := apptest.Do(t, app, "GET", c.path, h)
				if res.Code != 422 || !strings.Contains(res.Body.String(), c.want) || strings.Contains(res.Body.String(), "positive integer") {
					t.Errorf("%s: %d, want 422 saying %q\n%.300s", c.path, res.Code, c.want, res.Body)
				}
			}
		}
		res := apptest.Do(t, app, "GET", "/admin/reports/moderation?adminId="+rootUser.Username, page)
		if res.Code != 200 || !strings.Contains(res.Body.String(), "moderation?adminId="+itoa(rootUser.ID)) {
			t.Errorf("moderation report by name: %d, CSV link by id missing", res.Code)
		}
		res = apptest.Do(t, app, "GET", "/admin/reports?userId="+ana.Username, page)
		if res.Code != 200 || !strings.Contains(res.Body.String(), "userId="+itoa(ana.ID)) {
			t.Errorf("activity report by name: %d, CSV link by id missing", res.Code)
		}
		for _, path := range []string{"/api/v1/admin/audit-logs?adminId=", "/api/v1/admin/reports/user-activity?userId=", "/api/v1/admin/reports/moderation?adminId="} {
			res := apptest.Do(t, app, "GET", path+ana.Username, root)
			if res.Code != 422 || !strings.Contains(res.Body.String(), "must be a positive integer id") {
				t.Errorf("%s%s: %d %s, want the contract's 422", path, ana.Username, res.Code, res.Body)
			}
		}
	})
}
