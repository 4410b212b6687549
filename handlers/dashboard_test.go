package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestRootRedirectsToConsole(t *testing.T) {
	res := apptest.Do(t, apptest.New(t, dbtest.Open(t, "sqlite")), http.MethodGet, "/", nil)
	if res.Code != http.StatusFound || res.Header().Get("Location") != "/admin" {
		t.Errorf("got %d Location %q, want 302 /admin", res.Code, res.Header().Get("Location"))
	}
}

func TestConsoleDashboard(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, _ := app.Admin(t)
		res := apptest.Do(t, app, http.MethodGet, "/admin", cookie)
		body := res.Body.String()
		if res.Code != http.StatusOK || !strings.Contains(body, `data-testid="console-nav"`) || !strings.Contains(body, "1.2.3") {
			t.Errorf("got %d, want the dashboard with the nav and the version: %s", res.Code, body)
		}
	})
}

// TestConsoleLinksResolve follows every link and form of the pages a
// signed-in admin and a visitor see: none may lead to a 404.
func TestConsoleLinksResolve(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, _ := app.Admin(t)
	pages := []string{"/admin", "/api/auth/signin", "/api/auth/signout", "/og-image-viewer", "/admin/no-such-page", "/api/docs"}
	checked := map[string]bool{}
	for _, page := range pages {
		res := apptest.Do(t, app, http.MethodGet, page, cookie)
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		doc.Find("a[href], form[action], link[href], script[src]").Each(func(_ int, s *goquery.Selection) {
			for _, attr := range []string{"href", "action", "src"} {
				ref, ok := s.Attr(attr)
				u, err := url.Parse(ref)
				if !ok || err != nil || u.Host != "" || !strings.HasPrefix(u.Path, "/") || checked[u.Path] {
					continue
				}
				checked[u.Path] = true
				if res := apptest.Do(t, app, http.MethodGet, u.Path, cookie); res.Code == http.StatusNotFound {
					t.Errorf("%s links to %s, which is 404", page, u.Path)
				}
			}
		})
	}
	if len(checked) < 4 {
		t.Errorf("only %d links found: %v", len(checked), checked)
	}
}
