package web_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/redistest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func TestRateLimitHeaders(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, super := app.Admin(t)
	adm := app.User(t, "adm@example.com", access.RoleAdmin)
	tests := []struct {
		name, path  string
		h           http.Header
		limit, tier string
	}{
		{"anonymous general", "/api/auth/session", nil, "100", ""},
		{"signed-in general", "/api/auth/session", app.SessionFor(t, adm.ID), "1000", ""},
		{"v1 general tier", "/api/v1/admin/audit-logs", app.SessionFor(t, adm.ID), "5000", "general"},
		{"v1 super tier", "/api/v1/admin/audit-logs", cookie, "10000", "super"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apptest.Do(t, app, "GET", tt.path, tt.h)
			h := res.Header()
			reset, _ := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
			if h.Get("X-RateLimit-Limit") != tt.limit || h.Get("X-RateLimit-Remaining") == "" || reset < time.Now().Unix() {
				t.Errorf("headers %v, want limit %s", h, tt.limit)
			}
			if h.Get("X-Admin-Tier") != tt.tier {
				t.Errorf("X-Admin-Tier %q, want %q", h.Get("X-Admin-Tier"), tt.tier)
			}
		})
	}
	res := apptest.Do(t, app, "GET", "/api/version", nil)
	if res.Header().Get("X-RateLimit-Limit") != "" {
		t.Error("/api/version must be exempt from rate limiting")
	}
	_ = super
}

func TestRateLimitRefuses(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.RateLimit.AdminSuper = 2; d.Config.RateLimit.APIAnonymous = 1 })
	cookie, _ := app.Admin(t)
	for range 2 {
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", cookie); res.Code != 200 {
			t.Fatalf("within the limit: %d", res.Code)
		}
	}
	res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", cookie)
	retry, _ := strconv.Atoi(res.Header().Get("Retry-After"))
	if res.Code != 429 || retry < 3500 || retry > 3600 || res.Header().Get("X-RateLimit-Remaining") != "0" ||
		!strings.Contains(res.Body.String(), `{"success":false,"error":{"code":"RATE_LIMITED"`) {
		t.Errorf("over the limit: %d %s, Retry-After %q", res.Code, res.Body, res.Header().Get("Retry-After"))
	}
	apptest.Do(t, app, "GET", "/api/auth/providers", nil)
	res = apptest.Do(t, app, "GET", "/api/auth/providers", nil)
	if res.Code != 429 || !strings.Contains(res.Body.String(), `{"error":{"code":"RATE_LIMITED"`) {
		t.Errorf("anonymous over the limit: %d %s", res.Code, res.Body)
	}
}

// TestRateLimitSharedThroughRedis runs two app instances on one database
// and one Redis: they share every count.
func TestRateLimitSharedThroughRedis(t *testing.T) {
	client := redistest.Client(t)
	db := dbtest.Open(t, "postgres")
	prefix := fmt.Sprintf("test:%d", time.Now().UnixNano())
	instance := func() *apptest.App {
		l, err := ratelimit.NewRedis(client, prefix)
		if err != nil {
			t.Fatal(err)
		}
		return apptest.New(t, db, func(d *web.Deps) { d.Limiter = l; d.Config.RateLimit.AdminSuper = 3 })
	}
	a, b := instance(), instance()
	cookie, _ := a.Admin(t)
	for i, app := range []*apptest.App{a, b, a} {
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", cookie); res.Code != 200 {
			t.Fatalf("request %d: %d", i+1, res.Code)
		}
	}
	if res := apptest.Do(t, b, "GET", "/api/v1/admin/audit-logs", cookie); res.Code != 429 {
		t.Errorf("4th request through the other instance: %d, want 429", res.Code)
	}
}
