package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// testConfig is a valid configuration for tests. Its quote sources are
// off, so that no pool built from it can reach the internet; a test that
// wants quotes points them at its own httptest server.
func testConfig(t testing.TB) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string {
		return map[string]string{
			"PLAZA_ENV": "test", "PUBLIC_APP_URL": "http://127.0.0.1:8080",
			"JWT_SECRET": strings.Repeat("j", 32), "SESSION_SECRET": strings.Repeat("s", 32),
			"QUOTE_SOURCE_ZENQUOTES_URL": config.QuoteSourceOff, "QUOTE_SOURCE_QUOTABLE_URL": config.QuoteSourceOff,
			"QUOTE_SOURCE_DUMMYJSON_URL": config.QuoteSourceOff, "QUOTE_SOURCE_NINJAS_URL": config.QuoteSourceOff,
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// testApp is the real app over a real database, with handles tests use to
// sign callers in.
type testApp struct {
	*echo.Echo
	deps  Deps
	store *models.Store
}

// newApp builds the real app over db, as main does.
func newApp(t testing.TB, db *bun.DB, mutate ...func(*Deps)) *testApp {
	t.Helper()
	store := models.NewStore(db)
	d := Deps{
		Config:  testConfig(t),
		Store:   store,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Static:  os.DirFS("../static"),
		Version: "1.2.3",
		Started: time.Now().Add(-(3*time.Hour + 2*time.Minute + 1*time.Second)),
		Limiter: ratelimit.NewMemory(),
		Now:     func() time.Time { return time.Now().UTC() },
	}
	d.Sessions = NewSessions(store, d.Config.PublicAppURL)
	d.Principals = cachePrincipals(t, store, db, d.Logger)
	d.Audit = store.NewAuditBatcher(d.Logger)
	d.Metrics = metrics.New(db.DB)
	t.Cleanup(d.Audit.Close)
	for _, m := range mutate {
		m(&d)
	}
	return &testApp{Echo: New(d), deps: d, store: store}
}

// cachePrincipals wires the caller cache as serve does; on PostgreSQL tests
// run with the cache in use.
func cachePrincipals(t testing.TB, store *models.Store, db *bun.DB, log *slog.Logger) *auth.PrincipalCache {
	t.Helper()
	parsed, err := config.ParseDatabaseURL(dbtest.URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cache := CachePrincipals(ctx, store, parsed, log)
	if parsed.Dialect == config.DialectPostgres && !cache.Enabled() {
		t.Fatal("the auth change listener did not start")
	}
	return cache
}

// waitFor polls cond for up to 5 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// flushAudit waits until every queued audit entry is stored.
func (a *testApp) flushAudit(t *testing.T) {
	t.Helper()
	if err := a.deps.Audit.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// user creates a user with the given roles ("user" is implied).
func (a *testApp) user(t testing.TB, email string, roles ...string) *models.User {
	t.Helper()
	u, err := a.store.CreateUser(context.Background(), models.NewUser{Email: email, Roles: roles})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// sessionFor seeds a session for the user server-side and returns the
// cookie header that carries it.
func (a *testApp) sessionFor(t testing.TB, userID int64) http.Header {
	t.Helper()
	sm := a.deps.Sessions
	ctx, err := sm.Load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	sm.Put(ctx, SessionUserKey, userID)
	token, _, err := sm.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return http.Header{"Cookie": {sm.Cookie.Name + "=" + token}}
}

// tokenFor mints an admin token for the user and returns the header carrying it.
func (a *testApp) tokenFor(t testing.TB, userID int64, perms ...string) (http.Header, string) {
	t.Helper()
	tok, rec, err := a.store.MintAPIToken(context.Background(), a.store.DB, []byte(a.deps.Config.JWTSecret), userID, perms, time.Hour, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	return http.Header{"Authorization": {"Bearer " + tok}}, rec.JTI
}

// admin is a signed-in super admin's session header.
func (a *testApp) admin(t *testing.T) (http.Header, *models.User) {
	t.Helper()
	u := a.user(t, "root@example.com", auth.ImpliedRoles(auth.RoleSuperAdmin)...)
	return a.sessionFor(t, u.ID), u
}

// do sends one request through the app and returns the recorded response.
func do(t *testing.T, h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	return doBody(t, h, method, target, header, "")
}

// doBody sends a request with a body (JSON unless the header says otherwise).
func doBody(t *testing.T, h http.Handler, method, target string, header http.Header, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
