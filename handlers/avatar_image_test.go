package handlers_test

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/avatar"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestAvatarImage(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	res := apptest.Do(t, app, "GET", "/api/avatar-image?seed=Ada&size=64", nil)
	body := res.Body.String()
	if res.Code != 200 || res.Header().Get("Content-Type") != "image/svg+xml" ||
		res.Header().Get("Cache-Control") != "no-cache, no-store, must-revalidate" ||
		!strings.Contains(body, `width="64"`) || !strings.Contains(body, `height="64"`) {
		t.Fatalf("got %d %v %.200s", res.Code, res.Header(), body)
	}
	if err := xml.Unmarshal(res.Body.Bytes(), new(struct{})); err != nil {
		t.Errorf("not XML: %v", err)
	}
	again := apptest.Do(t, app, "GET", "/api/avatar-image?seed=Ada&size=64", nil)
	other := apptest.Do(t, app, "GET", "/api/avatar-image?seed=ada&size=64", nil)
	if again.Body.String() != body || other.Body.String() == body {
		t.Error("same seed must give the same SVG, and seeds are case-sensitive")
	}
	if res := apptest.Do(t, app, "GET", "/api/avatar-image?seed=Ada", nil); !strings.Contains(res.Body.String(), `width="200"`) {
		t.Error("default size is 200")
	}
	for _, q := range []string{"", "?seed=", "?seed=a&size=49", "?seed=a&size=1001", "?seed=a&size=big", "?seed=a&size=100.5"} {
		res := apptest.Do(t, app, "GET", "/api/avatar-image"+q, nil)
		if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), `"status":400`) || !strings.Contains(res.Body.String(), `"error":`) {
			t.Errorf("%q: got %d %s, want 400 {error, status}", q, res.Code, res.Body)
		}
	}
	if res.Header().Get("X-RateLimit-Limit") != "600" {
		t.Errorf("avatar rate limit header %q, want 600", res.Header().Get("X-RateLimit-Limit"))
	}
}

// TestConsoleAvatar: the console's avatar is the public one's image,
// gzipped and cacheable for a year, and only for the console's people.
func TestConsoleAvatar(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	mod := app.User(t, "mo@example.com", access.RoleModerator)
	h := app.SessionFor(t, mod.ID)
	h.Set("Accept-Encoding", "gzip")
	res := apptest.Do(t, app, "GET", "/admin/avatar?seed=Ada&size=64", h)
	if res.Code != 200 || res.Header().Get("Content-Type") != "image/svg+xml" || res.Header().Get("Content-Encoding") != "gzip" ||
		res.Header().Get("Cache-Control") != "private, max-age=31536000, immutable" {
		t.Fatalf("got %d %v", res.Code, res.Header())
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if public := apptest.Do(t, app, "GET", "/api/avatar-image?seed=Ada&size=64", nil); string(got) != public.Body.String() {
		t.Error("the console's avatar differs from /api/avatar-image's")
	}
	if res := apptest.Do(t, app, "GET", "/admin/avatar?seed=Ada&size=1", h); res.Code != http.StatusBadRequest {
		t.Errorf("a bad size: %d", res.Code)
	}
	if res := apptest.Do(t, app, "GET", "/admin/avatar?seed=Ada", nil); res.Code == http.StatusOK {
		t.Error("an avatar for someone not signed in")
	}
}

// TestConsoleAvatarSheet: the console's avatar sheet holds each seed's
// avatar as a symbol, compressed and cacheable for a year, only for the
// console's people; a sheet of no seed, an empty seed or over 100 is 400.
func TestConsoleAvatarSheet(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	mod := app.User(t, "mo@example.com", access.RoleModerator)
	h := app.SessionFor(t, mod.ID)
	h.Set("Accept-Encoding", "gzip")
	res := apptest.Do(t, app, "GET", "/admin/avatars?seeds=1,Ada,3", h)
	if res.Code != 200 || res.Header().Get("Content-Type") != "image/svg+xml" || res.Header().Get("Content-Encoding") != "gzip" ||
		res.Header().Get("Cache-Control") != "private, max-age=31536000, immutable" {
		t.Fatalf("got %d %v", res.Code, res.Header())
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, avatar.AppendSheet(nil, []string{"1", "Ada", "3"})) || !bytes.Contains(got, []byte(`<symbol id="a2"`)) {
		t.Errorf("the sheet is not the three avatars: %.200s", got)
	}
	for _, q := range []string{"", "seeds=", "seeds=1,,2", "seeds=" + strings.Repeat("x,", 100) + "x"} {
		if res := apptest.Do(t, app, "GET", "/admin/avatars?"+q, h); res.Code != http.StatusBadRequest {
			t.Errorf("%q: %d, want 400", q, res.Code)
		}
	}
	if res := apptest.Do(t, app, "GET", "/admin/avatars?seeds=1", nil); res.Code == http.StatusOK {
		t.Error("a sheet for someone not signed in")
	}
}
