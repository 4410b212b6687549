package linkpreview

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// selfApp is an app's own router for the fetcher's in-process requests:
// it records what it was asked and serves a few pages.
type selfApp struct {
	mu   sync.Mutex
	seen []*http.Request
	mux  *http.ServeMux
}

func newSelfApp() *selfApp {
	a := &selfApp{mux: http.NewServeMux()}
	a.mux.HandleFunc("/posts/1", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Our post</title><meta name="description" content="From the app"><meta property="og:image" content="/img/p.png"></head></html>`)
	})
	a.mux.Handle("/old", http.RedirectHandler("/posts/1", http.StatusMovedPermanently))
	a.mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	a.mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = fmt.Fprint(w, "<html><head><title>Big</title></head><body>")
		for {
			if _, err := w.Write([]byte(strings.Repeat("x", 4096))); err != nil {
				return // the fetcher's cap ends the handler's writes
			}
		}
	})
	a.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // a handler that answers only when told to stop
	})
	return a
}

func (a *selfApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.seen = append(a.seen, r)
	a.mu.Unlock()
	a.mux.ServeHTTP(w, r)
}

func (a *selfApp) requests() []*http.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*http.Request(nil), a.seen...)
}

// TestPreviewOwnPagesInProcess: with the app's address private (every
// development setup), its own pages are still previewed, from its router,
// and nothing is dialled.
func TestPreviewOwnPagesInProcess(t *testing.T) {
	s := newSite(t)
	s.net.host("plaza.internal", "10.1.2.3")
	app := newSelfApp()
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.internal:8080", Self: app})
	want := Preview{Title: "Our post", Description: "From the app", Image: "http://plaza.internal:8080/img/p.png"}
	for _, u := range []string{"/posts/1", "http://plaza.internal:8080/posts/1", "/old", "HTTP://plaza.internal:8080/old"} {
		got, err := f.Preview(WithClient(context.Background(), "198.51.100.7"), u)
		want.URL = u
		if err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", u, got, err, want)
		}
	}
	if n := s.net.dialCount(); n != 0 {
		t.Errorf("%d dials, want none", n)
	}
	r := app.requests()[0]
	if r.Header.Get("User-Agent") != "Plaza-LinkPreview/1.0 (+http://plaza.internal:8080)" || r.RemoteAddr != "198.51.100.7:0" ||
		r.Host != "plaza.internal:8080" || r.RequestURI != "/posts/1" {
		t.Errorf("in-process request: UA %q from %q host %q uri %q", r.Header.Get("User-Agent"), r.RemoteAddr, r.Host, r.RequestURI)
	}
	// Another origin on the same private address is the network's, and refused.
	_, err := f.Preview(context.Background(), "http://plaza.internal:9090/posts/1")
	wantKind(t, err, KindForbidden, "")
}

// TestPreviewOwnPagesRedirects: a redirect from the app to elsewhere
// leaves the process and meets the address policy; one from elsewhere back
// to the app is answered in process.
func TestPreviewOwnPagesRedirects(t *testing.T) {
	s := newSite(t)
	app := newSelfApp()
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.test", Self: app})
	got, err := f.Preview(context.Background(), "/away?to=http://example.test/corpus/og-full")
	if err != nil || got.Title != "Open Graph title" {
		t.Errorf("to the web: got %+v, %v", got, err)
	}
	_, err = f.Preview(context.Background(), "/away?to=http://10.0.0.1/")
	wantKind(t, err, KindForbidden, "")
	got, err = f.Preview(context.Background(), "http://example.test/to?u=http://plaza.test/posts/1")
	if err != nil || got.Title != "Our post" {
		t.Errorf("back to the app: got %+v, %v", got, err)
	}
	_, err = f.Preview(context.Background(), "/away?to=/away?to=/away?to=/away?to=/away?to=/away?to=/posts/1")
	wantKind(t, err, KindUpstream, "more than 5 redirects")
}

// TestPreviewOwnPagesLimits: the body cap and the time limit hold in
// process, and a preview asked for from inside one is refused.
func TestPreviewOwnPagesLimits(t *testing.T) {
	s := newSite(t)
	app := newSelfApp()
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.test", Self: app, MaxBody: 64 << 10, Timeout: 50e6})
	got, err := f.Preview(context.Background(), "/big")
	if err != nil || got.Title != "Big" {
		t.Errorf("big page: got %+v, %v", got, err)
	}
	_, err = f.Preview(context.Background(), "/slow")
	wantKind(t, err, KindTimeout, "")
	inner := app.requests()[len(app.requests())-1].Context()
	_, err = f.Preview(inner, "/posts/1")
	wantKind(t, err, KindForbidden, "a link preview cannot preview another")
}

// TestPreviewOwnPagesFlush: the app's pages may flush as they render (its
// HTML error pages do); in process that is a no-op on the buffered answer,
// and a page the app does not serve is an upstream 404 like any other.
func TestPreviewOwnPagesFlush(t *testing.T) {
	s := newSite(t)
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		status := http.StatusOK
		if r.URL.Path != "/posts/1" {
			status = http.StatusNotFound
		}
		w.WriteHeader(status)
		fmt.Fprint(w, "<html><head><title>Flushed</title>")
		w.(http.Flusher).Flush()
		fmt.Fprint(w, "</head></html>")
	})
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.example", Self: app})
	got, err := f.Preview(context.Background(), "/posts/1")
	if err != nil || got.Title != "Flushed" {
		t.Errorf("a flushing page: got %+v, %v", got, err)
	}
	_, err = f.Preview(context.Background(), "/not/served")
	wantKind(t, err, KindUpstream, "404 Not Found")
	if n := s.net.dialCount(); n != 0 {
		t.Errorf("%d dials, want none", n)
	}
}
