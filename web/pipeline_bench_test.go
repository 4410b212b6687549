package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
)

// BenchmarkPipeline measures what authentication (bearer token), audit,
// rate limiting and authorization add to an admin request, against the same
// no-op handler mounted without them, on PostgreSQL with 50 concurrent
// clients over loopback. It reports p50 and p99 latency of both and the
// p50 difference ("overhead-p50-ms").
//
// Run: go test -run '^$' -bench Pipeline -benchtime 5000x ./web
func BenchmarkPipeline(b *testing.B) {
	db := dbtest.Open(b, "postgres")
	// The limiter counts every request as usual but never refuses one.
	app := newApp(b, db, func(d *Deps) { d.Config.RateLimit.AdminGeneral = 1 << 30 })
	noop := func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }
	register(app.Echo, newPipeline(app.deps), []Route{v1(http.MethodGet, "/bench/noop", noop, "bench.noop", "")})
	app.GET("/bench/bare", noop)
	srv := httptest.NewServer(app)
	defer srv.Close()
	u := app.user(b, "bench@example.com", auth.ImpliedRoles(auth.RoleSuperAdmin)...)
	header, _ := app.tokenFor(b, u.ID, auth.PermAdminRead)

	bare := measure(b, fixed(srv.URL+"/bench/bare"), nil, http.StatusNoContent)
	full := measure(b, fixed(srv.URL+"/api/v1/admin/bench/noop"), header, http.StatusNoContent)
	b.ReportMetric(ms(bare[len(bare)/2]), "bare-p50-ms")
	b.ReportMetric(ms(full[len(full)/2]), "pipeline-p50-ms")
	b.ReportMetric(ms(full[len(full)*99/100]), "pipeline-p99-ms")
	b.ReportMetric(ms(full[len(full)/2]-bare[len(bare)/2]), "overhead-p50-ms")
}

// benchClients is the number of concurrent clients (and keep-alive
// connections) the loopback benchmarks use.
const benchClients = 50

// measure sends b.N GETs, the i-th to url(i), from benchClients concurrent
// clients, requires status want of each, and returns the sorted latencies.
func measure(b *testing.B, url func(i int) string, h http.Header, want int) []time.Duration {
	b.Helper()
	const clients = benchClients
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	next := make(chan int)
	b.ResetTimer()
	for range clients {
		wg.Go(func() {
			for i := range next {
				req, _ := http.NewRequest(http.MethodGet, url(i), nil)
				req.Header = h.Clone()
				start := time.Now()
				res, err := client.Do(req)
				lat[i] = time.Since(start)
				if err != nil || res.StatusCode != want {
					b.Errorf("request %d: %v %v", i, err, res)
					continue // keep taking requests, so the sender never blocks
				}
				io.Copy(io.Discard, res.Body) // read to the end, so the connection is reused
				res.Body.Close()
			}
		})
	}
	for i := range b.N {
		next <- i
	}
	close(next)
	wg.Wait()
	b.StopTimer()
	slices.Sort(lat)
	return lat
}

// fixed is a url function that always gives u.
func fixed(u string) func(int) string { return func(int) string { return u } }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
