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
// a moderator, and a user's page, at a phone's width (390 px) and a laptop's (1280 px):
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
	for _, who := range []struct {
		name  string
		user  *models.User
		extra []string
	}{
		{"admin", pz.super, []string{fmt.Sprintf("/admin/users/%d", pz.modUser.ID), fmt.Sprintf("/admin/posts/%d", reportedPost(t, pz))}},
		{"moderator", pz.modUser, nil},
	} {
		p, c := pz.as(t, who.user, "/admin")
		for _, link := range consoleLinks(t, p, who.name) {
			checkPage(t, p, pz.base+link, filepath.Join(dir, screenshotName(who.name, link)))
		}
		for _, link := range who.extra {
			checkPage(t, p, pz.base+link, "")
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
	step(t, p, "open "+url, func(p *rod.Page) {
		p.MustNavigate(url).MustWaitLoad().MustWaitIdle()
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
