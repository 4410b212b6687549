package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// probe is an audited admin route whose handler records a token in a
// change and then does what the test asks.
func probe(t *testing.T, db *bun.DB, then func(c echo.Context) error) *apptest.App {
	t.Helper()
	var app *apptest.App
	handler := func(c echo.Context) error {
		ctx := c.Request().Context()
		_, claims, err := auth.NewToken([]byte("k"), 1, []string{access.PermAdminRead}, time.Now(), time.Hour)
		if err != nil {
			return err
		}
		rec := models.NewAPIToken(claims, "probe", nil)
		if err := app.Store.Change(ctx, func(ctx context.Context) error { return app.Store.Auth.RecordAPIToken(ctx, rec) }); err != nil {
			return err
		}
		return then(c)
	}
	app = apptest.New(t, db, func(d *web.Deps) {
		d.ExtraRoutes = []web.Route{web.AdminV1(web.Route{Method: http.MethodPost, Path: api.PathAdminV1 + "/probe",
			Handler: handler, Audit: web.Audit{Action: "probe.run", Target: "token"}})}
	})
	return app
}

func tokenCount(t *testing.T, app *apptest.App) int {
	t.Helper()
	n, err := app.Store.DB.NewSelect().Model((*models.APIToken)(nil)).Where("name = 'probe'").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestChangeLandsWithItsEntry checks that an admin's change and its audit
// entry, carrying the response's status, are stored by the time the
// response arrives: nothing waits in the audit queue.
func TestChangeLandsWithItsEntry(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := probe(t, db, func(c echo.Context) error { return c.JSON(http.StatusCreated, api.OK(nil)) })
		cookie, _ := app.Admin(t)
		res := apptest.Do(t, app, http.MethodPost, api.PathAdminV1+"/probe", cookie)
		if res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"success":true`) {
			t.Fatalf("got %d %s", res.Code, res.Body)
		}
		var entries []models.AuditEntry
		if err := app.Store.DB.NewSelect().Model(&entries).Where("action = 'probe.run'").Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		if tokenCount(t, app) != 1 || len(entries) != 1 || entries[0].Status != http.StatusCreated {
			t.Errorf("got %d tokens and entries %+v; want the token and one entry with status 201", tokenCount(t, app), entries)
		}
	})
}

// TestFailedRequestLeavesNoChange checks that a handler failing after its
// change undoes the change, and the audit log records the failure.
func TestFailedRequestLeavesNoChange(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := probe(t, db, func(echo.Context) error {
			return api.Invalid(api.FieldIssue("name", "custom", "name is taken"))
		})
		cookie, _ := app.Admin(t)
		if res := apptest.Do(t, app, http.MethodPost, api.PathAdminV1+"/probe", cookie); res.Code != http.StatusUnprocessableEntity {
			t.Fatalf("got %d %s, want 422", res.Code, res.Body)
		}
		entries := app.AuditEntries(t)
		if n := tokenCount(t, app); n != 0 || len(entries) != 1 || entries[0].Status != http.StatusUnprocessableEntity {
			t.Errorf("got %d tokens and entries %+v; want no token and one entry with status 422", n, entries)
		}
	})
}

// TestFailedCommitIsNeverReported checks that when the change cannot be
// committed with its entry, the client is told 500, not the success the
// handler wrote, and nothing is stored.
func TestFailedCommitIsNeverReported(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := probe(t, db, func(c echo.Context) error {
			// A detail that cannot be written makes the entry's append, and
			// so the commit, fail after the handler has answered.
			audit.DraftFrom(c.Request().Context()).Set("unwritable", func() {})
			c.Response().Header().Set("HX-Trigger", "saved")
			return c.JSON(http.StatusCreated, api.OK(nil))
		})
		cookie, _ := app.Admin(t)
		res := apptest.Do(t, app, http.MethodPost, api.PathAdminV1+"/probe", cookie)
		if res.Code != http.StatusInternalServerError || !strings.Contains(res.Body.String(), `"SERVER_ERROR"`) || res.Header().Get("HX-Trigger") != "" {
			t.Errorf("got %d %v %s, want a plain 500", res.Code, res.Header(), res.Body)
		}
		if n := tokenCount(t, app); n != 0 {
			t.Errorf("%d tokens stored by a change that failed to commit", n)
		}
		if e := app.AuditEntries(t); len(e) != 1 || e[0].Status != http.StatusInternalServerError || e[0].Details["detailsError"] == nil {
			t.Errorf("entries %+v, want the request recorded as a 500 with a note in place of its details", e)
		}
	})
}

// TestHeadAnswersWhereGetDoes checks that crawlers probing with HEAD get
// the GET's status and headers without a body.
func TestHeadAnswersWhereGetDoes(t *testing.T) {
	srv := httptest.NewServer(apptest.New(t, dbtest.Open(t, "sqlite")))
	t.Cleanup(srv.Close)
	tests := []struct {
		path        string
		status      int
		contentType string
	}{
		{"/api/avatar-image?seed=ada", 200, "image/svg+xml"},
		{"/api/og-image?seed=ada&type=svg&quote=Hi", 200, "image/svg+xml"},
		{"/api/health", 200, "application/json"},
		{"/api/version", 200, "application/json"},
		{"/api/avatar-image", 400, ""},
		{"/api/v1/admin/audit-logs", 401, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, err := http.Head(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != tt.status || len(body) != 0 || !strings.HasPrefix(res.Header.Get("Content-Type"), tt.contentType) {
				t.Errorf("got %d %q with %d bytes (%v), want %d %q and no body", res.StatusCode, res.Header.Get("Content-Type"), len(body), err, tt.status, tt.contentType)
			}
		})
	}
}

// TestTextRefusedWhereDecoded checks that a NUL character or invalid
// UTF-8 in a path parameter, query string or body never reaches a handler
// or the database: each family answers with its invalid-input error.
func TestTextRefusedWhereDecoded(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, _ := app.Admin(t)
		form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
		tests := []struct {
			name, method, path string
			h                  http.Header
			body               string
			status             int
			want               string
		}{
			{"sign-in JSON", "POST", "/api/auth/signin", nil, `{"email":"a\u0000b@x.y","password":"x"}`, 422, `"VALIDATION_ERROR"`},
			{"sign-in form", "POST", "/api/auth/signin", form, "email=a%00b@x.y&password=x", 422, `"VALIDATION_ERROR"`},
			{"sign-in form, bad UTF-8", "POST", "/api/auth/signin", form, "email=a%ffb@x.y&password=x", 422, `"VALIDATION_ERROR"`},
			{"sign-in, bad UTF-8 body", "POST", "/api/auth/signin", nil, "{\"email\":\"a\xffb@x.y\",\"password\":\"x\"}", 422, `"VALIDATION_ERROR"`},
			{"v1 query", "GET", "/api/v1/admin/audit-logs?action=a%00b", cookie, "", 422, `"success":false`},
			{"v1 path", "DELETE", "/api/v1/admin/tokens/a%00b", cookie, "", 422, `"success":false`},
			{"v1 body", "POST", "/api/v1/admin/locks", cookie, `{"type":"user","id":"4\u00002"}`, 422, `"field":"id"`},
			{"public query", "GET", "/api/link-preview?url=http://a%00b", nil, "", 400, `"error"`},
			{"avatar, bad UTF-8", "GET", "/api/avatar-image?seed=%ff", nil, "", 400, `"status":400`},
			{"query name", "GET", "/api/health?a%00=1", nil, "", 400, `"error"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, tt.method, tt.path, tt.h, tt.body)
				if res.Code != tt.status || !strings.Contains(res.Body.String(), tt.want) {
					t.Errorf("got %d %s, want %d with %s", res.Code, res.Body, tt.status, tt.want)
				}
			})
		}
	})
}

// TestRacedRequestRunsAgain: a unit of work that loses a race for its rows
// rolls back whole, its audit entry with it, and nothing of it has been
// sent, so the server runs the request again, body and all, and the caller
// gets the answer of the run that committed: one change, one entry. The
// database itself refuses the first attempt here, as it refuses the loser
// of a deadlock (SQLSTATE 40P01), from a trigger on the probe's insert.
// PostgreSQL only: on SQLite writers queue for the write lock (IMMEDIATE
// transactions, a 10 s busy wait), so a race ends in an error only after
// that wait; models.TestRacedErrors shows its busy error is recognised.
// Before, the request answered 500.
func TestRacedRequestRunsAgain(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	ctx := context.Background()
	for _, q := range []string{
		`CREATE SEQUENCE probe_race`,
		`CREATE FUNCTION probe_race() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
			IF nextval('probe_race') = 1 THEN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END IF;
			RETURN NEW; END $$`,
		`CREATE TRIGGER probe_race BEFORE INSERT ON api_tokens FOR EACH ROW EXECUTE FUNCTION probe_race()`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var bodies []string
	var app *apptest.App
	handler := func(c echo.Context) error {
		ctx := c.Request().Context()
		b, _ := io.ReadAll(c.Request().Body) // read before the change, as handlers do
		bodies = append(bodies, string(b))
		audit.DraftFrom(ctx).Set("body", string(b))
		_, claims, err := auth.NewToken([]byte("k"), 1, []string{access.PermAdminRead}, time.Now(), time.Hour)
		if err != nil {
			return err
		}
		rec := models.NewAPIToken(claims, "probe", nil)
		if err := app.Store.Change(ctx, func(ctx context.Context) error { return app.Store.Auth.RecordAPIToken(ctx, rec) }); err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, api.OK(nil))
	}
	app = apptest.New(t, db, func(d *web.Deps) {
		d.ExtraRoutes = []web.Route{web.AdminV1(web.Route{Method: http.MethodPost, Path: api.PathAdminV1 + "/probe",
			Handler: handler, Audit: web.Audit{Action: "probe.run", Target: "token"}})}
	})
	cookie, _ := app.Admin(t)
	res := apptest.DoBody(t, app, http.MethodPost, api.PathAdminV1+"/probe", cookie, `{"n":1}`)
	if res.Code != http.StatusCreated {
		t.Fatalf("got %d %s, want 201 from the second run", res.Code, res.Body)
	}
	if len(bodies) != 2 || bodies[0] != `{"n":1}` || bodies[1] != `{"n":1}` {
		t.Errorf("the handler read %q, want the whole body on each of two runs", bodies)
	}
	entries := app.AuditEntries(t)
	if n := tokenCount(t, app); n != 1 || len(entries) != 1 || entries[0].Status != http.StatusCreated || entries[0].Details["body"] != `{"n":1}` {
		t.Errorf("%d tokens, entries %+v; want one token and one entry of the 201", n, entries)
	}
}
