package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// BenchmarkAvatarLoopback measures GET /api/avatar-image through the whole
// app (middleware, pipeline, rate limit) over loopback HTTP with 50
// concurrent keep-alive clients, each request a new seed at the default
// size. It reports requests per second and p50/p99 latency. The per-IP
// limit (600/min) is lifted: every request comes from 127.0.0.1.
//
// Run: go test -run '^$' -bench AvatarLoopback -benchtime 100000x ./handlers
func BenchmarkAvatarLoopback(b *testing.B) {
	app := apptest.New(b, dbtest.Open(b, "sqlite"), func(d *web.Deps) { d.Config.RateLimit.Avatar = 1 << 30 })
	srv := httptest.NewServer(app)
	defer srv.Close()
	base := srv.URL + "/api/avatar-image?seed=bench-"
	url := func(i int) string { return base + strconv.Itoa(i) }

	start := time.Now()
	lat := apptest.Measure(b, url, nil, http.StatusOK)
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(apptest.Millis(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(apptest.Millis(lat[len(lat)*99/100]), "p99-ms")
}

// BenchmarkAvatarStack measures GET /api/avatar-image through the whole
// app in process (no sockets), with a new seed each request: the stack's
// own time and allocations around the 1–3 µs the avatar takes.
//
// Run: go test -run '^$' -bench AvatarStack -benchmem ./handlers
func BenchmarkAvatarStack(b *testing.B) {
	app := apptest.New(b, dbtest.Open(b, "sqlite"), func(d *web.Deps) { d.Config.RateLimit.Avatar = 1 << 30 })
	req := httptest.NewRequest(http.MethodGet, "/api/avatar-image?seed=bench-0", nil)
	req.RemoteAddr = "127.0.0.1:40000"
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		req.URL.RawQuery = "seed=bench-" + strconv.Itoa(i)
		clear(w.h)
		app.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}

// discardWriter is a ResponseWriter that keeps only the status.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
