package bench

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
)

// statsPages are the admin stats and every period of the dashboard and
// of the analytics it shows.
var statsPages = []struct{ path, accept string }{
	{"/api/admin/stats", "application/json"},
	{"/admin?period=day", "text/html"}, {"/admin?period=week", "text/html"},
	{"/admin?period=month", "text/html"}, {"/admin?period=year", "text/html"},
	{"/api/v1/admin/analytics?period=1d", "application/json"}, {"/api/v1/admin/analytics?period=7d", "application/json"},
	{"/api/v1/admin/analytics?period=30d", "application/json"}, {"/api/v1/admin/analytics?period=1y", "application/json"},
}

// BenchmarkStats asks for the admin stats and each dashboard period b.N
// times in a row (one client, as an admin opens them) and reports the
// median and 99th percentile server time of each.
func BenchmarkStats(b *testing.B) {
	_, base, h := benchRuntime(b)
	for _, page := range statsPages {
		hdr := h.Clone()
		hdr.Set("Accept", page.accept)
		name := strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(strings.TrimPrefix(page.path, "/"))
		b.Run(name, func(b *testing.B) {
			lat := apptest.MeasureWith(b, 1, func(int) string { return base + page.path }, hdr, http.StatusOK)
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.50)), "p50-ms")
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.99)), "p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
