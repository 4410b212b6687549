package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

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
	step(t, p, "operations render", func(p *rod.Page) {
		p.MustWait(`(n) => document.querySelectorAll('#api-docs .opblock').length === n`, ops)
	})
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
