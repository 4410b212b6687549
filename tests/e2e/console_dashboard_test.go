package e2e

import (
	"strings"
	"testing"

	"github.com/go-rod/rod"
)

// TestConsoleDashboard: an admin's dashboard shows the demo community's
// numbers and a chart per series, drawn in SVG with the numbers as a
// table; the period switch swaps the analytics in place and keeps the
// period in the URL; axe passes.
func TestConsoleDashboard(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin")
	waitText(t, p, `[data-testid="stat-total-users"]`, "45")
	waitText(t, p, `[data-testid="open-reports"]`, "Open reports")
	for _, id := range []string{"new-users", "new-posts", "events", "moderation-actions"} {
		step(t, p, "chart "+id, func(p *rod.Page) {
			p.MustElement(`[data-testid="chart-` + id + `"] svg title`)
			p.MustElement(`[data-testid="chart-` + id + `"] details table`)
		})
	}
	accessible(t, p, "the dashboard")
	step(t, p, "switch to a month", func(p *rod.Page) {
		p.MustElement(`[data-testid="period-month"]`).MustClick()
		p.MustWait(`() => location.search === '?period=month'`)
		p.MustElementR(`#insight-heading`, "last 30 days")
	})
	step(t, p, "a day is by hour", func(p *rod.Page) {
		p.MustElement(`[data-testid="period-day"]`).MustClick()
		p.MustWait(`() => (document.querySelector('[data-testid="chart-new-users"] caption') || {}).textContent === 'New users per hour'`)
	})
	clean(t, c)
}

// TestConsoleModeratorDashboard: a moderator's dashboard and sidebar hold
// only what moderators may see; an unknown console page keeps the frame.
func TestConsoleModeratorDashboard(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.modUser, "/admin")
	waitText(t, p, `[data-testid="open-reports"]`, "Open reports")
	step(t, p, "no analytics, no admin pages", func(p *rod.Page) {
		if p.MustHas(`[data-testid="insight"]`) || p.MustHas(`[data-testid="nav-users"]`) {
			panic("a moderator sees admin-only parts")
		}
	})
	accessible(t, p, "a moderator's dashboard")
	step(t, p, "an unknown page", func(p *rod.Page) {
		p.MustNavigate(pz.base + "/admin/nowhere").MustWaitLoad()
		p.MustElementR(`[data-testid="error-status"]`, "404")
		p.MustElement(`[data-testid="console-nav"]`)
	})
	accessible(t, p, "the not-found page")
	clean(t, c, "404 (Not Found) "+pz.base+"/admin/nowhere")
	if !strings.HasPrefix(pz.base, "http://127.0.0.1:") {
		t.Fatal("the app must be on loopback")
	}
}

// chartLabelSizes lists, for each text in the dashboard's charts, the
// size it is drawn at on screen in CSS pixels: its font size scaled by
// whatever its SVG's viewBox does to it.
const chartLabelSizes = `() => Array.from(document.querySelectorAll('[data-testid^="chart-"] svg text, [data-testid^="chart-"] [data-chart-label]'), (el) => {
	const size = parseFloat(getComputedStyle(el).fontSize);
	const m = el.getScreenCTM ? el.getScreenCTM() : null;
	return {text: el.textContent.trim(), px: m ? size * Math.hypot(m.a, m.b) : size};
})`

// TestChartLabelsReadable: every label of the dashboard's charts (counts
// on the axis, dates below) is drawn at 11 px or more, on a laptop and on
// a phone, where a chart is narrowest.
func TestChartLabelsReadable(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/admin")
	waitText(t, p, `[data-testid="stat-total-users"]`, "45")
	for _, v := range []viewport{laptop, phone} {
		resize(t, p, v)
		var labels []struct {
			Text string
			Px   float64
		}
		step(t, p, "measure the chart labels at "+v.String(), func(p *rod.Page) {
			p.MustElement(`[data-testid="chart-new-users"]`)
			if err := p.MustEval(chartLabelSizes).Unmarshal(&labels); err != nil {
				panic(err)
			}
		})
		if len(labels) < 4*3 {
			t.Fatalf("at %s only %d chart labels: %+v", v, len(labels), labels)
		}
		for _, l := range labels {
			if l.Px < 11 {
				t.Errorf("at %s the chart label %q is %.1f px, under 11", v, l.Text, l.Px)
			}
		}
	}
	clean(t, c)
}
