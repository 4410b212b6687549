package apptest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/internal/openapi"
	"github.com/plazahq/plaza/internal/openapi/validate"
	"github.com/plazahq/plaza/web"
)

// validators keeps one compiled validator per document: building the
// document takes tens of milliseconds, so the apps of a test binary share
// it, keyed by what it is built from (the version and the route table).
var validators sync.Map // string → *validate.Validator

// Document is the validator of the OpenAPI document that the app built
// from d serves (web.OpenAPI).
func Document(t testing.TB, d web.Deps) *validate.Validator {
	t.Helper()
	var key strings.Builder
	key.WriteString(d.Version)
	for _, r := range web.Routes(d) {
		key.WriteString("\n" + r.Method + " " + r.Path)
	}
	if v, ok := validators.Load(key.String()); ok {
		return v.(*validate.Validator)
	}
	doc, err := web.OpenAPI(d)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.New(doc)
	if err != nil {
		t.Fatal(err)
	}
	actual, _ := validators.LoadOrStore(key.String(), v)
	return actual.(*validate.Validator)
}

// CheckDocumented fails the test when the response to req departs from
// the OpenAPI document: a JSON answer's status must be documented for the
// route that answered and its body must match the status's schema, and
// required headers (X-RateLimit-* on counted routes) must be there. This
// makes every handler test a check of the document. Requests no documented
// route answers (unknown paths, 405s, test probes) are not checked.
func (a *App) CheckDocumented(t testing.TB, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	route := a.RouteOf(req)
	path, _ := openapi.PathOf(route)
	method := req.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if !a.Doc.Has(method, path) {
		return
	}
	if err := a.Doc.Check(req.Method, path, rec.Code, rec.Header(), unpacked(t, rec)); err != nil {
		t.Errorf("%s %s (route %s %s) answered %d, which the OpenAPI document does not allow: %v",
			req.Method, req.URL.RequestURI(), req.Method, route, rec.Code, err)
	}
}

// unpacked is the body of rec as the client reads it, gzip undone.
func unpacked(t testing.TB, rec *httptest.ResponseRecorder) []byte {
	t.Helper()
	if rec.Header().Get("Content-Encoding") != "gzip" {
		return rec.Body.Bytes()
	}
	r, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("a gzipped answer that is not gzip: %v", err)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("a gzipped answer that does not unpack: %v", err)
	}
	return body
}

// RouteOf is the pattern of the route the app's router picks for req.
func (a *App) RouteOf(req *http.Request) string {
	c := a.NewContext(req, nil)
	a.Router().Find(req.Method, echo.GetPath(req), c)
	return c.Path()
}
