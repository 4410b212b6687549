package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleAudit: a super admin filters the audit log down to a ban,
// opens the entry to see the status before and after, verifies the chain,
// and downloads the filtered log as CSV from the page's link.
func TestConsoleAudit(t *testing.T) {
	pz := startPlaza(t)
	target := pz.User(t, "audited@plaza.test")
	res := apptest.DoBody(t, pz.App, "POST", api.AdminV1UserPath(target.ID)+"/ban", pz.SessionFor(t, pz.admin.ID), `{"action":"ban","reason":"Spam"}`)
	if res.Code != http.StatusOK {
		t.Fatalf("ban: %d %s", res.Code, res.Body)
	}
	pz.FlushAudit(t)
	p, c := pz.as(t, pz.super, "/admin/audit")
	step(t, p, "filter to the ban", func(p *rod.Page) {
		p.MustElement(`[data-testid="audit-action"]`).MustInput("user.ban")
		p.MustWait(`() => location.search.includes('action=user.ban')`)
		p.MustWait(`() => document.querySelectorAll('[data-testid^="audit-"][data-row]').length === 1`)
	})
	step(t, p, "open the entry", func(p *rod.Page) {
		p.MustElement(`[data-row] summary`).MustClick()
		p.MustElementR(`[data-testid="audit-diff"]`, "banned")
	})
	accessible(t, p, "the audit log")
	step(t, p, "verify", func(p *rod.Page) {
		p.MustElement(`[data-testid="verify"]`).MustClick()
		p.MustElementR(`[data-testid="verify-valid"]`, "intact")
	})
	csv := p.MustEval(`async () => {
		const r = await fetch(document.querySelector('[data-testid="export-csv"]').href);
		return r.status + ' ' + r.headers.get('content-disposition') + '\n' + await r.text();
	}`).Str()
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if !strings.HasPrefix(lines[0], "200 attachment") || len(lines) != 3 || !strings.Contains(lines[2], "user.ban") {
		t.Errorf("the CSV download: %q", csv)
	}
	if !strings.Contains(lines[2], fmt.Sprint(target.ID)) {
		t.Errorf("the CSV row does not name the banned user: %q", lines[2])
	}
	clean(t, c)
}
