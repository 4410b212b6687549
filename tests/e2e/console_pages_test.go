package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/models"
)

// TestConsolePages walks every link of the sidebar and the account menu as a super admin and as
// a moderator: each answers without a console problem, axe passes it in
// the light and the dark scheme, and a screenshot is kept (in
// PLAZA_SCREENSHOTS when set, as `make screenshots` does for docs/console).
// The sign-in page and the og-image viewer are checked the same way.
func TestConsolePages(t *testing.T) {
	pz := startPlaza(t)
	dir := os.Getenv("PLAZA_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct {
		name string
		user *models.User
	}{{"admin", pz.super}, {"moderator", pz.modUser}} {
		p, c := pz.as(t, who.user, "/admin")
		var links []string
		step(t, p, "read the sidebar", func(p *rod.Page) {
			for _, a := range p.MustElements(`[data-testid="console-nav"] a`) {
				links = append(links, *a.MustAttribute("href"))
			}
			// The account menu's pages too ("Your sessions").
			for _, a := range p.MustElements(`[data-testid="viewer-menu"] a`) {
				if href := *a.MustAttribute("href"); !slices.Contains(links, href) {
					links = append(links, href)
				}
			}
		})
		if len(links) < 3 {
			t.Fatalf("%s's sidebar: %v", who.name, links)
		}
		for _, link := range links {
			checkPage(t, p, pz.base+link, filepath.Join(dir, who.name+strings.ReplaceAll(strings.TrimPrefix(link, "/admin"), "/", "-")+".png"))
		}
		clean(t, c)
	}
	p, c := openPage(t, pz.base+"/api/auth/signin")
	checkPage(t, p, pz.base+"/api/auth/signin", filepath.Join(dir, "sign-in.png"))
	checkPage(t, p, pz.base+"/og-image-viewer", filepath.Join(dir, "og-image-viewer.png"))
	clean(t, c)
}

// checkPage opens url, runs axe in both colour schemes and saves a
// screenshot of the light one to file.
func checkPage(t *testing.T, p *rod.Page, url, file string) {
	t.Helper()
	step(t, p, "open "+url, func(p *rod.Page) {
		p.MustNavigate(url).MustWaitLoad().MustWaitIdle()
	})
	for _, scheme := range []string{"dark", "light"} {
		// Reduced motion: no colour transition is under way when axe looks.
		err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
			{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p)
		if err != nil {
			t.Fatal(err)
		}
		accessible(t, p, url+" ("+scheme+")")
	}
	img, err := p.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err == nil {
		err = os.WriteFile(file, img, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot of %s: %v", url, err)
	}
}
