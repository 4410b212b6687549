package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
)

// TestConsolePages walks every link of the sidebar and the account menu as a super admin and as
// a moderator, two users' pages (one with related accounts, kept as admin-user.png) and a
// post's page, at a phone's width (390 px) and a laptop's (1280 px):
// each answers without a console problem, axe passes it in the light and
// the dark scheme at both widths, nothing is too wide at either nor at
// 1440 px (fits), and a screenshot at 1280 px is kept (in
// PLAZA_SCREENSHOTS when set, as `make screenshots` does for docs/console).
// The webhooks page shows a delivered and a failed message, and the jobs
// page a finished backup. The sign-in page, its error page (where
// next-auth's client sends a refused sign-in) and the og-image viewer are
// checked the same way.
func TestConsolePages(t *testing.T) {
	recv := apptest.NewReceiver(t)
	pz := startPlazaWith(t, app.Options{WebhookNet: recv.Net})
	consoleFixtures(t, pz, recv)
	dir := os.Getenv("PLAZA_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The pages no link of the sidebar leads to: a user's page with no
	// related account, one with some (the demo's banned shop, kept as
	// admin-user.png scrolled to its related accounts), and a post's page.
	type extra struct{ path, file, focus string }
	shop := fmt.Sprintf("/admin/users/%d", demoUserID(t, pz, "cheap_seeds_4u"))
	for _, who := range []struct {
		name   string
		user   *models.User
		extras []extra
	}{
		{"admin", pz.super, []extra{{path: fmt.Sprintf("/admin/users/%d", pz.modUser.ID)},
			{path: shop, file: "admin-user.png", focus: `[data-testid="related-list"]`},
			{path: fmt.Sprintf("/admin/posts/%d", reportedPost(t, pz))}}},
		{"moderator", pz.modUser, nil},
	} {
		p, c := pz.as(t, who.user, "/admin")
		for _, link := range consoleLinks(t, p, who.name) {
			checkPage(t, p, pz.base+link, filepath.Join(dir, screenshotName(who.name, link)))
		}
		for _, x := range who.extras {
			file := ""
			if x.file != "" {
				file = filepath.Join(dir, x.file)
			}
			checkPageAt(t, p, pz.base+x.path, file, x.focus)
		}
		clean(t, c)
	}
	p, c := openPage(t, pz.base+"/api/auth/signin")
	checkPage(t, p, pz.base+"/api/auth/signin", filepath.Join(dir, "sign-in.png"))
	checkPage(t, p, pz.base+"/og-image-viewer", filepath.Join(dir, "og-image-viewer.png"))
	checkPage(t, p, pz.base+"/api/auth/error?error=CredentialsSignin", filepath.Join(dir, "sign-in-error.png"))
	clean(t, c)
}

// checkPage opens url and, at each of the viewports, checks that nothing
// is too wide (fits) and runs axe in both colour schemes (except at
// 1440 px, where only the width is in question); it saves a screenshot of
// the light scheme at 1280 px to file, unless file is "".
func checkPage(t *testing.T, p *rod.Page, url, file string) {
	t.Helper()
	checkPageAt(t, p, url, file, "")
}

// checkPageAt is checkPage for a page with a part fetched after it: the
// checks wait for the element focus selects (unless ""), and the
// screenshot shows the card that holds it, below the fold as it may be.
func checkPageAt(t *testing.T, p *rod.Page, url, file, focus string) {
	t.Helper()
	step(t, p, "open "+url, func(p *rod.Page) {
		p.MustNavigate(url).MustWaitLoad().MustWaitIdle()
		if focus != "" {
			p.MustElement(focus)
		}
	})
	for _, v := range viewports {
		resize(t, p, v)
		fits(t, p, url, v)
		if v == largeLaptop {
			continue
		}
		for _, scheme := range []string{"dark", "light"} {
			// Reduced motion: no colour transition is under way when axe looks.
			err := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
				{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p)
			if err != nil {
				t.Fatal(err)
			}
			accessible(t, p, fmt.Sprintf("%s (%s, %s)", url, scheme, v))
		}
	}
	if file == "" {
		return
	}
	if focus != "" {
		step(t, p, "scroll to "+focus, func(p *rod.Page) {
			p.MustElement(focus).MustEval(`function () { (this.closest('section') || this).scrollIntoView({block: 'center'}) }`)
		})
	}
	img, err := p.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err == nil {
		err = os.WriteFile(file, img, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot of %s: %v", url, err)
	}
}

// reportedPost is the demo's most reported post, for its own page.
func reportedPost(t *testing.T, pz *plaza) int64 {
	t.Helper()
	var id int64
	if err := pz.Store.DB.NewRaw(`SELECT id FROM posts ORDER BY report_count DESC, id LIMIT 1`).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// demoUserID is the id of the demo member named username.
func demoUserID(t *testing.T, pz *plaza, username string) int64 {
	t.Helper()
	var id int64
	if err := pz.Store.DB.NewRaw(`SELECT id FROM users WHERE username = ?`, username).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}
