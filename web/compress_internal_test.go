package web

import (
	"bufio"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"
)

// TestCompressStreams: over real HTTP, a streamed body compressed on the
// way reaches the client at each flush, before the handler is done (the
// handler waits for the client to have read its first part), and an
// event stream is never compressed nor held back.
func TestCompressStreams(t *testing.T) {
	read := make(chan struct{})
	e := echo.New()
	row := strings.Repeat("x", 60) + "\n"
	e.GET("/csv", func(c echo.Context) error {
		res := c.Response()
		res.Header().Set(echo.HeaderContentType, "text/csv")
		res.WriteHeader(http.StatusOK)
		for range 40 { // past compressMin
			res.Write([]byte(row))
		}
		res.Flush()
		<-read
		res.Write([]byte("last\n"))
		return nil
	}, compress)
	e.GET("/events", func(c echo.Context) error {
		res := c.Response()
		res.Header().Set(echo.HeaderContentType, "text/event-stream")
		res.WriteHeader(http.StatusOK)
		res.Write([]byte("data: one\n\n"))
		res.Flush()
		<-read
		res.Write([]byte("data: " + strings.Repeat("y", 2000) + "\n\n"))
		return nil
	}, compress)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, accept string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", accept)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}

	for _, enc := range []string{"gzip", "br"} {
		res := get("/csv", enc)
		if res.Header.Get("Content-Encoding") != enc {
			t.Fatalf("%s: Content-Encoding %q", enc, res.Header.Get("Content-Encoding"))
		}
		var lines *bufio.Reader
		if enc == "gzip" {
			z, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			lines = bufio.NewReader(z)
		} else {
			lines = bufio.NewReader(brotli.NewReader(res.Body))
		}
		for i := range 40 {
			if l, err := lines.ReadString('\n'); l != row {
				t.Fatalf("%s: line %d before the end: %q, %v", enc, i, l, err)
			}
		}
		read <- struct{}{}
		if l, _ := lines.ReadString('\n'); l != "last\n" {
			t.Errorf("%s: last line %q", enc, l)
		}
	}

	res := get("/events", "gzip, br")
	if res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("event stream: Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	events := bufio.NewReader(res.Body)
	if l, err := events.ReadString('\n'); l != "data: one\n" {
		t.Fatalf("first event: %q, %v", l, err)
	}
	read <- struct{}{}
}
