package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// TestConsoleReports: an admin reads who was active this month, narrows
// the window without a reload, downloads the rows as CSV from the page's
// link, and opens the moderation report; axe passes both.
func TestConsoleReports(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin/reports")
	waitText(t, p, `[data-testid="activity-report"]`, "active users")
	accessible(t, p, "the user-activity report")
	step(t, p, "narrow the window", func(p *rod.Page) {
		p.MustElement(`[data-testid="report-from"]`).MustInputTime(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
		p.MustWait(`() => location.search.includes('startDate=2026-01-01')`)
		p.MustWait(`() => document.querySelector('[data-testid="activity-csv"]').href.includes('startDate=2026-01-01')`)
	})
	csv := p.MustEval(`async () => {
		const r = await fetch(document.querySelector('[data-testid="activity-csv"]').href);
		return r.status + ' ' + r.headers.get('content-type') + '\n' + await r.text();
	}`).Str()
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if !strings.HasPrefix(lines[0], "200 text/csv") || len(lines) < 3 || !strings.HasPrefix(lines[1], "userId,") {
		t.Errorf("the CSV download: %.300q", csv)
	}
	step(t, p, "the moderation report", func(p *rod.Page) {
		clickToLoad(p, `[data-testid="tab-moderation"]`)
		p.MustElement(`[data-testid="moderation-report"]`)
		p.MustElement(`[data-testid="rep-received"]`)
	})
	accessible(t, p, "the moderation report")
	clean(t, c)
}
