package views_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// render renders c and parses the result for goquery.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(views.WithViewer(context.Background(), staff), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parse rendered HTML: %v", err)
	}
	return doc
}

// testid returns the selection of elements with data-testid id, failing the
// test unless exactly one exists.
func testid(t *testing.T, doc *goquery.Document, id string) *goquery.Selection {
	t.Helper()
	sel := doc.Find(`[data-testid="` + id + `"]`)
	if sel.Length() != 1 {
		t.Fatalf("data-testid %q: got %d elements, want 1", id, sel.Length())
	}
	return sel
}

func text(sel *goquery.Selection) string {
	return strings.Join(strings.Fields(sel.Text()), " ")
}

// staff is the moderator pages render for unless a test says otherwise.
var staff = views.Viewer{ID: 7, Name: "Mo", Email: "mo@example.com", Role: api.RoleModerator, May: opens(moderatorPages...)}

// moderatorPages are the pages a moderator may open, as the web layer
// answers it from the routes.
var moderatorPages = []string{api.PathConsoleModeration, api.PathConsole, api.PathConsoleInbox, api.PathAPIDocs, api.PathOGViewer}

// opens is a viewer's abilities who may open the pages paths and no more.
func opens(paths ...string) views.Abilities {
	a := views.Abilities{Pages: map[string]bool{}}
	for _, p := range paths {
		a.Pages[p] = true
	}
	return a
}

var healthy = api.Health{
	Status:    api.StatusHealthy,
	Timestamp: "2025-03-01T12:00:00Z",
	Version:   "v1.4.2-test",
	Database:  api.DatabaseConnected,
	Uptime:    "3h25m10s",
}

// TestConsoleNav: the sidebar groups the pages its viewer may open, each
// once, in no empty group; nobody's shares slices. Which pages those are
// is the routes' answer (web's TestSidebarFollowsTheRoutes).
func TestConsoleNav(t *testing.T) {
	admin := views.Viewer{May: opens(api.PathConsoleUsers, api.PathConsoleModeration, api.PathConsole, api.PathConsoleInbox, api.PathConsoleFlags)}
	moderator := views.Viewer{May: opens(moderatorPages...)}
	keys := func(v views.Viewer) map[string]bool {
		seen := map[string]bool{}
		for _, g := range views.ConsoleNav(v) {
			if g.Label == "" || len(g.Items) == 0 {
				t.Errorf("empty or unnamed group %+v", g)
			}
			for _, item := range g.Items {
				if item.Key == "" || item.Label == "" || !strings.HasPrefix(item.Href, "/") || seen[item.Key] {
					t.Errorf("incomplete or repeated nav item %+v", item)
				}
				seen[item.Key] = true
			}
		}
		return seen
	}
	if got := keys(admin); len(got) != 5 || !got["users"] || !got["dashboard"] || !got["inbox"] || !got["flags"] || got["tokens"] {
		t.Errorf("an admin's sidebar: %v", got)
	}
	if got := keys(moderator); got["users"] || !got["dashboard"] || !got["inbox"] || got["flags"] {
		t.Errorf("a moderator's sidebar: %v", got)
	}
	if got := keys(views.Viewer{}); len(got) != 0 {
		t.Errorf("a viewer who may open nothing: %v", got)
	}
	super := views.Viewer{May: opens(views.ConsolePaths()...)}
	if got := keys(super); !got["flags"] || !got["tokens"] {
		t.Errorf("a super admin's sidebar: %v", got)
	}
	var groups []string
	for _, g := range views.ConsoleNav(super) {
		groups = append(groups, g.Label)
	}
	if got, want := strings.Join(groups, ","), "Community,Insight,Operations,Security,Tools"; got != want {
		t.Errorf("a super admin's groups: %s, want %s", got, want)
	}
	nav := views.ConsoleNav(admin)
	nav[0].Items[0].Label = "changed"
	if got := views.ConsoleNav(admin)[0].Items[0].Label; got == "changed" {
		t.Error("ConsoleNav shares its slices")
	}
}

func TestAdminLayout(t *testing.T) {
	child := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, `<p data-testid="child">hello from the page</p>`)
		return err
	})
	viewer := staff
	ctx := templ.WithChildren(views.WithViewer(context.Background(), viewer), child)
	var buf bytes.Buffer
	if err := views.AdminLayout("Dashboard", "dashboard").Render(ctx, &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	if !strings.HasPrefix(buf.String(), "<!doctype html>") {
		t.Errorf("document does not start with a doctype: %.40q", buf.String())
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}

	t.Run("head", func(t *testing.T) {
		if got, want := doc.Find("title").Text(), "Dashboard · Plaza"; got != want {
			t.Errorf("title: got %q, want %q", got, want)
		}
		if doc.Find(`meta[charset="utf-8"]`).Length() != 1 {
			t.Error("no <meta charset=utf-8>")
		}
		if doc.Find(`meta[name="viewport"]`).Length() != 1 {
			t.Error("no viewport meta")
		}
		if doc.Find(`head link[rel="stylesheet"][href="/static/css/app.css"]`).Length() != 1 {
			t.Error("no app.css stylesheet link")
		}
		script := doc.Find(`head script[src="/static/js/htmx.min.js"]`)
		if script.Length() != 1 {
			t.Fatal("no htmx script")
		}
		if _, ok := script.Attr("defer"); !ok {
			t.Error("htmx script is not deferred")
		}
		if doc.Find("[hx-boost]").Length() != 0 {
			t.Error("hx-boost is set; the console must not boost")
		}
	})

	t.Run("htmx config", func(t *testing.T) {
		content, ok := doc.Find(`meta[name="htmx-config"]`).Attr("content")
		if !ok {
			t.Fatal("no htmx-config meta")
		}
		var cfg struct {
			ResponseHandling []struct {
				Code  string `json:"code"`
				Swap  bool   `json:"swap"`
				Error bool   `json:"error"`
			} `json:"responseHandling"`
		}
		if err := json.Unmarshal([]byte(content), &cfg); err != nil {
			t.Fatalf("htmx-config is not JSON: %v: %s", err, content)
		}
		// htmx uses the first rule whose code pattern matches the status.
		swaps := func(status string) (swap, isErr bool) {
			for _, r := range cfg.ResponseHandling {
				if regexp.MustCompile("^" + r.Code + "$").MatchString(status) {
					return r.Swap, r.Error
				}
			}
			t.Fatalf("no responseHandling rule for %s", status)
			return false, false
		}
		for _, tt := range []struct {
			status          string
			wantSwap, wantE bool
		}{
			{"200", true, false},
			{"204", false, false},
			{"302", true, false},
			{"422", true, false},
			{"404", false, true},
			{"500", false, true},
		} {
			if swap, isErr := swaps(tt.status); swap != tt.wantSwap || isErr != tt.wantE {
				t.Errorf("status %s: got swap=%v error=%v, want swap=%v error=%v", tt.status, swap, isErr, tt.wantSwap, tt.wantE)
			}
		}
	})

	t.Run("navigation", func(t *testing.T) {
		nav := testid(t, doc, "console-nav")
		var items []views.NavItem
		for _, g := range views.ConsoleNav(viewer) {
			items = append(items, g.Items...)
		}
		for _, item := range items {
			link := nav.Find(`a[data-testid="nav-` + item.Key + `"]`)
			if link.Length() != 1 {
				t.Errorf("nav-%s: got %d links, want 1", item.Key, link.Length())
				continue
			}
			if href, _ := link.Attr("href"); href != item.Href {
				t.Errorf("nav-%s href: got %q, want %q", item.Key, href, item.Href)
			}
			if got := text(link); got != item.Label {
				t.Errorf("nav-%s label: got %q, want %q", item.Key, got, item.Label)
			}
		}
		current := doc.Find(`[aria-current]`)
		if current.Length() != 1 {
			t.Fatalf("got %d elements with aria-current, want 1", current.Length())
		}
		if id, _ := current.Attr("data-testid"); id != "nav-dashboard" {
			t.Errorf("aria-current on %q, want nav-dashboard", id)
		}
		if v, _ := current.Attr("aria-current"); v != "page" {
			t.Errorf(`aria-current=%q, want "page"`, v)
		}
	})

	t.Run("body", func(t *testing.T) {
		if got := text(testid(t, doc, "page-title")); got != "Dashboard" {
			t.Errorf("page-title: got %q, want Dashboard", got)
		}
		if got := text(doc.Find(`[data-testid="wordmark"]`)); got != "P Plaza" {
			t.Errorf("wordmark: got %q, want %q", got, "P Plaza")
		}
		main := testid(t, doc, "main")
		if id, _ := main.Attr("id"); id != "main" {
			t.Errorf("main id: got %q, want main", id)
		}
		if got := text(main.Find(`[data-testid="child"]`)); got != "hello from the page" {
			t.Errorf("children not rendered inside main: got %q", got)
		}
	})
}

func TestAdminLayoutNoActive(t *testing.T) {
	doc := render(t, views.AdminLayout("Elsewhere", ""))
	if n := doc.Find("[aria-current]").Length(); n != 0 {
		t.Errorf("got %d elements with aria-current, want 0", n)
	}
}

func TestDashboardPage(t *testing.T) {
	doc := render(t, views.DashboardPage(views.Dashboard{Health: healthy, Period: "week"}))

	if got := doc.Find("title").Text(); got != "Dashboard · Plaza" {
		t.Errorf("title: got %q", got)
	}
	if got := text(testid(t, doc, "page-title")); got != "Dashboard" {
		t.Errorf("page-title: got %q, want Dashboard", got)
	}
	if v, _ := testid(t, doc, "nav-dashboard").Attr("aria-current"); v != "page" {
		t.Errorf(`nav-dashboard aria-current: got %q, want "page"`, v)
	}
	main := testid(t, doc, "main")
	if main.Find("#health-cards").Length() != 1 {
		t.Error("health cards are not inside main")
	}
	for id, want := range map[string]string{
		"card-status":   "healthy",
		"card-version":  "v1.4.2-test",
		"card-database": "connected",
		"card-uptime":   "3h25m10s",
	} {
		if got := text(testid(t, doc, id)); !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want it to contain %q", id, got, want)
		}
	}
}

func TestHealthCards(t *testing.T) {
	tests := []struct {
		name                string
		h                   api.Health
		wantStatusClass     string
		wantDatabaseClass   string
		wantStatus, wantDB  string
		wantCheckedAtLength int
	}{
		{"healthy", healthy, "badge-success", "badge-success", "healthy", "connected", 1},
		{
			"unhealthy",
			api.Health{Status: api.StatusUnhealthy, Version: "v0.0.1", Database: api.DatabaseUnreachable, Uptime: "1s"},
			"badge-danger", "badge-danger", "unhealthy", "disconnected", 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := render(t, views.HealthCards(tt.h))
			if doc.Find("html head title").Length() != 0 || doc.Find("[data-testid=console-nav]").Length() != 0 {
				t.Error("the partial renders page chrome")
			}
			grid := doc.Find("#health-cards")
			if grid.Length() != 1 {
				t.Fatalf("got %d #health-cards, want 1", grid.Length())
			}
			for attr, want := range map[string]string{
				"hx-get":     "/admin/health-cards",
				"hx-trigger": "every 30s",
				"hx-swap":    "outerHTML",
			} {
				if got, _ := grid.Attr(attr); got != want {
					t.Errorf("%s: got %q, want %q", attr, got, want)
				}
			}
			for _, c := range []struct{ id, class, text string }{
				{"status-badge", tt.wantStatusClass, tt.wantStatus},
				{"database-badge", tt.wantDatabaseClass, tt.wantDB},
			} {
				badge := testid(t, doc, c.id)
				if !badge.HasClass(c.class) {
					t.Errorf("%s: class %q lacks %q", c.id, badge.AttrOr("class", ""), c.class)
				}
				if got := text(badge); got != c.text {
					t.Errorf("%s: got %q, want %q", c.id, got, c.text)
				}
			}
			if got := text(testid(t, doc, "card-version")); !strings.Contains(got, tt.h.Version) {
				t.Errorf("card-version: got %q, want %q", got, tt.h.Version)
			}
			if got := text(testid(t, doc, "card-uptime")); !strings.Contains(got, tt.h.Uptime) {
				t.Errorf("card-uptime: got %q, want %q", got, tt.h.Uptime)
			}
			checked := doc.Find(`[data-testid="checked-at"]`)
			if checked.Length() != tt.wantCheckedAtLength {
				t.Fatalf("checked-at: got %d elements, want %d", checked.Length(), tt.wantCheckedAtLength)
			}
			if tt.wantCheckedAtLength == 1 {
				if got, _ := checked.Attr("datetime"); got != tt.h.Timestamp {
					t.Errorf("checked-at datetime: got %q, want %q", got, tt.h.Timestamp)
				}
			}
		})
	}
}

func TestHealthCardsEscapes(t *testing.T) {
	var buf bytes.Buffer
	h := api.Health{Status: "healthy", Version: `<script>alert(1)</script>`, Database: "connected", Uptime: "1s"}
	if err := views.HealthCards(h).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>") {
		t.Errorf("version rendered unescaped: %s", buf.String())
	}
}

func TestErrorPage(t *testing.T) {
	doc := render(t, views.ErrorPage(views.ErrorInfo{Status: 404, Title: "Page not found", Message: "There is nothing at /admin/nope.",
		Back: "/admin", BackLabel: "Back to the dashboard"}))
	testid(t, doc, "error-page")
	if got := doc.Find("title").Text(); got != "404 Page not found · Plaza" {
		t.Errorf("title: got %q", got)
	}
	for id, want := range map[string]string{
		"error-status":  "404",
		"error-title":   "Page not found",
		"error-message": "There is nothing at /admin/nope.",
	} {
		if got := text(testid(t, doc, id)); got != want {
			t.Errorf("%s: got %q, want %q", id, got, want)
		}
	}
	if doc.Find(`link[rel="stylesheet"][href="/static/css/app.css"]`).Length() != 1 {
		t.Error("no app.css stylesheet link")
	}
	if doc.Find("script").Length() != 0 {
		t.Error("error page loads scripts")
	}
	if doc.Find("[data-testid=console-nav]").Length() != 0 {
		t.Error("error page renders the console navigation")
	}
}

// TestStylesheetCoversClasses fails when a template uses a class that the
// committed static/css/app.css lacks: run `npm run build:css` after editing
// templates.
func TestStylesheetCoversClasses(t *testing.T) {
	css, err := os.ReadFile("../static/css/app.css")
	if err != nil {
		t.Fatalf("read built stylesheet: %v", err)
	}
	// Classes that are hooks for scripts or markers, not styles of their own.
	noCSS := map[string]bool{}

	docs := []*goquery.Document{
		render(t, views.DashboardPage(views.Dashboard{Health: healthy, Period: "week"})),
		render(t, views.HealthCards(api.Health{Status: "unhealthy", Database: "disconnected"})),
		render(t, views.ErrorPage(views.ErrorInfo{Status: 422, Title: "Invalid", Message: "Some filters could not be used:",
			Issues: []api.ViewIssue{{Field: "adminId", Message: "No user named 'x'"}}, Back: "/admin/audit", BackLabel: "Back"})),
	}
	seen := map[string]bool{}
	for _, doc := range docs {
		doc.Find("[class]").Each(func(_ int, s *goquery.Selection) {
			for _, class := range strings.Fields(s.AttrOr("class", "")) {
				if seen[class] || noCSS[class] {
					continue
				}
				seen[class] = true
				if !bytes.Contains(css, []byte("."+cssEscape(class))) {
					t.Errorf("class %q is not in static/css/app.css; run npm run build:css", class)
				}
			}
		})
	}
	if len(seen) < 20 {
		t.Errorf("only %d classes found; is the test looking at the right markup?", len(seen))
	}
}

// cssEscape escapes a class name the way Tailwind writes it in a selector.
func cssEscape(class string) string {
	var b strings.Builder
	for _, r := range class {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('\\')
		b.WriteRune(r)
	}
	return b.String()
}

// TestHealthCardsShowTheReplica: with a read replica configured, the grid
// has a card for it with its state and lag; without one, no such card.
func TestHealthCardsShowTheReplica(t *testing.T) {
	lag := 1.25
	for _, tt := range []struct {
		replica          *api.ReplicaHealth
		wantBadge, words string
	}{
		{nil, "", ""},
		{&api.ReplicaHealth{Database: api.DatabaseConnected, LagSeconds: &lag}, "badge-success", "1.2 s behind"},
		{&api.ReplicaHealth{Database: api.DatabaseConnected}, "badge-success", "Lag unknown"},
		{&api.ReplicaHealth{Database: api.DatabaseUnreachable}, "badge-danger", "Not answering"},
	} {
		h := healthy
		h.Replica = tt.replica
		doc := render(t, views.HealthCards(h))
		card := doc.Find("[data-testid=card-replica]")
		if tt.replica == nil {
			if card.Length() != 0 {
				t.Error("a replica card without a replica")
			}
			continue
		}
		if !card.Find("[data-testid=replica-badge]").HasClass(tt.wantBadge) || card.Find("[data-testid=replica-badge]").Text() != tt.replica.Database {
			t.Errorf("%+v: badge %q", tt.replica, card.Find("[data-testid=replica-badge]").Text())
		}
		if got := card.Find("[data-testid=replica-lag]").Text(); !strings.Contains(got, tt.words) {
			t.Errorf("%+v: lag %q, want %q", tt.replica, got, tt.words)
		}
	}
}
