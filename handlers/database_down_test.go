package handlers_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// outage refuses new connections to db's database and ends the open ones,
// except the caller cache's listener; the returned function ends the
// outage.
func outage(t *testing.T, db *bun.DB) func() {
	t.Helper()
	u, err := url.Parse(dbtest.URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	admin, err := sql.Open("pgx", dbtest.PostgresServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := admin.ExecContext(context.Background(), query, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`ALTER DATABASE ` + name + ` ALLOW_CONNECTIONS false`)
	exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2`, name, models.ListenerName)
	return func() { exec(`ALTER DATABASE ` + name + ` ALLOW_CONNECTIONS true`) }
}

// TestEveryRouteWithDatabaseDown sends every documented operation's
// sample (handlers/openapi_test.go) while the database refuses
// connections. None answers 500, nor any 5xx but 503; every 503 carries
// Retry-After and its family's body (the console an HTML page, health its
// own unhealthy answer), never the driver's words; routes that read no
// database (version, images, static files, backups, the sign-in pages)
// answer as usual. The caller's token is remembered from before the
// outage (PostgreSQL's caller cache), so that its requests reach the
// handlers, while the session cookies' requests stop at loading the
// session. Once the database is back, the refused requests' audit
// entries are written.
func TestEveryRouteWithDatabaseDown(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	e := newSampleEnv(t, db)
	ops := e.app.Doc.Operations()
	reqs := map[string]sampleRequest{}
	for _, op := range ops {
		sample, ok := samples[op]
		if !ok {
			t.Fatalf("no sample for %s: add one to samples in handlers/openapi_test.go", op)
		}
		reqs[op] = sample(t, e)
	}
	e.app.WaitRemembered(t, e.super)
	restore := outage(t, db)
	refused := 0
	for _, op := range ops {
		t.Run(op, func(t *testing.T) {
			method, _, _ := strings.Cut(op, " ")
			s := reqs[op]
			res := apptest.DoBody(t, e.app, method, s.target, s.header, s.body)
			switch {
			case res.Code == http.StatusServiceUnavailable:
				refused++
				checkDatabaseAway(t, e.app, method, s.target, res)
			case res.Code >= 500:
				t.Errorf("got %d %.300s, want 503 or an answer that needs no database", res.Code, res.Body)
			}
		})
	}
	if refused < len(ops)/2 {
		t.Fatalf("only %d of %d operations answered 503: was the database away?", refused, len(ops))
	}
	restore()
	// The audit writer retries a failed batch at most 2 s apart, and on a
	// loaded machine the first tries after the outage may still fail on
	// connections the outage ended: a few retries' worth of time.
	apptest.WaitWithin(t, 30*time.Second, "the refused requests' audit entries", func() bool {
		for _, entry := range e.app.AuditEntries(t) {
			if entry.Status == http.StatusServiceUnavailable {
				return true
			}
		}
		return false
	})
}

// checkDatabaseAway checks a 503 of the request: Retry-After, and the
// body the route's family gives an unreachable database.
func checkDatabaseAway(t *testing.T, app *apptest.App, method, target string, res *httptest.ResponseRecorder) {
	t.Helper()
	if s, err := strconv.Atoi(res.Header().Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("Retry-After %q, want a number of seconds", res.Header().Get("Retry-After"))
	}
	req := httptest.NewRequest(method, target, nil)
	route := app.RouteOf(req)
	var fam api.Family
	for _, r := range web.Routes(app.Deps) {
		if r.Method == method && r.Path == route {
			fam = r.Family
		}
	}
	body := res.Body.String()
	isJSON := strings.HasPrefix(res.Header().Get("Content-Type"), "application/json")
	switch {
	case route == api.PathHealth || route == api.PathConsoleHealth && isJSON:
		checkUnhealthy(t, res.Body.Bytes())
		return
	case fam == api.FamilyConsole:
		if isJSON {
			t.Errorf("a console 503 as JSON: %.300s", body)
		}
		return
	case fam == api.FamilyNextAuth:
		var got api.NextAuthURL
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || !strings.Contains(got.URL, api.PathAuthError+"?error=") {
			t.Errorf("next-auth: %s, want {url} of the error page", body)
		}
		return
	}
	wants := []*api.Error{api.DatabaseUnavailable(nil)}
	if fam == api.FamilyCollector {
		wants = append(wants, api.CollectUnavailable(nil)) // the collector's own words, when its write failed
	}
	var got any
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil {
		t.Fatalf("a 503 that is not JSON: %.300s", body)
	}
	for _, e := range wants {
		_, want := fam.ErrorBody(e)
		b, _ := json.Marshal(want)
		var w any
		if json.Unmarshal(b, &w) == nil && reflect.DeepEqual(got, w) {
			return
		}
	}
	t.Errorf("family %s: %.300s, want the body of an unreachable database", fam, body)
}

// checkUnhealthy checks health's answer while the database is away.
func checkUnhealthy(t *testing.T, body []byte) {
	t.Helper()
	var h api.Health
	if err := json.Unmarshal(body, &h); err != nil || h.Status != api.StatusUnhealthy || h.Database != api.DatabaseUnreachable {
		t.Errorf("health: %s, want unhealthy with the database disconnected", body)
	}
}
