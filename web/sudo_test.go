package web_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestDangerousRoutesNeedConfirmation walks the route table: minting
// tokens, bulk changes (bulk decisions on applications included), downloading or deleting a backup, the audit
// export, a password reset for someone else (and linking a sign-in provider to one's own account) always ask a
// session caller for a recent confirmation, because
// the policy rule of the route's action says so, and nothing else always
// does.
func TestDangerousRoutesNeedConfirmation(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	want := []string{
		http.MethodPost + " " + api.PathAdminTokens,
		http.MethodPost + " " + api.PathAdminV1BulkUpdate,
		http.MethodPost + " " + api.PathAdminV1BulkModerate,
		http.MethodPost + " " + api.PathConsoleBulkModerate,
		http.MethodPost + " " + api.PathAdminV1BulkApplications,
		http.MethodPost + " " + api.PathConsoleBulkApplications,
		http.MethodGet + " " + api.PathAdminAuditExport,
		http.MethodGet + " " + api.PathAdminV1Backup,
		http.MethodDelete + " " + api.PathAdminV1Backup,
		http.MethodPost + " " + api.PathProviderLink,
		http.MethodPost + " " + api.PathAdminV1UserPasswordReset,
	}
	var got []string
	for _, r := range web.Routes(app.Deps) {
		if r.Action != "" && policy.Table[r.Action].Confirm == policy.ConfirmAlways {
			got = append(got, r.Method+" "+r.Path)
			if len(r.Permissions) == 0 && !policy.Table[r.Action].Owner { // linking a provider is one's own
				t.Errorf("%s %s: a dangerous route without permissions", r.Method, r.Path)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("dangerous routes %v, want %v", got, want)
	}
}
