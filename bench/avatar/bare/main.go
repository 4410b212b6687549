// Command bare is the floor of bench/avatar/compare.sh: a bare net/http
// handler that answers GET /api/avatar-image with one fixed avatar SVG,
// rendered once at start by Plaza's own engine (avatar.Render) at 200 px,
// and the same response headers Plaza sends there, so that the bytes on the
// wire match Plaza's and the difference is Plaza's framework, middleware and
// rendering. It parses the query as a real handler would (seed required,
// size checked), and does nothing else: no logging, no metrics, no limiter.
//
// Usage: go run ./bench/avatar/bare [-addr 127.0.0.1:18103]
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/plazahq/plaza/internal/avatar"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18103", "listen address (keep it on loopback)")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("-addr %q: want a loopback address such as 127.0.0.1:18103", *addr)
	}
	seed, svg := typicalAvatar(2000)
	log.Printf("serving avatar %q (%d bytes) on %s", seed, len(svg), *addr)
	srv := &http.Server{Addr: *addr, Handler: handler(svg), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// typicalAvatar renders n seeds of the load generator's pattern
// (bench/avatar.lua) at the default size and returns the one whose SVG length
// is closest to their mean, so the fixed answer is as long as a typical one.
func typicalAvatar(n int) (string, []byte) {
	seeds := make([]string, n)
	lens := make([]int, n)
	total := 0
	for i := range n {
		seeds[i] = "bench-1-" + strconv.Itoa(i+1)
		lens[i] = len(avatar.Render(seeds[i], avatar.DefaultSize))
		total += lens[i]
	}
	mean, best := total/n, 0
	for i := range n {
		if abs(lens[i]-mean) < abs(lens[best]-mean) {
			best = i
		}
	}
	return seeds[best], avatar.Render(seeds[best], avatar.DefaultSize)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// plazaHeaders are the headers Plaza's GET /api/avatar-image answers with
// (besides Date, which net/http adds), with values of the same length: the
// request id and the rate-limit window are fixed here.
var plazaHeaders = map[string][]string{
	"Cache-Control":              {"no-cache, no-store, must-revalidate"},
	"Content-Security-Policy":    {"default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
	"Content-Type":               {"image/svg+xml"},
	"Cross-Origin-Opener-Policy": {"same-origin"},
	"Permissions-Policy":         {"camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
	"Referrer-Policy":            {"strict-origin-when-cross-origin"},
	"X-Content-Type-Options":     {"nosniff"},
	"X-Frame-Options":            {"DENY"},
	"X-Ratelimit-Limit":          {"1000000000"},
	"X-Ratelimit-Remaining":      {"999999999"},
	"X-Ratelimit-Reset":          {"1795465439"},
	"X-Request-Id":               {"BareBareBareBareBareBareBareBare"},
	"X-Xss-Protection":           {"0"},
}

func handler(svg []byte) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/avatar-image", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if _, err := avatar.ParseSeed(q.Get("seed")); err != nil {
			http.Error(w, `{"error":"seed is required","status":400}`, http.StatusBadRequest)
			return
		}
		if _, err := avatar.ParseSize(q.Get("size")); err != nil {
			http.Error(w, `{"error":"size must be an integer from 50 to 1000","status":400}`, http.StatusBadRequest)
			return
		}
		h := w.Header()
		for k, v := range plazaHeaders {
			h[k] = v
		}
		h["Content-Length"] = []string{strconv.Itoa(len(svg))}
		// As Plaza (echo's Blob): status first, then the body in one write.
		w.WriteHeader(http.StatusOK)
		w.Write(svg) //nolint:errcheck // a client gone away is not this server's error
	})
	return mux
}
