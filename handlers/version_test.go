package handlers_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

func TestVersion(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	res := apptest.Do(t, apptest.New(t, db), http.MethodGet, "/api/version", nil)
	if res.Code != http.StatusOK || strings.TrimSpace(res.Body.String()) != `{"version":"1.2.3"}` {
		t.Fatalf("got %d %s, want 200 {\"version\":\"1.2.3\"}", res.Code, res.Body)
	}
	for header, want := range map[string]string{
		"Access-Control-Allow-Origin": "*",
		"Cache-Control":               "no-store",
		"Content-Type":                "application/json",
	} {
		if got := res.Header().Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
}

func TestVersionUnknown(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	app := apptest.New(t, db, func(d *web.Deps) { d.Version, d.VersionErr = "", errors.New("no VERSION file") })
	res := apptest.Do(t, app, http.MethodGet, "/api/version", nil)
	want := `{"error":"Version information is not available","details":"no VERSION file"}`
	if res.Code != http.StatusInternalServerError || strings.TrimSpace(res.Body.String()) != want {
		t.Errorf("got %d %s, want 500 %s", res.Code, res.Body, want)
	}
}
