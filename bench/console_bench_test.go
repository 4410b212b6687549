package bench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
)

// consolePages are the console's pages as an admin opens them, with the
// filters they are most often opened with.
var consolePages = []string{
	"/admin", "/admin?period=month", "/admin?period=year",
	"/admin/users", "/admin/users?search=ann", "/admin/users?sort=post_count&order=desc", "/admin/users?offset=50000&sort=username", "/admin/users?offset=500000", "/admin/users/%d",
	"/admin/moderation", "/admin/moderation?needsReview=false", "/admin/moderation?status=flagged", "/admin/reports", "/admin/reports/moderation",
	"/admin/system", "/admin/broadcasts", "/admin/feature-flags", "/admin/audit", "/admin/audit?action=user.ban",
	"/admin/tokens", "/admin/inbox", "/admin/blocks", "/admin/account/sessions",
}

// BenchmarkConsolePages renders every console page as a browser asks for
// it (Accept: text/html, a super admin's credentials), b.N times each from
// four clients, and reports each page's 95th percentile server time.
func BenchmarkConsolePages(b *testing.B) {
	rt, base, h := benchRuntime(b)
	h = h.Clone()
	h.Set("Accept", "text/html")
	var user int64
	if err := rt.Store.DB.NewRaw("SELECT min(id) FROM users").Scan(context.Background(), &user); err != nil {
		b.Fatal(err)
	}
	for _, page := range consolePages {
		path := page
		if page == "/admin/users/%d" {
			path = fmt.Sprintf(page, user)
		}
		// The name keeps no "/", which -bench would take as a level.
		b.Run("page"+strings.ReplaceAll(strings.TrimPrefix(page, "/admin"), "/", "-"), func(b *testing.B) {
			lat := apptest.MeasureWith(b, apiClients, func(int) string { return base + path }, h, http.StatusOK)
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.95)), "p95-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
