package handlers_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// downBodies are valid bodies, so that each admin route gets past its
// input checks to the database.
var downBodies = map[string]string{
	http.MethodPost + " " + api.PathAdminTokens:         `{"permissions":["admin:read"],"ttl":"1h"}`,
	http.MethodPost + " " + api.PathAdminLocks:          `{"type":"post","id":"7"}`,
	http.MethodPut + " " + api.PathAdminV1User:          `{"isVerified":true}`,
	http.MethodPost + " " + api.PathAdminV1UserBan:      `{"action":"ban","reason":"spam"}`,
	http.MethodPost + " " + api.PathAdminV1BulkUpdate:   `{"userIds":["7"],"changes":{"isVerified":true}}`,
	http.MethodPost + " " + api.PathAdminV1Moderate:     `{"action":"hide"}`,
	http.MethodPut + " " + api.PathAdminV1Flag:          `{"enabled":true}`,
	http.MethodPost + " " + api.PathAdminV1UserNotes:    `{"body":"x"}`,
	http.MethodPut + " " + api.PathAdminV1Reasons:       `{"reasons":["Spam"]}`,
	http.MethodPost + " " + api.PathAdminV1BulkModerate: `{"postIds":["7"],"action":"hide"}`,
	http.MethodPost + " " + api.PathAdminV1Broadcast:    `{"title":"T","message":"M","targets":["all"]}`,
	http.MethodPost + " " + api.PathAdminV1Maintenance:  `{"action":"cache_clear"}`,
	http.MethodPost + " " + api.PathAdminV1Blocks:       `{"kind":"ip","value":"203.0.113.0/24"}`,
	http.MethodPost + " " + api.PathAdminWebhooks:       `{"url":"https://hooks.invalid/plaza","events":["user.banned"]}`,
	http.MethodPatch + " " + api.PathAdminWebhook:       `{"active":false}`,
}

// filesOnly are the admin routes that read BACKUP_DIR and not the
// database: they answer as usual during an outage, when a backup is what
// an admin wants (here: no backups, and none of the name asked for).
var filesOnly = map[string]int{
	http.MethodGet + " " + api.PathAdminV1Backups:   http.StatusOK,
	http.MethodGet + " " + api.PathAdminV1Backup:    http.StatusNotFound,
	http.MethodDelete + " " + api.PathAdminV1Backup: http.StatusNotFound,
}

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

// TestAdminRoutesWithDatabaseDown walks every admin route while the
// database refuses connections: each answers 500 SERVER_ERROR in the v1
// envelope with the generic message, never a hang, a panic or the driver's
// words. The caller's token is remembered from before the outage
// (PostgreSQL's caller cache), so the requests reach the handlers.
func TestAdminRoutesWithDatabaseDown(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	app := apptest.New(t, db)
	_, super := app.Admin(t)
	token, _ := app.TokenFor(t, super.ID, auth.AllPermissions()...)
	app.WaitRemembered(t, token)
	restore := outage(t, db)
	n := 0
	for _, r := range web.Routes(app.Deps) {
		if r.Family != api.FamilyV1 {
			continue
		}
		n++
		path := strings.NewReplacer(":type", "post", ":id", "7", ":name", "some_flag", ":deliveryId", "8").Replace(r.Path)
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			res := apptest.DoBody(t, app, r.Method, path, token, downBodies[r.Method+" "+r.Path])
			if status, ok := filesOnly[r.Method+" "+r.Path]; ok {
				if res.Code != status {
					t.Errorf("got %d %s, want %d: the route reads no database", res.Code, res.Body, status)
				}
				return
			}
			want := `{"success":false,"error":{"code":"SERVER_ERROR","message":"Internal server error"}}`
			if res.Code != http.StatusInternalServerError || strings.TrimSpace(res.Body.String()) != want {
				t.Errorf("got %d %s, want 500 %s", res.Code, res.Body, want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no admin routes found")
	}
	restore() // the refused requests' audit entries are written once the database is back
	if entries := app.AuditEntries(t); len(entries) < n {
		t.Errorf("%d audit entries after the outage, want at least %d", len(entries), n)
	}
}
