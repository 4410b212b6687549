package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestStaticFilesAreVersionedAndCached: pages link the stylesheet and
// scripts by version; a versioned URL may be kept for a year, a bare one
// is revalidated and answers 304 while unchanged; text files come gzipped
// to clients that take gzip, byte for byte the same once unpacked, and so
// do the console's pages.
func TestStaticFilesAreVersionedAndCached(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin, _ := app.Admin(t)
	admin.Set("Accept", "text/html")
	page := apptest.Do(t, app, http.MethodGet, "/admin", admin)
	links := regexp.MustCompile(`/static/css/app\.css\?v=([0-9a-f]{12})`).FindStringSubmatch(page.Body.String())
	if page.Code != http.StatusOK || links == nil {
		t.Fatalf("the console's page links no versioned stylesheet: %d %.300s", page.Code, page.Body)
	}
	for _, js := range []string{`/static/js/console\.min\.js\?v=[0-9a-f]{12}`, `/static/js/htmx\.min\.js\?v=[0-9a-f]{12}`} {
		if !regexp.MustCompile(js).MatchString(page.Body.String()) {
			t.Errorf("the page does not link %s", js)
		}
	}
	versioned := apptest.Do(t, app, http.MethodGet, links[0], nil)
	if versioned.Code != http.StatusOK || versioned.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("versioned stylesheet: %d, Cache-Control %q", versioned.Code, versioned.Header().Get("Cache-Control"))
	}
	bare := apptest.Do(t, app, http.MethodGet, "/static/css/app.css", nil)
	etag := bare.Header().Get("ETag")
	if bare.Header().Get("Cache-Control") != "no-cache" || etag == "" || !bytes.Equal(bare.Body.Bytes(), versioned.Body.Bytes()) {
		t.Fatalf("bare stylesheet: Cache-Control %q, ETag %q", bare.Header().Get("Cache-Control"), etag)
	}
	if res := apptest.Do(t, app, http.MethodGet, "/static/css/app.css", http.Header{"If-None-Match": {etag}}); res.Code != http.StatusNotModified || res.Body.Len() != 0 {
		t.Errorf("revalidating an unchanged stylesheet: %d with %d bytes", res.Code, res.Body.Len())
	}
	zipped := apptest.Do(t, app, http.MethodGet, links[0], http.Header{"Accept-Encoding": {"gzip, br"}})
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Body.Len()*3 > bare.Body.Len() {
		t.Fatalf("gzipped stylesheet: encoding %q, %d bytes of %d", zipped.Header().Get("Content-Encoding"), zipped.Body.Len(), bare.Body.Len())
	}
	r, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	unpacked, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(unpacked, bare.Body.Bytes()) {
		t.Errorf("the gzipped stylesheet unpacks to other bytes (%v)", err)
	}
	admin.Set("Accept-Encoding", "gzip")
	if res := apptest.Do(t, app, http.MethodGet, "/admin/users", admin); res.Header().Get("Content-Encoding") != "gzip" || res.Body.Len() > 20000 {
		t.Errorf("the users page: encoding %q, %d bytes on the wire", res.Header().Get("Content-Encoding"), res.Body.Len())
	}
	for _, missing := range []string{"/static/nope.css", "/static/css", "/static/../go.mod"} {
		if res := apptest.Do(t, app, http.MethodGet, missing, nil); res.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", missing, res.Code)
		}
	}
}
