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
)

// TestAPIDocsRenders loads /api/docs: the viewer renders every operation
// of the document, the browser reports no problem (a CSP refusal included),
// and no request leaves Plaza.
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
		p.MustNavigate(srv.URL + "/api/docs").MustWaitLoad()
	})
	waitOperations(t, p, ops)
	var summaries string
	step(t, p, "read the page", func(p *rod.Page) {
		summaries = p.MustElement("#api-docs").MustText()
	})
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

// waitOperations waits until the reference shows all n operations.
// Swagger UI resolves and renders the whole document in one go: some
// four seconds on a busy two-core machine, and more when browser tests
// run side by side, so the bound is a minute rather than a step's.
func waitOperations(t *testing.T, p *rod.Page, n int) {
	t.Helper()
	stepWithin(t, p, "operations render", time.Minute, func(p *rod.Page) {
		p.MustWait(`(n) => document.querySelectorAll('#api-docs .opblock').length === n`, n)
	})
}

// countOperations counts the operations of the served document.
func countOperations(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Get(base + "/api/openapi.json")
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

// TestAPIDocsAccessible runs axe on the reference with operations open,
// one of them tried out and executed (a user will open them), in the
// light and then the dark scheme: the page follows a change of scheme as
// it happens.
func TestAPIDocsAccessible(t *testing.T) {
	srv := startApp(t)
	ops := countOperations(t, srv.URL)
	p, c := blankPage(t)
	scheme := func(name string) {
		err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
			{Name: "prefers-color-scheme", Value: name}, {Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p)
		if err != nil {
			t.Fatal(err)
		}
	}
	scheme("light")
	step(t, p, "load /api/docs", func(p *rod.Page) {
		p.MustNavigate(srv.URL + "/api/docs").MustWaitLoad()
	})
	waitOperations(t, p, ops)
	for _, method := range []string{"get", "post", "put", "patch", "delete"} {
		// An operation's first render lays out its whole schema: the
		// first GET, the admin users list, is large, and on a loaded
		// machine it took longer than a step's usual bound.
		stepWithin(t, p, "open a "+method+" operation", time.Minute, func(p *rod.Page) {
			p.MustElement("#api-docs .opblock-" + method + " .opblock-summary-control").MustClick()
			p.MustElement("#api-docs .opblock-" + method + ".is-open .opblock-body")
		})
	}
	step(t, p, "try out a request body", func(p *rod.Page) {
		p.MustElement("#api-docs .opblock-post.is-open .try-out__btn").MustClick()
		p.MustElement("#api-docs .opblock-post.is-open .body-param__text")
	})
	step(t, p, "try out and execute GET /api/version", func(p *rod.Page) {
		opPart(p, "get", "/api/version", ".opblock-summary-control").MustClick()
		opPart(p, "get", "/api/version", ".try-out__btn").MustClick()
		opPart(p, "get", "/api/version", ".execute").MustClick()
		p.MustWait(`() => {
			const op = document.querySelector('#api-docs .opblock-summary-path[data-path="/api/version"]').closest('.opblock');
			const status = op.querySelector('.live-responses-table tbody .response-col_status');
			return !!(status && status.textContent.includes('200'));
		}`)
	})
	for _, name := range []string{"light", "dark"} {
		scheme(name)
		step(t, p, "the reference follows the "+name+" scheme", func(p *rod.Page) {
			p.MustWait(`(dark) => document.documentElement.classList.contains('dark-mode') === dark`, name == "dark")
		})
		accessible(t, p, "/api/docs ("+name+")")
	}
	clean(t, c)
}

// opPart finds selector inside the operation of method and path, waiting
// for it as the page's searches do (an element's own searches do not, and
// Swagger UI draws an operation's parts a moment after the click).
func opPart(p *rod.Page, method, path, selector string) *rod.Element {
	return p.MustElementByJS(`(m, path, sel) => {
		const op = [...document.querySelectorAll('#api-docs .opblock-' + m)]
			.find(o => o.querySelector('.opblock-summary-path').dataset.path === path);
		return op ? op.querySelector(sel) : null;
	}`, method, path, selector)
}

// TestAPIDocsWeight loads the reference with an empty cache and sums
// what went over the wire (compressed), as the DevTools protocol reports
// it: the first load stays under 600 KB.
func TestAPIDocsWeight(t *testing.T) {
	const budget = 600 << 10
	srv := startApp(t)
	ops := countOperations(t, srv.URL)
	p, c := blankPage(t)
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	if err := (proto.NetworkSetCacheDisabled{CacheDisabled: true}).Call(p); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var total float64
	files := map[proto.NetworkRequestID]string{}
	sizes := map[string]float64{}
	go p.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		mu.Lock()
		files[e.RequestID] = e.Request.URL
		mu.Unlock()
	}, func(e *proto.NetworkLoadingFinished) {
		mu.Lock()
		total += e.EncodedDataLength
		sizes[files[e.RequestID]] += e.EncodedDataLength
		mu.Unlock()
	})()
	step(t, p, "load /api/docs", func(p *rod.Page) {
		p.MustNavigate(srv.URL + "/api/docs").MustWaitLoad()
	})
	waitOperations(t, p, ops)
	step(t, p, "the page settles", func(p *rod.Page) { p.MustWaitIdle() })
	mu.Lock()
	defer mu.Unlock()
	for _, u := range slices.Sorted(maps.Keys(sizes)) {
		if strings.HasPrefix(u, "data:") {
			continue // drawn from the stylesheet, nothing on the wire
		}
		t.Logf("%8.0f %s", sizes[u], strings.TrimPrefix(u, srv.URL))
	}
	t.Logf("%8.0f bytes over the wire in all", total)
	if total > budget || total < 10<<10 {
		t.Errorf("the first load of /api/docs moved %.0f bytes, want at most %d", total, budget)
	}
	noProblems(t, c)
}

// TestAPIDocsTryItOutSignedIn: "Try it out" calls the API as the signed-in
// person (the browser sends the session cookie to its own origin), and a
// POST passes the cross-origin check.
func TestAPIDocsTryItOutSignedIn(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.admin, "/api/docs")
	waitOperations(t, p, countOperations(t, pz.base))
	for _, call := range []struct{ method, path, want string }{
		{"get", "/api/auth/session", "ana@plaza.test"},
		{"post", "/api/auth/2fa/setup", "otpauth://"},
	} {
		step(t, p, "open "+call.method+" "+call.path, func(p *rod.Page) {
			opPart(p, call.method, call.path, ".opblock-summary-control").MustClick()
			opPart(p, call.method, call.path, ".try-out__btn").MustClick()
		})
		step(t, p, "execute "+call.method+" "+call.path, func(p *rod.Page) {
			opPart(p, call.method, call.path, ".execute").MustClick()
			// An element's own searches do not wait for the answer; the page's do.
			p.MustWait(`(m, path, want) => {
				const op = [...document.querySelectorAll('#api-docs .opblock-' + m)]
					.find(o => o.querySelector('.opblock-summary-path').dataset.path === path);
				const status = op && op.querySelector('.live-responses-table tbody .response-col_status');
				const body = op && op.querySelector('.live-responses-table tbody .response-col_description');
				return !!(status && status.textContent.includes('200') && body && body.textContent.includes(want));
			}`, call.method, call.path, call.want)
		})
	}
	clean(t, c)
}
