package handlers_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestHealth(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		res := apptest.Do(t, app, http.MethodGet, "/api/health", nil)
		if res.Code != http.StatusOK {
			t.Fatalf("status %d, want 200: %s", res.Code, res.Body)
		}
		var got api.Health
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Status != "healthy" || got.Database != "connected" || got.Version != "1.2.3" {
			t.Errorf("got %+v, want healthy, connected, 1.2.3", got)
		}
		if _, err := time.Parse(time.RFC3339, got.Timestamp); err != nil || !strings.HasSuffix(got.Timestamp, "Z") {
			t.Errorf("timestamp %q is not RFC 3339 UTC: %v", got.Timestamp, err)
		}
		if !regexp.MustCompile(`^3h 2m \d+s$`).MatchString(got.Uptime) {
			t.Errorf("uptime %q, want like 3h 2m 1s", got.Uptime)
		}
		if cc := res.Header().Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q, want no-store", cc)
		}
	})
}

func TestHealthDatabaseDown(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		db.Close()
		res := apptest.Do(t, app, http.MethodGet, "/api/health", nil)
		if res.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503: %s", res.Code, res.Body)
		}
		var got api.Health
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Status != "unhealthy" || got.Database != "disconnected" {
			t.Errorf("got %+v, want unhealthy and disconnected", got)
		}
	})
}

func TestHealthCardsPartial(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, _ := app.Admin(t)
	cookie.Set("Hx-Request", "true")
	res := apptest.Do(t, app, http.MethodGet, "/admin/health-cards", cookie)
	if res.Code != http.StatusOK || !strings.Contains(res.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("got %d %s, want 200 HTML", res.Code, res.Header().Get("Content-Type"))
	}
	if body := res.Body.String(); !strings.Contains(body, `id="health-cards"`) || strings.Contains(body, "<html") {
		t.Errorf("want the health cards partial alone, got %s", body)
	}
}
