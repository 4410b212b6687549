package e2e

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/api"
)

// TestAPIDocsRenders loads /api/docs: every operation of the document is
// on the page as it arrives (TestAPIDocsPage in web finds each in the
// served HTML), under a visible h1, the browser reports no problem (a CSP
// refusal included), and no request leaves Plaza.
func TestAPIDocsRenders(t *testing.T) {
	srv := startApp(t)
	ops := countOperations(t, srv.URL)
	p, c := blankPage(t)
	var mu sync.Mutex
	var foreign []string
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	go p.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		if u := e.Request.URL; !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			mu.Lock()
			foreign = append(foreign, u)
			mu.Unlock()
		}
	})()
	step(t, p, "load /api/docs", func(p *rod.Page) {
		p.MustNavigate(srv.URL + api.PathAPIDocs).MustWaitLoad()
	})
	if n := len(p.MustElements("#api-docs details.api-op")); n != ops {
		t.Errorf("%d operations on the page, want the document's %d", n, ops)
	}
	h1 := p.MustElement("h1")
	if text := h1.MustText(); text != "API reference" || !h1.MustVisible() {
		t.Errorf("h1 %q, visible %v", text, h1.MustVisible())
	}
	summaries := p.MustElement("#api-docs").MustText()
	for _, want := range []string{"Mint an admin token", "/api/v1/admin/locks/{type}/{id}", "Record analytics events"} {
		if !strings.Contains(summaries, want) {
			t.Errorf("the reference does not show %q", want)
		}
	}
	noProblems(t, c)
	mu.Lock()
	defer mu.Unlock()
	for _, u := range foreign {
		t.Errorf("the page requested %s, outside Plaza", u)
	}
}

// TestAPIDocsFilterAndLinks: typing in the filter leaves the operations
// that match (the rest and their empty groups hidden, the count said), an
// address naming an operation opens it, and a schema's link opens the
// schema.
func TestAPIDocsFilterAndLinks(t *testing.T) {
	srv := startApp(t)
	p, c := blankPage(t)
	step(t, p, "open GET /api/version by its address", func(p *rod.Page) {
		p.MustNavigate(srv.URL + api.PathAPIDocs + "#get_api_version").MustWaitLoad()
		p.MustWait(`() => document.getElementById('get_api_version').open`)
	})
	step(t, p, "filter on 'audit export'", func(p *rod.Page) {
		p.MustElement("#api-filter").MustInput("audit export")
		p.MustWait(`() => document.getElementById('api-filter-count').textContent.startsWith('1 of ')`)
	})
	visible := p.MustEval(`() => [...document.querySelectorAll('.api-op')].filter(o => !o.hidden).map(o => o.id)`).Arr()
	if len(visible) != 1 || visible[0].Str() != "get_api_v1_admin_audit_logs_export" {
		t.Errorf("the filter left %v", visible)
	}
	if n := p.MustEval(`() => [...document.querySelectorAll('.api-group')].filter(g => !g.hidden).length`).Int(); n != 1 {
		t.Errorf("%d groups shown, want the one holding the match", n)
	}
	step(t, p, "follow a schema's link", func(p *rod.Page) {
		p.MustElement("#api-filter").MustSelectAllText().MustInput("")
		p.MustElement("#get_api_version a[href^='#schema-']").MustClick()
		p.MustWait(`() => { const d = document.querySelector(location.hash); return !!(d && d.open); }`)
	})
	clean(t, c)
}

// TestAPIDocsAccessible runs axe on the reference with an operation of
// each method and a schema open, at a laptop's width and a phone's, in the
// light and the dark scheme, and checks the page never scrolls sideways.
func TestAPIDocsAccessible(t *testing.T) {
	srv := startApp(t)
	p, c := blankPage(t)
	step(t, p, "load /api/docs", func(p *rod.Page) {
		p.MustNavigate(srv.URL + api.PathAPIDocs).MustWaitLoad()
	})
	step(t, p, "open an operation of each method and a schema", func(p *rod.Page) {
		p.MustEval(`() => {
			for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
				const op = [...document.querySelectorAll('.api-op')].find(o => o.querySelector('summary span').textContent === m);
				op.open = true;
			}
			document.getElementById('get_api_v1_admin_audit_logs_export').open = true;
			document.getElementById('schema-V1User').open = true;
		}`)
	})
	for _, v := range []viewport{laptop, phone} {
		resize(t, p, v)
		for _, name := range []string{"light", "dark"} {
			err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
				{Name: "prefers-color-scheme", Value: name}, {Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p)
			if err != nil {
				t.Fatal(err)
			}
			accessible(t, p, "/api/docs ("+name+", "+v.String()+")")
			fits(t, p, "/api/docs ("+name+")", v)
		}
	}
	clean(t, c)
}

// TestAPIDocsWeight loads the reference with an empty cache and sums what
// went over the wire (compressed), as the DevTools protocol reports it:
// the first load stays within 150 KB, and the operations are there by the
// time the page has loaded. A second visit revalidates the page and moves
// next to nothing.
func TestAPIDocsWeight(t *testing.T) {
	const budget, repeat = 150 << 10, 10 << 10
	srv := startApp(t)
	ops := countOperations(t, srv.URL)
	p, c := blankPage(t)
	m := newMeter(t, p)
	if err := (proto.NetworkSetCacheDisabled{CacheDisabled: true}).Call(p); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	total, byURL := m.load(t, p, srv.URL+api.PathAPIDocs)
	shown := p.MustEval(`() => document.querySelectorAll('#api-docs details.api-op').length`).Int()
	t.Logf("settled %v after navigating; %s", time.Since(start).Round(time.Millisecond), p.MustEval(`() => {
		const nav = performance.getEntriesByType('navigation')[0];
		const fcp = performance.getEntriesByName('first-contentful-paint')[0];
		return 'first contentful paint (the operations are in the page as it arrives) ' + Math.round(fcp ? fcp.startTime : -1) +
			' ms, DOMContentLoaded ' + Math.round(nav.domContentLoadedEventEnd) + ' ms, load ' + Math.round(nav.loadEventEnd) + ' ms';
	}`).Str())
	for _, u := range slices.Sorted(maps.Keys(byURL)) {
		t.Logf("%8.0f %s", byURL[u], strings.TrimPrefix(u, srv.URL))
	}
	t.Logf("%8.0f bytes over the wire in all", total)
	if shown != ops {
		t.Errorf("%d operations shown once the page loaded, want %d", shown, ops)
	}
	if total > budget || total < 10<<10 {
		t.Errorf("the first load of /api/docs moved %.0f bytes, want at most %d", total, budget)
	}
	if err := (proto.NetworkSetCacheDisabled{CacheDisabled: false}).Call(p); err != nil {
		t.Fatal(err)
	}
	m.load(t, p, srv.URL+api.PathAPIDocs) // fills the cache
	again, _ := m.load(t, p, srv.URL+api.PathAPIDocs)
	t.Logf("%8.0f bytes over the wire on a repeat visit", again)
	if again > repeat {
		t.Errorf("a repeat visit moved %.0f bytes, want at most %d", again, repeat)
	}
	noProblems(t, c)
}

// countOperations counts the operations of the served document.
func countOperations(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Get(base + api.PathOpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Paths map[string]map[string]any
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, item := range doc.Paths {
		n += len(item)
	}
	if n < 20 {
		t.Fatalf("only %d operations in the document", n)
	}
	return n
}
