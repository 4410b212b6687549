package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/redistest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestSignInThrottleHoldsWithRedisDown: when the Redis that holds the
// rate limits goes away, sign-in's failure throttle still refuses the
// 11th wrong password (the instance counts in memory), and /api/health
// says the limiter has fallen back while the service stays healthy.
func TestSignInThrottleHoldsWithRedisDown(t *testing.T) {
	proxy, client := redistest.NewProxy(t)
	limiter, err := ratelimit.NewRedis(client, fmt.Sprintf("test:%d:rl", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Limiter = limiter })
	app.UserWithPassword(t, "ada@example.com", "correct horse")
	health := func() api.Health {
		t.Helper()
		res := apptest.Do(t, app, http.MethodGet, "/api/health", nil)
		var h api.Health
		if err := json.Unmarshal(res.Body.Bytes(), &h); err != nil || res.Code != 200 {
			t.Fatalf("health: %d %s", res.Code, res.Body)
		}
		return h
	}
	if h := health(); h.Status != api.StatusHealthy || h.RateLimiter != ratelimit.StatusRedis {
		t.Errorf("health with Redis up: %+v", h)
	}

	proxy.Down()
	for i := range app.Deps.Config.RateLimit.SignInByEmail {
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"bad"}`); res.Code != 401 {
			t.Fatalf("failure %d with Redis down: %d %s", i+1, res.Code, res.Body)
		}
	}
	if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`); res.Code != 429 {
		t.Errorf("11th attempt with Redis down: %d %s, want 429", res.Code, res.Body)
	}
	if h := health(); h.Status != api.StatusHealthy || h.RateLimiter != ratelimit.StatusFallback {
		t.Errorf("health with Redis down: %+v, want healthy with rateLimiter %q", h, ratelimit.StatusFallback)
	}
}
