package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func TestMetrics(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.MetricsToken = "scrape-secret" })
	apptest.Do(t, app, "GET", "/api/health", nil)
	apptest.Do(t, app, "GET", "/api/nowhere/42", nil)
	cookie, super := app.Admin(t)
	user := app.User(t, "u@example.com")
	bearer, _ := app.TokenFor(t, super.ID, access.PermAdminRead)
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

// TestMetricsFamilies scrapes /api/metrics as an admin token and with
// METRICS_TOKEN on both databases: every family docs/api.md's "Metrics"
// lists is there, routes are labelled by their table pattern (an unknown
// path by one "unmatched" label, never the path), odd methods share one
// label, and the job queue's depth is counted at scrape time.
func TestMetricsFamilies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.MetricsToken = "scrape-secret" })
		_, super := app.Admin(t)
		token, _ := app.TokenFor(t, super.ID, access.PermAdminRead, access.PermAdminDelete, access.PermAdminSuper)
		if _, err := app.Runtime.Jobs.Client().Insert(context.Background(), jobs.SweepArgs{}, nil); err != nil {
			t.Fatal(err)
		}
		apptest.Do(t, app, "DELETE", "/api/v1/admin/tokens/no-such-jti", token)
		apptest.Do(t, app, "GET", "/api/users/123", nil)
		apptest.Do(t, app, "BREW", "/api/coffee/42", nil)
		for name, h := range map[string]http.Header{"admin token": token, "metrics token": {"Authorization": {"Bearer scrape-secret"}}} {
			t.Run(name, func(t *testing.T) {
				res := apptest.Do(t, app, "GET", "/api/metrics", h)
				body := res.Body.String()
				if res.Code != 200 {
					t.Fatalf("got %d %s", res.Code, body)
				}
				for _, want := range []string{
					`plaza_http_requests_total{method="DELETE",route="/api/v1/admin/tokens/:id",status="404"} 1`,
					`plaza_http_request_duration_seconds_bucket{method="DELETE",route="/api/v1/admin/tokens/:id",le="0.005"}`,
					`plaza_http_requests_total{method="OTHER",route="unmatched",status="404"} 1`,
					`go_sql_open_connections{db_name="plaza"}`, `go_sql_wait_count_total{db_name="plaza"}`,
					`plaza_jobs_total{kind="sweep",outcome="completed"} 0`, `plaza_jobs_total{kind="analytics_rollup",outcome="failed"} 0`,
					`plaza_river_jobs{state="available"} 1`, `plaza_river_jobs{state="running"} 0`,
					"plaza_analytics_events_ingested_total 0", "plaza_database_unavailable_total 0", "plaza_ratelimit_fallback 0", "go_goroutines", "go_gc_duration_seconds", "process_resident_memory_bytes",
				} {
					if !strings.Contains(body, want) {
						t.Errorf("metrics lack %s", want)
					}
				}
				for _, raw := range []string{"/api/users/123", "/api/coffee", "no-such-jti", `method="BREW"`} {
					if strings.Contains(body, raw) {
						t.Errorf("metrics carry %s: labels must be route patterns and known methods", raw)
					}
				}
			})
		}
	})
}
