package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConsoleErrorPagesInWords: a console page that fails says what went
// wrong in words, each bad filter by name, inside the console's frame for
// staff, with a way back (for a bad query, the page without it).
func TestConsoleErrorPagesInWords(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin, _ := app.Admin(t)
	mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
	page := func(h http.Header) http.Header {
		out := http.Header{"Accept": {"text/html"}}
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name, path string
		as         http.Header
		status     int
		says       []string
		back       string
		framed     bool
	}{
		{"bad filters", "/admin/audit?limit=0&adminId=nobody&startDate=yesterday", page(admin), 422,
			[]string{"Some of its filters could not be used", "limit must be between 1 and 100", "No user named 'nobody'"}, "/admin/audit", true},
		{"bad report window", "/admin/reports?startDate=2026-02-30", page(admin), 422, []string{"startDate"}, "/admin/reports", true},
		{"no such page", "/admin/nowhere", page(admin), 404, []string{"There is nothing at /admin/nowhere"}, "/admin", true},
		{"not for a moderator", "/admin/users", page(app.SessionFor(t, mod.ID)), 403, []string{"It needs the admin:read permission"}, "/admin", true},
		{"signed out, no such page", "/admin/nowhere/at/all", page(nil), 404, []string{"There is nothing at /admin/nowhere/at/all"}, "/admin", false},
	} {
		res := apptest.Do(t, app, http.MethodGet, c.path, c.as)
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(doc.Find(`[data-testid="error-page"]`).Text()), " ")
		if res.Code != c.status {
			t.Errorf("%s: %d, want %d", c.name, res.Code, c.status)
		}
		for _, want := range c.says {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the page does not say %q: %q", c.name, want, text)
			}
		}
		if strings.Contains(text, "Invalid input") || strings.Contains(text, "positive integer") {
			t.Errorf("%s: the page speaks the API's language: %q", c.name, text)
		}
		if back := doc.Find(`[data-testid="error-back"]`).AttrOr("href", ""); back != c.back {
			t.Errorf("%s: the way back is %q, want %q", c.name, back, c.back)
		}
		if framed := doc.Find(`[data-testid="console-nav"]`).Length() > 0; framed != c.framed {
			t.Errorf("%s: in the console's frame: %v, want %v", c.name, framed, c.framed)
		}
	}
}
