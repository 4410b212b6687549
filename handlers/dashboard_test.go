package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/seed"
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

// TestDashboardNumbersSayWhatTheyCount: the demo's open reports and the
// posts they are on are two numbers, each with its own label, the second
// the same as the sidebar's badge, which says what it counts too; and on
// an instance with no analytics events yet the engagement and resolution
// figures say there is no data rather than showing zeros.
func TestDashboardNumbersSayWhatTheyCount(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, _ := app.Admin(t)
	empty := dashboardDoc(t, app, cookie)
	for _, id := range []string{"stat-dau", "stat-session", "stat-resolution"} {
		if got := strings.TrimSpace(empty.Find(`[data-testid="` + id + `"] .card-value`).Text()); got != "No data yet" {
			t.Errorf("%s on an empty instance reads %q, want No data yet", id, got)
		}
	}
	if _, err := seed.Demo(context.Background(), app.Store); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	open, err := app.Store.Analytics.OpenReports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	queue, err := app.Store.Desk.QueueCount(ctx)
	if err != nil || open == queue || queue == 0 {
		t.Fatalf("the demo has %d open reports on %d posts (%v)", open, queue, err)
	}
	doc := dashboardDoc(t, app, cookie)
	for id, want := range map[string]string{"open-reports": fmt.Sprintf("Open reports %d", open), "queue-posts": fmt.Sprintf("Posts awaiting review %d", queue)} {
		card := doc.Find(`[data-testid="` + id + `"]`)
		got := strings.TrimSpace(card.Find(".card-label").Text()) + " " + strings.TrimSpace(card.Find(".card-value").Text())
		if got != want {
			t.Errorf("%s reads %q, want %q", id, got, want)
		}
	}
	badge := doc.Find(`[data-testid="queue-badge"]`)
	if got := strings.Join(strings.Fields(badge.Text()), " "); got != fmt.Sprintf("%d posts awaiting review", queue) {
		t.Errorf("the sidebar's badge reads %q", got)
	}
	if title, _ := badge.Attr("title"); title != fmt.Sprintf("%d posts awaiting review", queue) {
		t.Errorf("the sidebar's badge is titled %q", title)
	}
}

func dashboardDoc(t *testing.T, app *apptest.App, cookie http.Header) *goquery.Document {
	t.Helper()
	h := cookie.Clone()
	h.Set("Accept", "text/html") // a browser's page, with the sidebar's badge
	res := apptest.Do(t, app, http.MethodGet, "/admin", h)
	if res.Code != http.StatusOK {
		t.Fatalf("GET /admin: %d %s", res.Code, res.Body)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
