// Package apptest builds the real Plaza app for HTTP tests, the way serve
// does (app.Open, Runtime.Web, web.New), over a database from dbtest, with
// helpers to sign callers in and send requests through it.
package apptest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/openapi/validate"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// Config is a valid configuration for tests. Its quote sources are off, so
// that no app built from it can reach the internet; a test that wants
// quotes points them at its own httptest server.
func Config(t testing.TB) config.Config {
	t.Helper()
	files := t.TempDir() // never the repository's data/
	cfg, err := config.Load(func(k string) string {
		return map[string]string{
			"UPLOADS_DIR": filepath.Join(files, "uploads"), "BACKUP_DIR": filepath.Join(files, "backups"),
			"PLAZA_ENV": "test", "PUBLIC_APP_URL": "http://127.0.0.1:8080",
			"JWT_SECRET": strings.Repeat("j", 32), "SESSION_SECRET": strings.Repeat("s", 32),
			"AUDIT_ANCHOR_EVERY":         "0", // no anchor at a test's start; a test of anchors turns them on
			"QUOTE_SOURCE_ZENQUOTES_URL": config.QuoteSourceOff, "QUOTE_SOURCE_QUOTABLE_URL": config.QuoteSourceOff,
			"QUOTE_SOURCE_DUMMYJSON_URL": config.QuoteSourceOff, "QUOTE_SOURCE_NINJAS_URL": config.QuoteSourceOff,
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Version is the version test apps report.
const Version = "1.2.3"

// Uptime is how long test apps claim to have run: 3h 2m 1s.
const Uptime = 3*time.Hour + 2*time.Minute + time.Second

// App is the real app over a real database, with handles tests use to sign
// callers in and look behind the API.
type App struct {
	*echo.Echo
	Deps    web.Deps
	Store   *models.Store
	Runtime *app.Runtime
	// Doc checks every response a test gets through Do and DoBody
	// against the app's OpenAPI document (CheckDocumented).
	Doc *validate.Validator
}

// New builds the app over db as serve does; mutate may replace
// dependencies before web.New. Everything closes when the test ends.
func New(t testing.TB, db *bun.DB, mutate ...func(*web.Deps)) *App {
	t.Helper()
	return NewWith(t, db, app.Options{}, mutate...)
}

// NewWith is New with options for app.Open (its DB is db).
func NewWith(t testing.TB, db *bun.DB, opts app.Options, mutate ...func(*web.Deps)) *App {
	t.Helper()
	return NewWithConfig(t, db, Config(t), opts, mutate...)
}

// NewWithConfig is NewWith with settings of the test's own (DATABASE_URL
// is db's).
func NewWithConfig(t testing.TB, db *bun.DB, cfg config.Config, opts app.Options, mutate ...func(*web.Deps)) *App {
	t.Helper()
	cfg.DatabaseURL = dbtest.URL(t, db)
	ctx := context.Background()
	opts.DB = db
	rt, err := app.Open(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	d, err := rt.Web(ctx, app.WebOptions{Static: os.DirFS(StaticDir()), Version: Version, Started: time.Now().Add(-Uptime)})
	if err != nil {
		t.Fatal(err)
	}
	if rt.Store.Dialect() == config.DialectPostgres && !d.Principals.Enabled() {
		t.Fatal("the auth change listener did not start")
	}
	for _, m := range mutate {
		m(&d)
	}
	e, err := web.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return &App{Echo: e, Deps: d, Store: rt.Store, Runtime: rt, Doc: Document(t, d)}
}

// StaticDir is the repository's static/ folder, wherever the test runs.
func StaticDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "static")
}

// FlushAudit waits until every queued audit entry is stored.
func (a *App) FlushAudit(t testing.TB) {
	t.Helper()
	if err := a.Deps.Audit.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// AuditEntries are every stored audit entry, oldest first, once the queue
// is written.
func (a *App) AuditEntries(t testing.TB) []models.AuditEntry {
	t.Helper()
	a.FlushAudit(t)
	var rows []models.AuditEntry
	if err := a.Store.DB.NewSelect().Model(&rows).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

// User creates a user with the given roles ("user" is implied).
func (a *App) User(t testing.TB, email string, roles ...string) *models.User {
	t.Helper()
	u, err := a.Store.Users.CreateUser(context.Background(), models.NewUser{Email: email, Roles: roles})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// UserWithPassword creates a user who can sign in with password.
func (a *App) UserWithPassword(t testing.TB, email, password string, roles ...string) *models.User {
	t.Helper()
	hash, err := passwordHash(password)
	if err != nil {
		t.Fatal(err)
	}
	u, err := a.Store.Users.CreateUser(context.Background(), models.NewUser{Email: email, PasswordHash: hash, Roles: roles})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Applicant opens an account as a sign-up under approval does: inactive,
// from ip, with a pending application answering answer. Its password is
// password.
func (a *App) Applicant(t testing.TB, email, password, ip, answer string) *models.User {
	t.Helper()
	hash, err := passwordHash(password)
	if err != nil {
		t.Fatal(err)
	}
	var u *models.User
	err = a.Store.Change(context.Background(), func(ctx context.Context) (err error) {
		reg := models.NewRegistration{Name: strings.Split(email, "@")[0], Email: email, PasswordHash: hash, IP: ip, Answer: answer, Pending: true}
		if u, err = a.Store.Users.RegisterUser(ctx, reg); err != nil {
			return err
		}
		return a.Store.Users.OpenApplication(ctx, u.ID, answer, "mode")
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// passwordHash is auth.HashPassword, once per password for the test
// binary: a fixture's users share their password's hash (salt and all).
// Hashing is argon2id at its real cost, 46 MiB filled each time; the
// handlers and web tests' fixtures asked for it about 300 times a run.
func passwordHash(password string) (string, error) {
	if h, ok := passwordHashes.Load(password); ok {
		return h.(string), nil
	}
	h, err := auth.HashPassword(password)
	if err != nil {
		return "", err
	}
	actual, _ := passwordHashes.LoadOrStore(password, h)
	return actual.(string), nil
}

var passwordHashes sync.Map // password → its argon2id hash

// SessionFor seeds a session for the user server-side, as if the user had
// just signed in (so dangerous actions need no confirmation for 10
// minutes), and returns the cookie header that carries it.
func (a *App) SessionFor(t testing.TB, userID int64) http.Header {
	t.Helper()
	sm := a.Deps.Sessions
	ctx, err := sm.Load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	sm.Put(ctx, session.UserKey, userID)
	sm.Put(ctx, session.ConfirmedKey, a.Deps.Now().Unix()) // as signing in does
	sm.Put(ctx, session.StartedKey, a.Deps.Now().Unix())   // its limits are set on its first request
	token, _, err := sm.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return http.Header{"Cookie": {sm.Cookie.Name + "=" + token}}
}

// TokenFor mints an admin token for the user and returns the header
// carrying it, and its jti.
func (a *App) TokenFor(t testing.TB, userID int64, perms ...string) (http.Header, string) {
	t.Helper()
	tok, claims, err := auth.NewToken([]byte(a.Deps.Config.JWTSecret), userID, perms, time.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rec := models.NewAPIToken(claims, "test", nil)
	if err := a.Store.Change(ctx, func(ctx context.Context) error { return a.Store.Auth.RecordAPIToken(ctx, rec) }); err != nil {
		t.Fatal(err)
	}
	return http.Header{"Authorization": {"Bearer " + tok}}, rec.JTI
}

// Admin is a signed-in super admin's session header.
func (a *App) Admin(t testing.TB) (http.Header, *models.User) {
	t.Helper()
	u := a.User(t, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	return a.SessionFor(t, u.ID), u
}

// Do sends one request through h and returns the recorded response. When
// h is an App, the response is checked against the OpenAPI document.
func Do(t testing.TB, h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	return DoBody(t, h, method, target, header, "")
}

// DoBody sends a request with a body (JSON unless the header says otherwise).
func DoBody(t testing.TB, h http.Handler, method, target string, header http.Header, body string) *httptest.ResponseRecorder {
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
	if a, ok := h.(*App); ok {
		a.CheckDocumented(t, req, rec)
	}
	return rec
}

// WaitFor polls cond until it holds, failing the test after 10 s.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, 10*time.Second, what, cond)
}

// WaitWithin is WaitFor with a bound of its own, for a condition that
// waits on retries spaced seconds apart.
func WaitWithin(t testing.TB, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(bound); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// WaitRemembered asks as the bearer of token until the caller cache
// remembers it. On PostgreSQL the notices of a test's own setup (users,
// roles, tokens created) may still be on their way and purge the cache
// once more; a test about the cache must start from a caller it holds.
func (a *App) WaitRemembered(t testing.TB, token http.Header) {
	t.Helper()
	raw := strings.TrimPrefix(token.Get("Authorization"), "Bearer ")
	WaitFor(t, "the caller cache to remember the token", func() bool {
		Do(t, a, http.MethodGet, "/api/v1/admin/audit-logs", token)
		_, ok := a.Deps.Principals.Get(raw, a.Deps.Now())
		return ok
	})
}
