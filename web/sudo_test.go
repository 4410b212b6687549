package web_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestDangerousRoutesNeedConfirmation walks the route table: minting tokens,
// changing a user (role included), bulk changes and the audit export ask a
// session caller for a recent confirmation, and nothing else does.
func TestDangerousRoutesNeedConfirmation(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	want := []string{
		http.MethodPost + " " + api.PathAdminTokens,
		http.MethodPost + " " + api.PathAdminV1BulkModerate,
		http.MethodPost + " " + api.PathConsoleBulkModerate,
		http.MethodGet + " " + api.PathAdminAuditExport,
	}
	var got []string
	for _, r := range web.Routes(app.Deps) {
		if r.Sudo {
			got = append(got, r.Method+" "+r.Path)
			if len(r.Permissions) == 0 {
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
