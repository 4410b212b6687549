package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAPICompression: over real HTTP, a big JSON list comes in brotli or
// gzip as the client asks, and both unpack to the JSON sent to a client
// that takes neither; a small body, a HEAD and an avatar go as they are;
// Vary names Accept-Encoding; an export unpacks to the same file.
func TestAPICompression(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin, _ := app.Admin(t)
	for i := range 60 {
		app.User(t, fmt.Sprintf("member%02d@example.com", i))
	}
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(method, path, accept string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for k, v := range admin {
			req.Header[k] = v
		}
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, unpack(t, res.Header.Get("Content-Encoding"), body)
	}

	const list = "/api/v1/admin/users?limit=100"
	plainRes, plain := get(http.MethodGet, list, "")
	if plainRes.StatusCode != http.StatusOK || plainRes.Header.Get("Content-Encoding") != "" || len(plain) < 4096 || !json.Valid(plain) {
		t.Fatalf("plain list: %d, encoding %q, %d bytes", plainRes.StatusCode, plainRes.Header.Get("Content-Encoding"), len(plain))
	}
	for _, c := range []struct{ accept, want string }{
		{"gzip", "gzip"}, {"br", "br"}, {"gzip, deflate, br", "br"}, {"br;q=0.5, gzip", "gzip"}, {"br;q=0, gzip;q=0", ""}, {"deflate", ""},
	} {
		res, body := get(http.MethodGet, list, c.accept)
		if got := res.Header.Get("Content-Encoding"); got != c.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.accept, got, c.want)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: Vary %q", c.accept, res.Header.Get("Vary"))
		}
		if !sameJSON(t, plain, body) {
			t.Errorf("Accept-Encoding %q: the body unpacks to other JSON", c.accept)
		}
	}

	if res, body := get(http.MethodGet, "/api/version", "gzip, br"); res.Header.Get("Content-Encoding") != "" || len(body) >= 1024 ||
		!strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("small body: encoding %q, %d bytes, Vary %q", res.Header.Get("Content-Encoding"), len(body), res.Header.Get("Vary"))
	}
	if res, body := get(http.MethodHead, list, "gzip, br"); res.Header.Get("Content-Encoding") != "" || len(body) != 0 {
		t.Errorf("HEAD: encoding %q, %d bytes", res.Header.Get("Content-Encoding"), len(body))
	}
	plainAvatar, _ := get(http.MethodGet, "/api/avatar-image?seed=Ada&size=64", "")
	avatar, png := get(http.MethodGet, "/api/avatar-image?seed=Ada&size=64", "gzip, br")
	if avatar.Header.Get("Content-Encoding") != "" || avatar.Header.Get("Content-Length") != plainAvatar.Header.Get("Content-Length") || len(png) < 100 ||
		avatar.Header.Get("Cache-Control") != "no-cache, no-store, must-revalidate" {
		t.Errorf("avatar: encoding %q, length %q (plain %q), Cache-Control %q", avatar.Header.Get("Content-Encoding"),
			avatar.Header.Get("Content-Length"), plainAvatar.Header.Get("Content-Length"), avatar.Header.Get("Cache-Control"))
	}

	app.FlushAudit(t)
	const export = "/api/v1/admin/audit-logs/export?format=csv&action=users.list"
	_, plainCSV := get(http.MethodGet, export, "")
	res, zippedCSV := get(http.MethodGet, export, "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(plainCSV, zippedCSV) || len(plainCSV) < 1024 {
		t.Errorf("CSV export: encoding %q, %d bytes unpacked, %d plain", res.Header.Get("Content-Encoding"), len(zippedCSV), len(plainCSV))
	}
}

func unpack(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return body
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = z
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("unpacking %s: %v", encoding, err)
	}
	return out
}

// sameJSON compares two bodies as data: each request carries its own
// request id and timing, so the meta may differ.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y map[string]any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return false
	}
	xd, _ := json.Marshal(x["data"])
	yd, _ := json.Marshal(y["data"])
	return len(xd) > 2 && bytes.Equal(xd, yd)
}

// TestErrorPagesCompressed: over real HTTP, the console's error pages (an
// unknown page, a page the viewer may not see) come compressed like any
// other page, and unpack to the page inside the console's frame.
func TestErrorPagesCompressed(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin, _ := app.Admin(t)
	mod := app.SessionFor(t, app.User(t, "mod@example.com", "moderator").ID)
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, c := range []struct {
		path   string
		who    http.Header
		status int
	}{{"/admin/nowhere", admin, http.StatusNotFound}, {"/admin/users", mod, http.StatusForbidden}} {
		for _, enc := range []string{"br", "gzip"} {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+c.path, nil)
			for k, v := range c.who {
				req.Header[k] = v
			}
			req.Header.Set("Accept", "text/html")
			req.Header.Set("Accept-Encoding", enc)
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != c.status || res.Header.Get("Content-Encoding") != enc {
				t.Errorf("%s in %s: %d, encoding %q (%d bytes)", c.path, enc, res.StatusCode, res.Header.Get("Content-Encoding"), len(body))
				continue
			}
			if page := unpack(t, enc, body); !bytes.Contains(page, []byte(`data-testid="console-nav"`)) {
				t.Errorf("%s in %s unpacks to no console page: %.200s", c.path, enc, page)
			}
		}
	}
}
