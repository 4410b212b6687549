package handlers_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestLinkPreview goes through the real endpoint. Every target is a loopback
// listener or a URL refused before any dial; the engine's own tests cover
// the address policy and the corpus with an injected network.
func TestLinkPreview(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<html><head><meta property="og:title" content="Garden day"><meta name="description" content="Bring gloves"><meta property="og:image" content="/img/g.png"></head></html>`)
	}))
	defer page.Close()
	db := dbtest.Open(t, "sqlite")
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(page.URL, "http://"))
	pagePort, _ := strconv.Atoi(port)
	open := apptest.New(t, db, func(d *web.Deps) {
		d.Config.LinkPreviewAllowPrivate = true
		d.Config.LinkPreviewPorts = []int{pagePort}
	})
	strict := apptest.New(t, db)

	res := apptest.Do(t, open, "GET", "/api/link-preview?url="+url.QueryEscape(page.URL+"/event"), nil)
	want := fmt.Sprintf(`{"title":"Garden day","description":"Bring gloves","image":"%s/img/g.png","url":"%s/event"}`, page.URL, page.URL)
	if res.Code != 200 || strings.TrimSpace(res.Body.String()) != want || res.Header().Get("X-RateLimit-Limit") != "60" {
		t.Errorf("got %d %s (limit %q), want %s", res.Code, res.Body, res.Header().Get("X-RateLimit-Limit"), want)
	}
	tests := []struct {
		app         *apptest.App
		query, want string
		status      int
	}{
		{strict, "", `{"error":"URL is required"}`, 400},
		{strict, "?url=" + url.QueryEscape("ftp://example.com/x"), `"error":"Invalid URL`, 400},
		{strict, "?url=" + url.QueryEscape(page.URL), `"error":"This URL may not be fetched"`, 403},
		{strict, "?url=" + url.QueryEscape("http://2130706433/"), `"error":"This URL may not be fetched"`, 403},
		{open, "?url=" + url.QueryEscape(page.URL+"/missing"), `"details":"404 Not Found"`, 502},
	}
	for _, tt := range tests {
		res := apptest.Do(t, tt.app, "GET", "/api/link-preview"+tt.query, nil)
		if res.Code != tt.status || !strings.Contains(res.Body.String(), tt.want) {
			t.Errorf("%s: got %d %s, want %d with %s", tt.query, res.Code, res.Body, tt.status, tt.want)
		}
	}
}

// TestLinkPreviewPorts: previews fetch only ports 80 and 443 unless
// LINK_PREVIEW_PORTS says otherwise, even where private addresses are
// allowed: an anonymous caller must not make Plaza knock on a host's mail,
// database or admin ports. The target is a loopback listener on a port of
// its own.
func TestLinkPreviewPorts(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Reached</title></head></html>`)
	}))
	defer page.Close()
	db := dbtest.Open(t, "sqlite")
	standard := apptest.New(t, db, func(d *web.Deps) { d.Config.LinkPreviewAllowPrivate = true })
	res := apptest.Do(t, standard, "GET", "/api/link-preview?url="+url.QueryEscape(page.URL+"/"), nil)
	if res.Code != http.StatusForbidden || !strings.Contains(res.Body.String(), "port") {
		t.Errorf("a port beside 80 and 443: %d %s, want 403 naming the port", res.Code, res.Body)
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(page.URL, "http://"))
	n, _ := strconv.Atoi(port)
	listed := apptest.New(t, db, func(d *web.Deps) {
		d.Config.LinkPreviewAllowPrivate = true
		d.Config.LinkPreviewPorts = []int{80, 443, n}
	})
	res = apptest.Do(t, listed, "GET", "/api/link-preview?url="+url.QueryEscape(page.URL+"/"), nil)
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "Reached") {
		t.Errorf("a listed port: %d %s", res.Code, res.Body)
	}
}

// TestLinkPreviewOwnPages: PUBLIC_APP_URL is a loopback address here, as in
// every development setup, and the address policy is strict; the app's own
// pages are previewed all the same, answered by its router in process.
func TestLinkPreviewOwnPages(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	for _, target := range []string{"/og-image-viewer?seed=s1&quote=Hi", "http://127.0.0.1:8080/og-image-viewer?seed=s1&quote=Hi"} {
		res := apptest.Do(t, app, "GET", "/api/link-preview?url="+url.QueryEscape(target), nil)
		var p struct{ Title, Image, URL string }
		_ = json.Unmarshal(res.Body.Bytes(), &p)
		if res.Code != http.StatusOK || p.Title != "Quote card · Plaza" || p.URL != target ||
			!strings.HasPrefix(p.Image, "http://127.0.0.1:8080/api/og-image?") {
			t.Errorf("%s: got %d %s", target, res.Code, res.Body)
		}
	}
	res := apptest.Do(t, app, "GET", "/api/link-preview?url="+url.QueryEscape("http://127.0.0.1:8081/"), nil)
	if res.Code != http.StatusForbidden {
		t.Errorf("another port of the same address is the network's: got %d %s, want 403", res.Code, res.Body)
	}
}

// TestLinkPreviewOwnPagesCountAgainstTheCaller: an in-process request
// comes from the caller's address, so previews of the preview endpoint
// (refused inside, 502 outside) spend the caller's allowance twice.
func TestLinkPreviewOwnPagesCountAgainstTheCaller(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	nested := "/api/link-preview?url=" + url.QueryEscape("/api/link-preview?url=/og-image-viewer")
	for i := range 30 {
		res := apptest.Do(t, app, "GET", nested, nil)
		if res.Code != http.StatusBadGateway || !strings.Contains(res.Body.String(), `"details":"403 Forbidden"`) {
			t.Fatalf("request %d: got %d %s, want 502 with the inner refusal", i+1, res.Code, res.Body)
		}
	}
	if res := apptest.Do(t, app, "GET", "/api/link-preview?url=/og-image-viewer", nil); res.Code != http.StatusTooManyRequests {
		t.Errorf("the 31st call: got %d, want 429: the 30 inner requests were the caller's", res.Code)
	}
}

// TestLinkPreviewOwnPagesNotServed: PUBLIC_APP_URL names another origin
// than the listener (a proxy in front, as in production), and the caller
// comes over real HTTP on 127.0.0.1. A path Plaza does not serve is
// answered by its router in process (its HTML error page included), so the
// caller gets the upstream-error answer, 502 with the page's status, never
// a 500; every case here is settled without resolving or dialling
// plaza.example.
func TestLinkPreviewOwnPagesNotServed(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.PublicAppURL = "http://plaza.example" })
	srv := httptest.NewServer(app)
	defer srv.Close()
	tests := []struct {
		target, want string
		status       int
	}{
		{"/some/path", `{"error":"Could not fetch the page","details":"404 Not Found"}`, 502},
		{"/posts/does-not-exist/at/all", `"details":"404 Not Found"`, 502},
		{"/api/nothing-here", `"details":"404 Not Found"`, 502},
		{"http://plaza.example/some/path", `"details":"404 Not Found"`, 502},
		{"HTTP://PLAZA.EXAMPLE/some/path", `"details":"404 Not Found"`, 502},
		{"/og-image-viewer?seed=s1", `"title":"Quote card · Plaza"`, 200},
		{"//plaza.example/some/path", `"error":"Invalid URL`, 400},
		{"//127.0.0.1/x", `"error":"Invalid URL`, 400},
		{"some/path", `"error":"Invalid URL`, 400},
		{"/api/link-preview?url=/some/path", `"details":"403 Forbidden"`, 502},
	}
	for _, tt := range tests {
		res, err := http.Get(srv.URL + "/api/link-preview?url=" + url.QueryEscape(tt.target))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.status || !strings.Contains(string(body), tt.want) ||
			!strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: got %d %s (%s), want %d with %s", tt.target, res.StatusCode, body, res.Header.Get("Content-Type"), tt.status, tt.want)
		}
	}
}
