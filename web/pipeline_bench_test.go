package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/gctune"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// BenchmarkPipeline measures what authentication (bearer token), audit,
// rate limiting and authorization add to an admin request, against the same
// no-op handler behind only the edge every route has, on PostgreSQL with 50 concurrent
// clients over loopback. It reports p50 and p99 latency of both and the
// p50 difference ("overhead-p50-ms"). The bare p99 is the floor the
// machine sets: the clients share its cores with the server.
//
// Run: go test -run '^$' -bench Pipeline -benchtime 5000x ./web
func BenchmarkPipeline(b *testing.B) {
	defer gctune.Start()() // as plaza serve runs
	app, header := pipelineApp(b)
	srv := httptest.NewServer(app)
	defer srv.Close()

	bare := apptest.Measure(b, fixed(srv.URL+"/bench/bare"), nil, http.StatusNoContent)
	full := apptest.Measure(b, fixed(srv.URL+"/api/v1/admin/bench/noop"), header, http.StatusNoContent)
	b.ReportMetric(apptest.Millis(bare[len(bare)/2]), "bare-p50-ms")
	b.ReportMetric(apptest.Millis(bare[len(bare)*99/100]), "bare-p99-ms")
	b.ReportMetric(apptest.Millis(full[len(full)/2]), "pipeline-p50-ms")
	b.ReportMetric(apptest.Millis(full[len(full)*99/100]), "pipeline-p99-ms")
	b.ReportMetric(apptest.Millis(full[len(full)/2]-bare[len(bare)/2]), "overhead-p50-ms")
}

// pipelineApp is the app of the pipeline benchmarks on PostgreSQL, with a
// no-op admin route (/api/v1/admin/bench/noop) and the same no-op behind
// only the edge (/bench/bare), and the header of a token that may call the
// first.
func pipelineApp(b *testing.B) (*apptest.App, http.Header) {
	db := dbtest.Open(b, "postgres")
	// The limiter counts every request as usual but never refuses one.
	noop := func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }
	app := apptest.New(b, db, func(d *web.Deps) {
		d.Config.RateLimit.AdminGeneral = 1 << 30
		d.ExtraRoutes = []web.Route{
			web.AdminV1(web.Route{Method: http.MethodGet, Path: "/api/v1/admin/bench/noop", Handler: noop, Audit: web.Audit{Action: "bench.noop"}}),
			// The edge every route has (request id, access log, metrics,
			// security headers), without the caller, audit, limit or permission.
			{Method: http.MethodGet, Path: "/bench/bare", Handler: noop, Family: api.FamilyConsole, Scope: web.ScopeExempt},
		}
	})
	u := app.User(b, "bench@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	header, _ := app.TokenFor(b, u.ID, access.PermAdminRead)
	return app, header
}

// fixed is a url function that always gives u.
func fixed(u string) func(int) string { return func(int) string { return u } }

// BenchmarkPipelineInProcess serves the two routes of BenchmarkPipeline
// straight to a recorder, one request at a time: what the pipeline costs in
// CPU and allocations, apart from the network and the scheduling of 50
// clients. The admin route's audit entries are written to PostgreSQL by the
// batcher in the background, as in BenchmarkPipeline.
//
// Run: go test -run '^$' -bench PipelineInProcess -benchmem ./web
func BenchmarkPipelineInProcess(b *testing.B) {
	app, header := pipelineApp(b)
	for _, r := range []struct {
		name, path string
		header     http.Header
	}{{"bare", "/bench/bare", nil}, {"admin", "/api/v1/admin/bench/noop", header}} {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, r.path, nil)
				req.Header = r.header.Clone()
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				if rec.Code != http.StatusNoContent {
					b.Fatalf("GET %s: %d", r.path, rec.Code)
				}
			}
		})
	}
}
