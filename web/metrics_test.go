package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func TestMetrics(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.MetricsToken = "scrape-secret" })
	apptest.Do(t, app, "GET", "/api/health", nil)
	apptest.Do(t, app, "GET", "/api/nowhere/42", nil)
	cookie, super := app.Admin(t)
	user := app.User(t, "u@example.com")
	bearer, _ := app.TokenFor(t, super.ID, auth.PermAdminRead)
	tests := []struct {
		name   string
		h      http.Header
		status int
	}{
		{"anonymous", nil, 401},
		{"plain user", app.SessionFor(t, user.ID), 403},
		{"wrong metrics token", http.Header{"Authorization": {"Bearer nope"}}, 401},
		{"metrics token", http.Header{"Authorization": {"Bearer scrape-secret"}}, 200},
		{"admin session", cookie, 200},
		{"admin token", bearer, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apptest.Do(t, app, "GET", "/api/metrics", tt.h)
			if res.Code != tt.status {
				t.Fatalf("got %d %s, want %d", res.Code, res.Body, tt.status)
			}
			if tt.status != 200 {
				return
			}
			body := res.Body.String()
			for _, want := range []string{
				`plaza_http_requests_total{method="GET",route="/api/health",status="200"} 1`,
				`route="unmatched",status="404"`,
				`plaza_http_request_duration_seconds_bucket{method="GET",route="/api/health"`,
				`go_sql_max_open_connections{db_name="plaza"}`, "go_goroutines", "plaza_analytics_events_ingested_total", "process_",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("metrics lack %s", want)
				}
			}
		})
	}
}
