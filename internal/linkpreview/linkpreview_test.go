package linkpreview

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/plazahq/plaza/internal/netguard"
)

// site is the test web: an httptest server that fakeNet reaches as
// example.test (203.0.113.10:80), serving the corpus and a few special
// pages.
type site struct {
	net *fakeNet
	srv *httptest.Server
	mux *http.ServeMux

	mu   sync.Mutex
	seen []http.Header // request headers, in order
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{net: newFakeNet(t), mux: http.NewServeMux()}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Header.Clone())
		s.mu.Unlock()
		s.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	s.net.host("example.test", "203.0.113.10")
	s.net.route("203.0.113.10:80", s.srv.Listener.Addr().String())
	for _, e := range loadCorpus(t) {
		body := e.body(t)
		s.mux.HandleFunc(e.path(), func(w http.ResponseWriter, r *http.Request) {
			if e.ContentType == "" {
				w.Header()["Content-Type"] = nil // no header at all, and no sniffing by the server
			} else {
				w.Header().Set("Content-Type", e.ContentType)
			}
			writeEncoded(t, w, e.ContentEncoding, body)
		})
		if e.RedirectFrom != "" {
			s.mux.Handle(e.RedirectFrom, http.RedirectHandler("/hop/2?to="+e.path(), http.StatusMovedPermanently))
		}
	}
	// /hop/N redirects N times, then lands on ?to= (default /corpus/og-full).
	s.mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		to := r.URL.Query().Get("to")
		if to == "" {
			to = "/corpus/og-full"
		}
		if n <= 1 {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d?to=%s", n-1, to), http.StatusTemporaryRedirect)
	})
	// /to?u=URL redirects anywhere.
	s.mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", r.URL.Query().Get("u"))
		w.WriteHeader(http.StatusFound)
	})
	return s
}

func writeEncoded(t *testing.T, w http.ResponseWriter, enc string, body []byte) {
	switch enc {
	case "":
		_, _ = w.Write(body)
	case "gzip":
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		_, _ = zw.Write(body)
		_ = zw.Close()
	case "br":
		w.Header().Set("Content-Encoding", "br")
		bw := brotli.NewWriter(w)
		_, _ = bw.Write(body)
		_ = bw.Close()
	default:
		t.Errorf("unknown encoding %q", enc)
	}
}

func (s *site) headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.seen...)
}

// wantKind checks that err is an *Error of kind k (and details, if given).
func wantKind(t *testing.T, err error, k Kind, details string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want a *linkpreview.Error of kind %v", err, err, k)
	}
	if e.Kind != k || (details != "" && e.Details != details) {
		t.Errorf("got %v / %q, want %v / %q", e.Kind, e.Details, k, details)
	}
}

func TestPreviewCorpus(t *testing.T) {
	s := newSite(t)
	f := newTestFetcher(t, s.net, Config{})
	for _, e := range loadCorpus(t) {
		t.Run(e.Name, func(t *testing.T) {
			u := corpusHost + e.requestPath()
			got, err := f.Preview(context.Background(), u)
			if err != nil {
				t.Fatalf("Preview(%s): %v", u, err)
			}
			want := Preview{Title: e.Want.Title, Description: e.Want.Description, Image: e.Want.Image, URL: u}
			if got != want {
				t.Errorf("Preview(%s)\n got %+v\nwant %+v\n(%s)", u, got, want, e.Note)
			}
		})
	}
}

func TestPreviewRequest(t *testing.T) {
	s := newSite(t)
	s.mux.HandleFunc("/set-cookie", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "secret", Path: "/"})
		http.Redirect(w, r, "/corpus/og-full", http.StatusFound)
	})
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "https://plaza.example.com"})
	if _, err := f.Preview(context.Background(), "http://example.test/set-cookie"); err != nil {
		t.Fatal(err)
	}
	seen := s.headers()
	if len(seen) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(seen))
	}
	for i, h := range seen {
		if got, want := h.Get("User-Agent"), "Plaza-LinkPreview/1.0 (+https://plaza.example.com)"; got != want {
			t.Errorf("request %d: User-Agent %q, want %q", i, got, want)
		}
		if c := h.Values("Cookie"); len(c) != 0 {
			t.Errorf("request %d: sent cookies %q", i, c)
		}
		if got := h.Get("Accept-Encoding"); got != "gzip, br" {
			t.Errorf("request %d: Accept-Encoding %q", i, got)
		}
	}
	if got := f.UserAgent(); got != "Plaza-LinkPreview/1.0 (+https://plaza.example.com)" {
		t.Errorf("UserAgent() = %q", got)
	}
}

func TestPreviewDefaults(t *testing.T) {
	f := New(Config{})
	if f.cfg.Timeout != 10*time.Second || f.cfg.MaxBody != 2<<20 || f.cfg.MaxRedirects != 5 {
		t.Errorf("defaults: timeout %v, max body %d, max redirects %d", f.cfg.Timeout, f.cfg.MaxBody, f.cfg.MaxRedirects)
	}
	tr := f.client.Transport.(transport).net.(*http.Transport)
	if tr.Proxy != nil || f.client.Jar != nil || !tr.DisableKeepAlives {
		t.Error("transport must use no proxy, no cookie jar and no kept-alive connections")
	}
}

func TestPreviewBadURL(t *testing.T) {
	f := newTestFetcher(t, newFakeNet(t), Config{})
	for _, u := range []string{"", "   ", "\t\n"} {
		_, err := f.Preview(context.Background(), u)
		wantKind(t, err, KindMissingURL, "")
		if !errors.Is(err, ErrMissingURL) {
			t.Errorf("errors.Is(%v, ErrMissingURL) = false", err)
		}
	}
	for _, u := range []string{
		"ftp://example.test/", "javascript:alert(1)", "mailto:a@example.test", "file:///etc/passwd", "data:text/html,hi",
		"not a url", "example.test/page", "//example.test/page", "http://", "http:///path", "http:example.test",
		"http://user:pw@example.test/", "http://example.test:99999/", "http://example.test:0/", "http://1.2.3.256/",
		"http://1.2.3.4.5/", "http://exa mple.test/", "http://%zz/", "http://[::1/", "https://" + strings.Repeat("a", 5000) + ".test/",
	} {
		_, err := f.Preview(context.Background(), u)
		wantKind(t, err, KindBadURL, "")
	}
}

func TestPreviewInternalPath(t *testing.T) {
	s := newSite(t)
	f := newTestFetcher(t, s.net, Config{PublicAppURL: "http://example.test"})
	got, err := f.Preview(context.Background(), "/corpus/og-relative-image")
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{Title: "Relative", Description: "Image path is relative to the page",
		Image: "http://example.test/img/cover.png", URL: "/corpus/og-relative-image"}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}

	// The usual case: the app's own address is private, so internal paths
	// need LINK_PREVIEW_ALLOW_PRIVATE.
	s.net.host("plaza.internal", "10.1.2.3")
	s.net.route("10.1.2.3:8080", s.srv.Listener.Addr().String())
	f = newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.internal:8080"})
	_, err = f.Preview(context.Background(), "/corpus/og-full")
	wantKind(t, err, KindForbidden, "")
	if n := s.net.dialCount(); n != 1 { // the first Preview only
		t.Errorf("%d dials, want 1", n)
	}
	f = newTestFetcher(t, s.net, Config{PublicAppURL: "http://plaza.internal:8080", AllowPrivate: true})
	got, err = f.Preview(context.Background(), "/corpus/og-full")
	if err != nil || got.Title != "Open Graph title" {
		t.Errorf("allow private: got %+v, %v", got, err)
	}
}

// TestPreviewRefusesAddressSpellings tries every spelling of an internal
// address; none may reach the resolver or the dialer.
func TestPreviewRefusesAddressSpellings(t *testing.T) {
	n := newFakeNet(t)
	f := newTestFetcher(t, n, Config{})
	for _, u := range []string{
		"http://127.0.0.1/", "http://127.0.0.1:8080/admin", "https://127.0.0.1:8443/", "http://127.255.255.254/",
		"http://2130706433/", "http://017700000001/", "http://0177.0.0.1/", "http://0177.1/", "http://0x7f.1/",
		"http://0x7F.0.0.1/", "http://0x7f000001/", "http://127.1/", "http://127.0.1/", "http://127.0.0.1./",
		"http://127.000.000.001/", "http://0/", "http://0.0.0.0/", "http://0x0/",
		"http://[::1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
		"http://[0:0:0:0:0:ffff:127.0.0.1]/", "http://[::127.0.0.1]/", "http://[64:ff9b::127.0.0.1]/",
		"http://[2002:7f00:1::]/", "http://[fe80::1]/", "http://[fe80::1%25eth0]/", "http://[fc00::1]/",
		"http://[fd00:ec2::254]/", "http://[ff02::1]/",
		"http://localhost/", "http://localhost./", "http://LOCALHOST/", "http://LocalHost.:80/", "http://app.localhost/",
		"http://10.0.0.1/", "http://10.1/", "http://167772161/", "http://192.168.1.1/", "http://0xc0a80101/",
		"http://172.16.0.1/", "http://172.31.255.255/", "http://100.64.0.1/", "http://169.254.169.254/latest/meta-data/",
		"http://169.254.43518/", "http://0xa9fea9fe/", "http://224.0.0.1/", "http://255.255.255.255/",
		"http://198.18.0.1/", "http://１２７.０.０.１/", "http://①②⑦.0.0.1/", "http://[::ffff:a9fe:a9fe]/",
	} {
		_, err := f.Preview(context.Background(), u)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindForbidden {
			t.Errorf("Preview(%s) = %v, want forbidden", u, err)
		}
	}
	if d := n.dialCount(); d != 0 {
		t.Errorf("%d dials made, want none", d)
	}
}

// TestPreviewRefusesPrivateAnswers gives names that resolve to internal
// addresses; they are refused before any dial.
func TestPreviewRefusesPrivateAnswers(t *testing.T) {
	n := newFakeNet(t)
	for name, addrs := range map[string][]string{
		"internal.test": {"10.0.0.5"},
		"metadata.test": {"169.254.169.254"},
		"loop6.test":    {"::1"},
		"mapped.test":   {"::ffff:127.0.0.1"},
		"nat64.test":    {"64:ff9b::a00:1"},
		"ula.test":      {"fd12::1"},
		"mixed.test":    {"203.0.113.10", "127.0.0.1"},
		"cgnat.test":    {"100.100.100.100"},
	} {
		n.host(name, addrs...)
	}
	f := newTestFetcher(t, n, Config{})
	for _, host := range []string{"internal.test", "metadata.test", "loop6.test", "mapped.test", "nat64.test", "ula.test", "mixed.test", "cgnat.test"} {
		_, err := f.Preview(context.Background(), "http://"+host+"/")
		wantKind(t, err, KindForbidden, "target address is not allowed")
	}
	if d := n.dialCount(); d != 0 {
		t.Errorf("%d dials made, want none", d)
	}
}

func TestPreviewRedirects(t *testing.T) {
	s := newSite(t)
	s.net.host("internal.test", "10.0.0.5")
	f := newTestFetcher(t, s.net, Config{})

	got, err := f.Preview(context.Background(), "http://example.test/hop/5")
	if err != nil || got.Title != "Open Graph title" {
		t.Errorf("5 redirects: got %+v, %v", got, err)
	}
	_, err = f.Preview(context.Background(), "http://example.test/hop/6")
	wantKind(t, err, KindUpstream, "more than 5 redirects")

	f3 := newTestFetcher(t, s.net, Config{MaxRedirects: 3})
	_, err = f3.Preview(context.Background(), "http://example.test/hop/4")
	wantKind(t, err, KindUpstream, "more than 3 redirects")

	for _, to := range []string{
		"http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://[::1]:8080/", "http://[::ffff:127.0.0.1]/",
		"http://localhost./admin", "http://internal.test/", "http://169.254.169.254/latest/meta-data/",
		"file:///etc/passwd", "ftp://example.test/", "gopher://example.test/", "http://user:pw@example.test/",
	} {
		before := s.net.dialCount()
		_, err := f.Preview(context.Background(), "http://example.test/to?u="+urlQueryEscape(to))
		wantKind(t, err, KindForbidden, "")
		if d := s.net.dialCount() - before; d != 1 {
			t.Errorf("redirect to %s: %d dials, want 1 (the first hop)", to, d)
		}
	}
}

func urlQueryEscape(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", "#", "%23", "?", "%3F", "=", "%3D")
	return r.Replace(s)
}

// TestPreviewDNSRebinding: the name answers a public address first and
// loopback on the next lookup; the redirect back to the same name dials
// again, checks again and is refused.
func TestPreviewDNSRebinding(t *testing.T) {
	s := newSite(t)
	s.net.rebinding("rebind.test", "203.0.113.10", "127.0.0.1")
	s.mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/corpus/og-full", http.StatusFound)
	})
	f := newTestFetcher(t, s.net, Config{})
	_, err := f.Preview(context.Background(), "http://rebind.test/start")
	wantKind(t, err, KindForbidden, "")
	if got := s.net.lookupCount("rebind.test"); got != 2 {
		t.Errorf("%d lookups, want 2", got)
	}
}

func TestPreviewUpstreamErrors(t *testing.T) {
	s := newSite(t)
	for path, code := range map[string]int{"/404": 404, "/500": 500, "/503": 503, "/410": 410, "/300": 300, "/299": 299, "/599": 599} {
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
	}
	s.mux.HandleFunc("/bad-gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write([]byte("this is not gzip"))
	})
	s.mux.HandleFunc("/bad-br", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write([]byte("this is not brotli at all, not even close"))
	})
	s.mux.HandleFunc("/compress", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "compress")
	})
	s.mux.HandleFunc("/hangup", func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<title>cut"))
			_ = conn.Close()
		}
	})
	s.mux.HandleFunc("/garbage", func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_, _ = conn.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n"))
			_ = conn.Close()
		}
	})
	s.net.nx["nx.test"] = true
	closed := closedLoopbackAddr(t)
	s.net.host("down.test", "203.0.113.30")
	s.net.route("203.0.113.30:80", closed)
	f := newTestFetcher(t, s.net, Config{})
	for _, tt := range []struct{ url, details string }{
		{"http://example.test/404", "404 Not Found"},
		{"http://example.test/500", "500 Internal Server Error"},
		{"http://example.test/503", "503 Service Unavailable"},
		{"http://example.test/410", "410 Gone"},
		{"http://example.test/300", "300 Multiple Choices"},
		{"http://example.test/599", "599"},
		{"http://example.test/missing", "404 Not Found"},
		{"http://example.test/bad-gzip", "invalid gzip body"},
		{"http://example.test/bad-br", "error reading the response body"},
		{"http://example.test/compress", "unsupported content encoding"},
		{"http://example.test/hangup", "error reading the response body"},
		{"http://example.test/garbage", "request failed"},
		{"http://nx.test/", "could not resolve host"},
		{"http://down.test/", "connection refused"},
	} {
		t.Run(tt.url, func(t *testing.T) {
			_, err := f.Preview(context.Background(), tt.url)
			wantKind(t, err, KindUpstream, tt.details)
		})
	}
	// A 2xx that is not 200 is still a page.
	if _, err := f.Preview(context.Background(), "http://example.test/299"); err != nil {
		t.Errorf("299: %v", err)
	}
}

// closedLoopbackAddr returns a loopback address nothing listens on.
func closedLoopbackAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestPreviewTimeout(t *testing.T) {
	s := newSite(t)
	s.mux.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	s.mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><head><title>partial"))
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	s.mux.HandleFunc("/slow-redirect", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(60 * time.Millisecond)
		http.Redirect(w, r, "/slow-redirect", http.StatusFound)
	})
	s.mux.HandleFunc("/early-flush", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!DOCTYPE html><html><head>"+strings.Repeat("<link rel=preload href=/a.css as=style>", 30)+
			`<meta property="og:title" content="Flushed early"><meta property="og:description" content="D">`+
			`<meta property="og:image" content="/early.png"><base href="/">`)
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done() // the body never comes
	})
	f := newTestFetcher(t, s.net, Config{Timeout: 150 * time.Millisecond, MaxRedirects: 20})

	// A page that flushes its head and stalls has already given the answer.
	got, err := f.Preview(context.Background(), "http://example.test/early-flush")
	if want := "http://example.test/early.png"; err != nil || got.Title != "Flushed early" || got.Image != want {
		t.Errorf("early flush: got %+v, %v", got, err)
	}

	for _, path := range []string{"/slow-headers", "/slow-body", "/slow-redirect"} {
		start := time.Now()
		_, err := f.Preview(context.Background(), "http://example.test"+path)
		wantKind(t, err, KindTimeout, "no answer within 150ms")
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", path, d)
		}
	}

	// The caller giving up is not a timeout of the target.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err = f.Preview(ctx, "http://example.test/slow-headers")
	var e *Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &e) {
		t.Errorf("canceled caller: got %v, want context.Canceled", err)
	}
}

func TestPreviewBodyCap(t *testing.T) {
	filler := bytes.Repeat([]byte("<p>filler text</p>\n"), 1<<16) // 1.25 MiB
	tags := []byte(`<meta property="og:title" content="Found">`)
	s := newSite(t)
	serve := func(path string, parts ...[]byte) {
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			for _, p := range parts {
				if _, err := w.Write(p); err != nil {
					return
				}
			}
		})
	}
	serve("/within", []byte("<html>"), filler[:len(filler)/2], filler, tags) // tags end at about 1.9 MiB
	serve("/beyond", []byte("<html>"), filler, filler, tags)                 // tags at 2.5 MiB
	s.mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for {
			if _, err := w.Write(filler); err != nil {
				return
			}
		}
	})
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	for range 8 {
		_, _ = zw.Write(filler) // 10 MiB inflated
	}
	_, _ = zw.Write(tags)
	_ = zw.Close()
	s.mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	})
	f := newTestFetcher(t, s.net, Config{})
	const slack = 128 << 10 // headers, the transport's buffer and one read's worth
	for _, tt := range []struct {
		path, title string
	}{{"/within", "Found"}, {"/beyond", ""}, {"/endless", ""}, {"/bomb", ""}} {
		before := s.net.read.Load()
		got, err := f.Preview(context.Background(), "http://example.test"+tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if got.Title != tt.title {
			t.Errorf("%s: title %q, want %q", tt.path, got.Title, tt.title)
		}
		if read := s.net.read.Load() - before; read > DefaultMaxBody+slack {
			t.Errorf("%s: read %d bytes from the wire, cap is %d", tt.path, read, DefaultMaxBody)
		}
	}
}

func TestPreviewHTTPS(t *testing.T) {
	n := newFakeNet(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, `<meta property="og:title" content="Over TLS"><meta property="og:image" content="/tls.png">`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	// httptest's certificate is valid for example.com; fakeNet resolves it, no real DNS is asked.
	n.host("example.com", "203.0.113.20")
	n.route("203.0.113.20:443", srv.Listener.Addr().String())
	f := newTestFetcher(t, n, Config{TLSConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}})
	got, err := f.Preview(context.Background(), "https://example.com/page")
	if want := (Preview{Title: "Over TLS", Image: "https://example.com/tls.png", URL: "https://example.com/page"}); err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}

	// Without the test CA the handshake fails: a 502, not a 500.
	f = newTestFetcher(t, n, Config{TLSConfig: &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}})
	_, err = f.Preview(context.Background(), "https://example.com/page")
	wantKind(t, err, KindUpstream, "TLS handshake failed")
}

func TestPreviewAllowPrivate(t *testing.T) {
	s := newSite(t)
	s.net.host("intranet.test", "10.1.2.3")
	s.net.route("10.1.2.3:80", s.srv.Listener.Addr().String())
	loop := s.srv.Listener.Addr().String()
	s.net.route(loop, loop)
	f := newTestFetcher(t, s.net, Config{AllowPrivate: true})
	for _, u := range []string{"http://intranet.test/corpus/og-full", "http://" + loop + "/corpus/og-full", "http://example.test/to?u=http://intranet.test/corpus/og-full"} {
		got, err := f.Preview(context.Background(), u)
		if err != nil || got.Title != "Open Graph title" {
			t.Errorf("%s: got %+v, %v", u, got, err)
		}
	}
}

func TestPreviewRefusalCache(t *testing.T) {
	s := newSite(t)
	s.net.host("internal.test", "10.0.0.5")
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cache := &keyLog{MemoryCache: netguard.NewMemoryCache(16, func() time.Time { return now })}
	f := newTestFetcher(t, s.net, Config{RefusalCache: cache, RefusalTTL: time.Minute})
	for range 3 {
		_, err := f.Preview(context.Background(), "http://internal.test/x")
		wantKind(t, err, KindForbidden, "")
	}
	if got := s.net.lookupCount("internal.test"); got != 1 {
		t.Errorf("%d lookups, want 1 (later refusals come from the cache)", got)
	}
	now = now.Add(2 * time.Minute)
	_, err := f.Preview(context.Background(), "http://internal.test/x")
	wantKind(t, err, KindForbidden, "")
	if got := s.net.lookupCount("internal.test"); got != 2 {
		t.Errorf("%d lookups after expiry, want 2", got)
	}
	// Successes and requested URLs are not stored.
	if _, err := f.Preview(context.Background(), "http://example.test/corpus/og-full"); err != nil {
		t.Fatal(err)
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if len(cache.keys) != 1 {
		t.Errorf("cache was given keys %q, want one", cache.keys)
	}
	for _, k := range cache.keys {
		if strings.Contains(k, "internal") {
			t.Errorf("cache key %q holds the host in clear", k)
		}
	}
}

// keyLog is a refusal cache that notes the distinct keys it is given.
type keyLog struct {
	*netguard.MemoryCache
	mu   sync.Mutex
	keys []string
}

func (c *keyLog) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	if !slices.Contains(c.keys, key) {
		c.keys = append(c.keys, key)
	}
	c.mu.Unlock()
	return c.MemoryCache.Set(ctx, key, value, ttl)
}

func TestErrorIs(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", newError(KindForbidden, "target address is not allowed", nil))
	if !errors.Is(err, ErrForbidden) || errors.Is(err, ErrUpstream) {
		t.Error("errors.Is does not match by kind")
	}
	if s := err.Error(); !strings.Contains(s, "forbidden") || !strings.Contains(s, "not allowed") {
		t.Errorf("message %q", s)
	}
}
