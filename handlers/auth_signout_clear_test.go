package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConsolePagesLeaveNoCopy: console pages are kept by no cache and tell
// htmx to keep no history snapshot of them (the tab's sessionStorage held
// whole pages, emails included, after sign-out); the console and the
// sign-in and sign-out pages run the script that removes snapshots left
// behind; and signing out, in every form, answers Clear-Site-Data for the
// browser's cache and the site's storage.
func TestConsolePagesLeaveNoCopy(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin := app.User(t, "ada@example.com", access.RoleAdmin)
	page := apptest.Do(t, app, "GET", "/admin/users", http.Header{"Cookie": app.SessionFor(t, admin.ID)["Cookie"], "Accept": {"text/html"}})
	body := page.Body.String()
	if page.Code != http.StatusOK || page.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("console page: %d, Cache-Control %q", page.Code, page.Header().Get("Cache-Control"))
	}
	if !strings.Contains(body, `&#34;historyCacheSize&#34;:0`) || !strings.Contains(body, `&#34;refreshOnHistoryMiss&#34;:true`) {
		t.Errorf("the console's htmx configuration keeps history snapshots: %s", htmxConfigOf(body))
	}
	for _, path := range []string{"/admin/users", "/api/auth/signin", "/api/auth/signout"} {
		res := apptest.Do(t, app, "GET", path, http.Header{"Cookie": app.SessionFor(t, admin.ID)["Cookie"], "Accept": {"text/html"}})
		if !strings.Contains(res.Body.String(), `src="/static/js/forget-pages.js`) {
			t.Errorf("%s does not run forget-pages.js", path)
		}
	}

	for name, h := range map[string]http.Header{
		"JSON":      {"Accept": {"application/json"}},
		"browser":   {"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"text/html"}},
		"next-auth": {"Content-Type": {"application/x-www-form-urlencoded"}},
	} {
		h.Set("Cookie", app.SessionFor(t, admin.ID).Get("Cookie"))
		body := ""
		if name == "next-auth" {
			token, cookie := nextAuthCSRF(t, app)
			h.Set("Cookie", h.Get("Cookie")+"; "+cookie)
			body = "json=true&csrfToken=" + token
		}
		res := apptest.DoBody(t, app, "POST", "/api/auth/signout", h, body)
		if res.Code >= 400 || res.Header().Get("Clear-Site-Data") != `"cache", "storage"` {
			t.Errorf("%s sign-out: %d, Clear-Site-Data %q, want \"cache\", \"storage\"", name, res.Code, res.Header().Get("Clear-Site-Data"))
		}
	}
	refused := apptest.Do(t, app, "POST", "/api/auth/signout", http.Header{"Cookie": app.SessionFor(t, admin.ID)["Cookie"],
		"Content-Type": {"application/x-www-form-urlencoded"}, "Sec-Fetch-Site": {"cross-site"}})
	if refused.Code != http.StatusForbidden || refused.Header().Get("Clear-Site-Data") != "" {
		t.Errorf("a refused sign-out: %d, Clear-Site-Data %q; want 403 and nothing cleared", refused.Code, refused.Header().Get("Clear-Site-Data"))
	}
}

// htmxConfigOf is the htmx-config meta tag of a page, for a message.
func htmxConfigOf(page string) string {
	i := strings.Index(page, `name="htmx-config"`)
	if i < 0 {
		return "(no htmx-config)"
	}
	return page[i:min(len(page), i+400)]
}

// nextAuthCSRF is a token of GET /api/auth/csrf and the cookie carrying it.
func nextAuthCSRF(t *testing.T, app *apptest.App) (token, cookie string) {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/auth/csrf", nil)
	var got struct{ CSRFToken string }
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || got.CSRFToken == "" {
		t.Fatalf("GET /api/auth/csrf: %d %s", res.Code, res.Body)
	}
	for _, c := range res.Result().Cookies() {
		cookie = c.Name + "=" + c.Value
	}
	return got.CSRFToken, cookie
}
