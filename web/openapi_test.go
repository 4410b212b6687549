package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/openapi"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestDocumentListsEveryRoute compares the document with the route table:
// every route is in it by method and path, and nothing else is (the 404
// catch-alls and the generated 405s are not routes of the table). Every
// route also says what it is and what its success looks like.
func TestDocumentListsEveryRoute(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	var want []string
	for _, r := range web.Routes(app.Deps) {
		path, _ := openapi.PathOf(r.Path)
		want = append(want, r.Method+" "+path)
		bodiless := r.Doc.Status >= 300 && r.Doc.Status < 400 || r.Doc.Status == http.StatusNoContent
		if r.Doc.Summary == "" || r.Doc.Response == nil && r.Doc.ContentType == "" && !bodiless {
			t.Errorf("%s %s: Doc needs a Summary and a Response (or a ContentType, or a redirect or 204 Status)", r.Method, r.Path)
		}
	}
	slices.Sort(want)
	got := app.Doc.Operations()
	for _, op := range want {
		if !slices.Contains(got, op) {
			t.Errorf("%s is a route but not in the document", op)
		}
	}
	for _, op := range got {
		if !slices.Contains(want, op) {
			t.Errorf("%s is in the document but not a route", op)
		}
	}
}

// TestServedDocument checks /api/openapi.json: the document web.OpenAPI
// builds, public, with the app's version and the three security schemes.
func TestServedDocument(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	res := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, nil)
	want, err := web.OpenAPI(app.Deps)
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != http.StatusOK || !bytes.Equal(res.Body.Bytes(), want) {
		t.Fatalf("got %d, %d bytes; want 200 with the %d bytes of web.OpenAPI", res.Code, res.Body.Len(), len(want))
	}
	doc := decode(t, res.Body.Bytes())
	if doc.str("openapi") != "3.1.0" || doc.str("info", "version") != apptest.Version {
		t.Errorf("openapi %q, version %q", doc.str("openapi"), doc.str("info", "version"))
	}
	for name, want := range map[string]string{"bearerAuth": "bearer", "sessionCookie": "", "metricsToken": "bearer"} {
		if doc.get("components", "securitySchemes", name) == nil || doc.str("components", "securitySchemes", name, "scheme") != want {
			t.Errorf("security scheme %s: %v", name, doc.get("components", "securitySchemes", name))
		}
	}
	if doc.str("components", "securitySchemes", "sessionCookie", "name") != app.Deps.Sessions.Cookie.Name {
		t.Errorf("session scheme names cookie %q, want %q", doc.str("components", "securitySchemes", "sessionCookie", "name"), app.Deps.Sessions.Cookie.Name)
	}
}

// TestDocumentFollowsRouteNeeds checks each operation against its route:
// security and 401/403 from its permissions, 404 from path parameters, 413
// from a body, 429 and the rate-limit headers from its scope, 500 always,
// and its errors in its family's shape.
func TestDocumentFollowsRouteNeeds(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	b, err := web.OpenAPI(app.Deps)
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(t, b)
	shapes := map[api.Family]string{api.FamilyV1: "V1Error", api.FamilyGeneral: "GeneralError", api.FamilyPublic: "PublicError",
		api.FamilyCollector: "CollectFailure", api.FamilyAvatar: "AvatarFailure", api.FamilyAdmin: "PublicError",
		api.FamilyNextAuth: "NextAuthURL"}
	for _, r := range web.Routes(app.Deps) {
		path, params := openapi.PathOf(r.Path)
		op := doc.sub("paths", path, strings.ToLower(r.Method))
		has := func(status int) bool { return op.get("responses", strconv.Itoa(status)) != nil }
		name := r.Method + " " + path
		guarded := len(r.Permissions) > 0 || r.SignIn
		if guarded && (op.get("security") == nil || !has(403) || r.Family != api.FamilyConsole && !has(401)) {
			t.Errorf("%s needs a caller: security %v, 401 %v, 403 %v", name, op.get("security"), has(401), has(403))
		}
		if len(r.Permissions) > 0 && !strings.Contains(op.str("description"), r.Permissions[0]) {
			t.Errorf("%s: the description %q does not name %s", name, op.str("description"), r.Permissions[0])
		}
		if len(params) > 0 && r.Family != api.FamilyConsole && !has(404) {
			t.Errorf("%s has path parameters but no 404", name)
		}
		if r.Method != http.MethodGet && !has(413) {
			t.Errorf("%s takes a body but has no 413", name)
		}
		if !has(500) {
			t.Errorf("%s has no 500", name)
		}
		limited := r.Scope != web.ScopeExempt || r.Meter != ""
		bounded := r.Doc.Errors[http.StatusTooManyRequests] != "" // a bound of the handler's own
		if limited != has(429) && !bounded {
			t.Errorf("%s: scope %q, meter %q, but 429 documented: %v", name, r.Scope, r.Meter, has(429))
		}
		if (limited || bounded) && op.get("responses", "429", "headers", "Retry-After") == nil {
			t.Errorf("%s: 429 without Retry-After", name)
		}
		if r.Family == api.FamilyV1 && op.get("responses", success(r), "headers", "X-Admin-Tier") == nil {
			t.Errorf("%s: v1 success without X-Admin-Tier", name)
		}
		if r.Family != api.FamilyConsole {
			ref := op.str("responses", "500", "content", "application/json", "schema", "$ref")
			if ref != "#/components/schemas/"+shapes[r.Family] {
				t.Errorf("%s: 500 is %s, want the %v family's %s", name, ref, r.Family, shapes[r.Family])
			}
		}
	}
}

func success(r web.Route) string {
	if r.Doc.Status == 0 {
		return "200"
	}
	return strconv.Itoa(r.Doc.Status)
}

// node is a decoded JSON document with lookups that never panic.
type node struct{ v any }

func decode(t *testing.T, b []byte) node {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return node{v}
}

func (n node) get(keys ...string) any {
	v := n.v
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

func (n node) sub(keys ...string) node { return node{n.get(keys...)} }

func (n node) str(keys ...string) string {
	s, _ := n.get(keys...).(string)
	return s
}

// TestDocumentGzipped: the document goes gzipped to clients that take
// gzip (the API reference's browser among them), unpacking to the same
// bytes, and as it is to those that do not.
func TestDocumentGzipped(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	plain := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, nil)
	zipped := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, http.Header{"Accept-Encoding": {"gzip, deflate, br"}})
	if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" || !json.Valid(plain.Body.Bytes()) {
		t.Fatalf("plain: %d, encoding %q", plain.Code, plain.Header().Get("Content-Encoding"))
	}
	if zipped.Code != http.StatusOK || zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Body.Len()*5 > plain.Body.Len() {
		t.Fatalf("gzipped: %d, encoding %q, %d bytes of %d", zipped.Code, zipped.Header().Get("Content-Encoding"), zipped.Body.Len(), plain.Body.Len())
	}
	for _, res := range []*httptest.ResponseRecorder{plain, zipped} {
		if res.Header().Get("Vary") != "Accept-Encoding" || res.Header().Get("Content-Type") != "application/json" {
			t.Errorf("Vary %q, Content-Type %q", res.Header().Get("Vary"), res.Header().Get("Content-Type"))
		}
	}
	r, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	if unpacked, err := io.ReadAll(r); err != nil || !bytes.Equal(unpacked, plain.Body.Bytes()) {
		t.Errorf("the gzipped document unpacks to other bytes (%v)", err)
	}
	if res := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, http.Header{"Accept-Encoding": {"gzip;q=0"}}); res.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 got encoding %q", res.Header().Get("Content-Encoding"))
	}
}

// TestAPIDocsPage checks /api/docs: the reference is written on the
// server from the served document (every operation is on the page, with
// its heading), loads only Plaza's own files under the same strict
// Content-Security-Policy as every page, links the document by its
// version, and is small enough to be fast over any network.
func TestAPIDocsPage(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	res := apptest.Do(t, app, http.MethodGet, api.PathAPIDocs, http.Header{"Accept-Encoding": {"gzip"}})
	if res.Code != http.StatusOK || !strings.HasPrefix(res.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("got %d %q", res.Code, res.Header().Get("Content-Type"))
	}
	csp := res.Header().Get("Content-Security-Policy")
	if want := apptest.Do(t, app, http.MethodGet, api.PathHealth, nil).Header().Get("Content-Security-Policy"); csp != want || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q, want the default %q", csp, want)
	}
	const budget = 100 << 10 // of the 150 KB a first load may take; the stylesheet is shared with the console
	if n := res.Body.Len(); res.Header().Get("Content-Encoding") == "" || n > budget {
		t.Errorf("the page is %d bytes, encoding %q; want it compressed, at most %d", n, res.Header().Get("Content-Encoding"), budget)
	}
	body := string(unpack(t, res.Header().Get("Content-Encoding"), res.Body.Bytes()))
	t.Logf("the page: %d bytes, %d %s", len(body), res.Body.Len(), res.Header().Get("Content-Encoding"))
	spec := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, nil)
	doc := decode(t, spec.Body.Bytes())
	paths, _ := doc.get("paths").(map[string]any)
	for path, item := range paths {
		for method := range item.(map[string]any) {
			id := doc.str("paths", path, method, "operationId")
			if !strings.Contains(body, `<details id="`+id+`" class="api-op"`) {
				t.Errorf("the page lacks %s %s (#%s)", method, path, id)
			}
		}
	}
	etag := spec.Header().Get("ETag")
	link := api.PathOpenAPI + "?v=" + strings.Trim(etag, `"`)
	for _, want := range []string{`<h1 `, `>API reference</h1>`, `src="/static/js/api-docs.js?v=`, `href="/static/css/app.css?v=`,
		`href="` + link + `"`, `id="schema-User"`, `id="schema-Post"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "style=") || strings.Contains(body, "https://") {
		t.Errorf("inline script or style, or an outside URL, in the page")
	}
}

// TestNonJSONAnswersTyped pins the schemas of the answers that are not
// JSON, as a generated client reads them (docs/api.md, "Media types"):
// each media type of a success has its own schema; bytes a client saves
// or shows (PNG, SVG, the audit export's JSON Lines, which generated
// fetch clients receive as a Blob) are strings with format binary, and
// CSV is a text string. A report's JSON rendering keeps its object schema
// beside its CSV.
func TestNonJSONAnswersTyped(t *testing.T) {
	b, err := web.OpenAPIFor("test")
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(t, b)
	binary, text := "binary", ""
	for _, c := range []struct {
		path, media, format string
	}{
		{api.PathAdminAuditExport, "application/x-ndjson", binary},
		{api.PathAdminAuditExport, "text/csv", text},
		{api.PathAdminV1ModerationRp, "text/csv", text},
		{api.PathAdminV1ActivityRep, "text/csv", text},
		{api.PathOGImage, "image/png", binary},
		{api.PathOGImage, "image/svg+xml", binary},
	} {
		schema := doc.sub("paths", c.path, "get", "responses", "200", "content", c.media, "schema")
		if schema.str("type") != "string" || schema.str("format") != c.format || schema.str("contentMediaType") != c.media {
			t.Errorf("GET %s, %s: schema %v, want a string, format %q, contentMediaType %s", c.path, c.media, schema.v, c.format, c.media)
		}
	}
	if ref := doc.str("paths", api.PathAdminAuditExport, "get", "responses", "200", "content", "application/x-ndjson", "schema", "x-itemSchema", "$ref"); ref != "#/components/schemas/AuditEntry" {
		t.Errorf("the export's lines are typed %q, want AuditEntry", ref)
	}
	for _, path := range []string{api.PathAdminV1ModerationRp, api.PathAdminV1ActivityRep} {
		content, _ := doc.get("paths", path, "get", "responses", "200", "content").(map[string]any)
		if len(content) != 2 || doc.str("paths", path, "get", "responses", "200", "content", "application/json", "schema", "$ref") == "" {
			t.Errorf("GET %s answers %v, want its JSON object and its CSV", path, slices.Collect(maps.Keys(content)))
		}
	}
	for _, path := range []string{api.PathAdminAuditExport, api.PathOGImage} {
		content, _ := doc.get("paths", path, "get", "responses", "200", "content").(map[string]any)
		if len(content) != 2 {
			t.Errorf("GET %s answers %v, want exactly its two media types", path, slices.Collect(maps.Keys(content)))
		}
	}
}

// TestDocumentCachedByVersion: the reference links the document with its
// version (a digest of the document), under which it may be kept for
// good; without it, or with another, it is revalidated by its ETag, and a
// revalidation answers 304 with nothing.
func TestDocumentCachedByVersion(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	plain := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, nil)
	etag := plain.Header().Get("ETag")
	if plain.Header().Get("Cache-Control") != "no-cache" || len(etag) < 10 {
		t.Fatalf("without a version: Cache-Control %q, ETag %q", plain.Header().Get("Cache-Control"), etag)
	}
	version := strings.Trim(etag, `"`)
	page := unpack(t, "", apptest.Do(t, app, http.MethodGet, api.PathAPIDocs, nil).Body.Bytes())
	if !bytes.Contains(page, []byte(`href="`+api.PathOpenAPI+`?v=`+version+`"`)) {
		t.Errorf("the reference does not link the document by its version %s", version)
	}
	for query, want := range map[string]string{"?v=" + version: "public, max-age=31536000, immutable", "?v=old": "no-cache"} {
		res := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI+query, nil)
		if res.Code != http.StatusOK || res.Header().Get("Cache-Control") != want || !bytes.Equal(res.Body.Bytes(), plain.Body.Bytes()) {
			t.Errorf("%s: %d, Cache-Control %q; want 200 with the document, %q", query, res.Code, res.Header().Get("Cache-Control"), want)
		}
	}
	for enc, tag := range map[string]string{"": etag, "gzip": `"` + version + `-gz"`} {
		res := apptest.Do(t, app, http.MethodGet, api.PathOpenAPI, http.Header{"If-None-Match": {tag}, "Accept-Encoding": {enc}})
		if res.Code != http.StatusNotModified || res.Body.Len() != 0 {
			t.Errorf("revalidating %s (%q): %d with %d bytes, want 304 and none", tag, enc, res.Code, res.Body.Len())
		}
	}
	docs := apptest.Do(t, app, http.MethodGet, api.PathAPIDocs, nil)
	again := apptest.Do(t, app, http.MethodGet, api.PathAPIDocs, http.Header{"If-None-Match": {docs.Header().Get("ETag")}})
	if docs.Header().Get("ETag") == "" || again.Code != http.StatusNotModified {
		t.Errorf("the reference's ETag %q revalidates to %d, want 304", docs.Header().Get("ETag"), again.Code)
	}
}
