package web_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func TestStaticAssets(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	for path, ctype := range map[string]string{
		"/static/css/app.css":    "text/css",
		"/static/js/htmx.min.js": "javascript",
	} {
		res := apptest.Do(t, app, http.MethodGet, path, nil)
		if res.Code != http.StatusOK || !strings.Contains(res.Header().Get("Content-Type"), ctype) || res.Body.Len() < 1000 {
			t.Errorf("%s: got %d %q (%d bytes)", path, res.Code, res.Header().Get("Content-Type"), res.Body.Len())
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	res := apptest.Do(t, apptest.New(t, dbtest.Open(t, "sqlite")), http.MethodGet, "/api/health", nil)
	for header, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "strict-origin-when-cross-origin",
	} {
		if got := res.Header().Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	if csp := res.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("CSP %q lacks default-src 'self'", csp)
	}
	if id := res.Header().Get("X-Request-Id"); len(id) < 16 {
		t.Errorf("X-Request-Id %q, want a request id", id)
	}
}

// TestNotFoundPerFamily checks that an unknown path answers in its family's shape.
func TestNotFoundPerFamily(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	tests := []struct {
		path, want string
	}{
		{"/api/v1/admin/nope", `{"success":false,"error":{"code":"NOT_FOUND","message":"Not Found"}}`},
		{"/api/admin/nope", `{"error":"Not Found"}`},
		{"/api/nope", `{"error":{"code":"NOT_FOUND","message":"Not Found"}}`},
		{"/api/link-preview/nope", `{"error":"Not Found"}`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := apptest.Do(t, app, http.MethodGet, tt.path, nil)
			if res.Code != http.StatusNotFound || strings.TrimSpace(res.Body.String()) != tt.want {
				t.Errorf("got %d %s, want 404 %s", res.Code, res.Body, tt.want)
			}
		})
	}
	res := apptest.Do(t, app, http.MethodGet, "/admin/nope", nil)
	if res.Code != http.StatusNotFound || !strings.Contains(res.Body.String(), `data-testid="error-page"`) {
		t.Errorf("console 404: got %d %s", res.Code, res.Body)
	}
}

// TestPanicIsGeneric500 checks that a panic's cause never reaches the client.
func TestPanicIsGeneric500(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.ExtraRoutes = []web.Route{
			{Method: http.MethodGet, Path: "/api/boom", Handler: func(echo.Context) error { panic("secret detail") }, Family: api.FamilyGeneral, Scope: web.ScopeExempt},
			{Method: http.MethodGet, Path: "/api/fail", Handler: func(echo.Context) error { return errors.New("secret cause") }, Family: api.FamilyGeneral, Scope: web.ScopeExempt},
		}
	})
	for _, path := range []string{"/api/boom", "/api/fail"} {
		res := apptest.Do(t, app, http.MethodGet, path, nil)
		want := `{"error":{"code":"SERVER_ERROR","message":"Internal server error"}}`
		if res.Code != http.StatusInternalServerError || strings.TrimSpace(res.Body.String()) != want {
			t.Errorf("%s: got %d %s, want 500 %s", path, res.Code, res.Body, want)
		}
	}
}

func TestBodyTooLarge(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.ExtraRoutes = []web.Route{{Method: http.MethodPost, Path: "/api/echo", Family: api.FamilyGeneral, Scope: web.ScopeExempt,
			Handler: func(c echo.Context) error {
				_, err := io.ReadAll(c.Request().Body)
				return err
			}}}
	})
	req := httptest.NewRequest(http.MethodPost, "/api/echo", strings.NewReader(strings.Repeat("x", 2<<20)))
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), `"PAYLOAD_TOO_LARGE"`) {
		t.Errorf("got %d %s, want 413 PAYLOAD_TOO_LARGE", rec.Code, rec.Body)
	}
}

// TestMethodNotAllowed checks that a path answers a method it does not
// take with 405, an Allow header and its family's envelope.
func TestMethodNotAllowed(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	tests := []struct {
		method, path, allow, body string
	}{
		{"DELETE", "/api/health", "GET, HEAD", `{"error":"Method Not Allowed"}`},
		{"PUT", "/api/v1/admin/locks", "POST", `{"success":false,"error":{"code":"METHOD_NOT_ALLOWED","message":"Method Not Allowed"}}`},
		{"POST", "/api/avatar-image", "GET, HEAD", `{"error":"Method Not Allowed","status":405}`},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			res := apptest.Do(t, app, tt.method, tt.path, nil)
			if res.Code != http.StatusMethodNotAllowed || res.Header().Get("Allow") != tt.allow || strings.TrimSpace(res.Body.String()) != tt.body {
				t.Errorf("got %d Allow %q %s, want 405 Allow %q %s", res.Code, res.Header().Get("Allow"), res.Body, tt.allow, tt.body)
			}
		})
	}
}

// TestQuietRoutesLogFailuresOnly checks that the public image routes write
// no access line for their successes, only for their failures, while other
// routes log every request.
func TestQuietRoutesLogFailuresOnly(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.Logger = slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	})
	for _, path := range []string{"/api/avatar-image?seed=ada", "/api/avatar-image?seed=ada&size=1", "/api/health"} {
		apptest.Do(t, app, "GET", path, nil)
	}
	mu.Lock()
	logs := buf.String()
	mu.Unlock()
	if n := strings.Count(logs, "msg=request "); n != 2 || !strings.Contains(logs, "status=400") || !strings.Contains(logs, "route=/api/health") {
		t.Errorf("%d access lines, want the failed avatar's and health's:\n%s", n, logs)
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestBrowserIsolationHeaders: every response turns off powerful browser
// features and keeps other origins' windows out of Plaza's; admin answers
// are never stored by a browser or proxy cache.
func TestBrowserIsolationHeaders(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	res := apptest.Do(t, app, http.MethodGet, "/api/health", nil)
	if got := res.Header().Get("Permissions-Policy"); !strings.Contains(got, "camera=()") || !strings.Contains(got, "geolocation=()") {
		t.Errorf("Permissions-Policy %q", got)
	}
	if got := res.Header().Get("Cross-Origin-Opener-Policy"); got != "same-origin" {
		t.Errorf("Cross-Origin-Opener-Policy %q, want same-origin", got)
	}
	cookie, _ := app.Admin(t)
	for _, path := range []string{"/api/v1/admin/users", "/api/admin/users", "/api/v1/admin/audit-logs/verify"} {
		for _, h := range []http.Header{cookie, nil} {
			res := apptest.Do(t, app, http.MethodGet, path, h)
			if got := res.Header().Get("Cache-Control"); got != "no-store" {
				t.Errorf("%s (%d): Cache-Control %q, want no-store", path, res.Code, got)
			}
		}
	}
}
