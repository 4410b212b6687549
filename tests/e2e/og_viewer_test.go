package e2e

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

const viewerQuery = "/og-image-viewer?seed=e2e-seed&quote=Tests+that+can+fail+are+worth+having.&author=Plaza+QA"

// openViewer opens the viewer on a fresh app and waits for its image.
func openViewer(t *testing.T) (*rod.Page, *console, string) {
	t.Helper()
	srv := startApp(t)
	p, c := openPage(t, srv.URL+viewerQuery)
	waitImage(t, p)
	return p, c, srv.URL
}

// waitImage waits until the preview has loaded a 1200×630 image and the
// frame is no longer busy.
func waitImage(t *testing.T, p *rod.Page) {
	t.Helper()
	step(t, p, "preview loads", func(p *rod.Page) {
		p.MustWait(`() => {
			const img = document.getElementById('og-preview');
			return img.complete && img.naturalWidth === 1200 && img.naturalHeight === 630 &&
				document.getElementById('og-frame').getAttribute('aria-busy') === 'false';
		}`)
	})
}

func noProblems(t *testing.T, c *console) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // events of the last step are delivered asynchronously
	for _, p := range c.list() {
		t.Errorf("browser reported: %s", p)
	}
}

func TestOGViewerLoadsCleanly(t *testing.T) {
	p, c, _ := openViewer(t)
	var src, quote string
	step(t, p, "read the page", func(p *rod.Page) {
		src = p.MustElement("#og-preview").MustProperty("src").String()
		quote = p.MustElement("#og-quote").MustProperty("value").String()
	})
	if !strings.Contains(src, "/api/og-image?seed=e2e-seed&quote=Tests+that+can+fail+are+worth+having.&author=Plaza+QA&type=svg&direct=true") {
		t.Errorf("preview src %q", src)
	}
	if quote != "Tests that can fail are worth having." {
		t.Errorf("quote field %q, want the query's", quote)
	}
	noProblems(t, c)
}

// TestOGImageRedirectsToViewer follows /api/og-image from the browser: a
// page load there is a person, who lands on the viewer with the same image.
func TestOGImageRedirectsToViewer(t *testing.T) {
	srv := startApp(t)
	p, c := openPage(t, srv.URL+"/api/og-image?seed=from-api&quote=Redirected+here")
	waitImage(t, p)
	var loc, seed string
	step(t, p, "read the page", func(p *rod.Page) {
		loc = p.MustInfo().URL
		seed = p.MustElement("#og-seed").MustProperty("value").String()
	})
	if !strings.HasPrefix(loc, srv.URL+"/og-image-viewer?seed=from-api&quote=Redirected+here") || seed != "from-api" {
		t.Errorf("landed on %q with seed %q", loc, seed)
	}
	noProblems(t, c)
}

// download clicks what click clicks and returns the downloaded file's
// suggested name and content.
func download(t *testing.T, p *rod.Page, what string, click func(p *rod.Page)) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	wait := sharedBrowser(t).WaitDownload(dir)
	var info *proto.PageDownloadWillBegin
	step(t, p, what, func(p *rod.Page) {
		click(p)
		done := make(chan struct{})
		go func() { info = wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stepTimeout):
			panic("no download within " + stepTimeout.String())
		}
	})
	body, err := os.ReadFile(filepath.Join(dir, info.GUID))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return info.SuggestedFilename, body
}

// checkPNG decodes a 1200×630 PNG with a real picture in it: a canvas the
// SVG failed to draw on would be one flat colour.
func checkPNG(t *testing.T, name string, body []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
		t.Errorf("%s is %dx%d, want 1200x630", name, b.Dx(), b.Dy())
	}
	if n := colours(img); n < 500 {
		t.Errorf("%s has %d colours: the image was not drawn", name, n)
	}
}

func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

func checkSVG(t *testing.T, name string, body []byte) {
	t.Helper()
	var doc struct {
		XMLName xml.Name `xml:"svg"`
		Width   string   `xml:"width,attr"`
		Height  string   `xml:"height,attr"`
		Title   string   `xml:"title"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("%s is not XML: %v", name, err)
	}
	if doc.Width != "1200" || doc.Height != "630" || doc.Title != "Tests that can fail are worth having." {
		t.Errorf("%s: %+v", name, doc)
	}
}

func TestOGViewerSaveButtons(t *testing.T) {
	p, c, _ := openViewer(t)
	name, body := download(t, p, "Save PNG", func(p *rod.Page) { p.MustElement("#og-save-png").MustClick() })
	if name != "plaza-quote-e2e-seed.png" {
		t.Errorf("PNG saved as %q", name)
	}
	checkPNG(t, name, body)

	name, body = download(t, p, "Save SVG", func(p *rod.Page) { p.MustElement("#og-save-svg").MustClick() })
	if name != "plaza-quote-e2e-seed.svg" {
		t.Errorf("SVG saved as %q", name)
	}
	checkSVG(t, name, body)
	step(t, p, "confirmation", func(p *rod.Page) {
		p.MustElementR("#og-status", "Saved plaza-quote-e2e-seed.svg")
	})
	noProblems(t, c)
}

func grantClipboard(t *testing.T, p *rod.Page, origin string) {
	t.Helper()
	err := proto.BrowserGrantPermissions{Origin: origin, Permissions: []proto.BrowserPermissionType{
		proto.BrowserPermissionTypeClipboardReadWrite, proto.BrowserPermissionTypeClipboardSanitizedWrite,
	}}.Call(sharedBrowser(t))
	if err != nil {
		t.Fatal(err)
	}
	// A headless tab is never focused; the clipboard wants a focused document.
	if err := (proto.EmulationSetFocusEmulationEnabled{Enabled: true}).Call(p); err != nil {
		t.Fatal(err)
	}
}

func clipboard(t *testing.T, p *rod.Page) string {
	t.Helper()
	var text string
	step(t, p, "read the clipboard", func(p *rod.Page) {
		text = p.MustEval(`() => navigator.clipboard.readText()`).String()
	})
	return text
}

func TestOGViewerCopyLink(t *testing.T) {
	p, c, base := openViewer(t)
	grantClipboard(t, p, base)
	step(t, p, "Copy link", func(p *rod.Page) {
		p.MustElement("#og-copy").MustClick()
		p.MustElementR("#og-status", "Link copied to the clipboard")
	})
	want := base + "/api/og-image?seed=e2e-seed&quote=Tests+that+can+fail+are+worth+having.&author=Plaza+QA"
	if got := clipboard(t, p); got != want {
		t.Errorf("clipboard %q, want %q", got, want)
	}
	noProblems(t, c)
}

// menuOpen reports whether the context menu shows and has the focus.
func menuState(t *testing.T, p *rod.Page) (shown, focused bool) {
	t.Helper()
	step(t, p, "read the menu", func(p *rod.Page) {
		res := p.MustEval(`() => {
			const m = document.getElementById('og-menu');
			return [!m.hidden, m.contains(document.activeElement),
				document.getElementById('og-menu-button').getAttribute('aria-expanded') === String(!m.hidden)];
		}`).Arr()
		shown, focused = res[0].Bool(), res[1].Bool()
		if !res[2].Bool() {
			panic("aria-expanded of the menu button disagrees with the menu")
		}
	})
	return shown, focused
}

func rightClickImage(t *testing.T, p *rod.Page) {
	t.Helper()
	step(t, p, "right click the image", func(p *rod.Page) {
		if err := p.MustElement("#og-preview").Click(proto.InputMouseButtonRight, 1); err != nil {
			panic(err)
		}
		p.MustElement("#og-menu").MustWaitVisible()
	})
	if shown, focused := menuState(t, p); !shown || !focused {
		t.Fatalf("after a right click the menu shows (%v) with the focus on its first item (%v)", shown, focused)
	}
}

func TestOGViewerContextMenu(t *testing.T) {
	p, c, base := openViewer(t)
	grantClipboard(t, p, base)

	t.Run("escape closes it and gives the focus back", func(t *testing.T) {
		step(t, p, "focus the image", func(p *rod.Page) { p.MustElement("#og-frame").MustFocus() })
		rightClickImage(t, p)
		step(t, p, "arrow keys move the focus", func(p *rod.Page) {
			p.Keyboard.MustType(input.ArrowDown)
			if p.MustEval(`() => document.activeElement.dataset.action`).String() != "save-svg" {
				panic("ArrowDown did not move to the second item")
			}
			p.Keyboard.MustType(input.Escape)
			p.MustElement("#og-menu").MustWaitInvisible()
		})
		if shown, _ := menuState(t, p); shown {
			t.Error("Escape left the menu open")
		}
		var active string
		step(t, p, "focus", func(p *rod.Page) { active = p.MustEval(`() => document.activeElement.id`).String() })
		if active != "og-frame" {
			t.Errorf("focus went to %q, want back to og-frame", active)
		}
	})

	t.Run("a click outside closes it", func(t *testing.T) {
		rightClickImage(t, p)
		step(t, p, "click the heading", func(p *rod.Page) {
			p.MustElement("h1").MustClick()
			p.MustElement("#og-menu").MustWaitInvisible()
		})
	})

	t.Run("copy image link", func(t *testing.T) {
		rightClickImage(t, p)
		step(t, p, "Copy image link", func(p *rod.Page) {
			p.MustElement(`[data-action="copy-image-link"]`).MustClick()
			p.MustElement("#og-menu").MustWaitInvisible()
			p.MustElementR("#og-status", "Image link copied to the clipboard")
		})
		want := base + "/api/og-image?seed=e2e-seed&quote=Tests+that+can+fail+are+worth+having.&author=Plaza+QA&direct=true"
		if got := clipboard(t, p); got != want {
			t.Errorf("clipboard %q, want %q", got, want)
		}
	})

	t.Run("save as SVG", func(t *testing.T) {
		rightClickImage(t, p)
		name, body := download(t, p, "Save as SVG", func(p *rod.Page) {
			p.MustElement(`[data-action="save-svg"]`).MustClick()
		})
		checkSVG(t, name, body)
	})

	t.Run("save as PNG from the keyboard", func(t *testing.T) {
		rightClickImage(t, p)
		name, body := download(t, p, "Save as PNG", func(p *rod.Page) {
			p.Keyboard.MustType(input.Enter) // the first item has the focus
		})
		checkPNG(t, name, body)
	})

	t.Run("open image in new tab", func(t *testing.T) {
		rightClickImage(t, p)
		want := base + "/api/og-image?seed=e2e-seed&quote=Tests+that+can+fail+are+worth+having.&author=Plaza+QA&direct=true"
		var tab *rod.Page
		step(t, p, "Open image in new tab", func(p *rod.Page) {
			p.MustElement(`[data-action="open"]`).MustClick()
			tab = waitForTab(p, want)
		})
		defer tab.Close()
		var kind string
		step(t, tab, "new tab shows the image", func(p *rod.Page) {
			p.MustWaitLoad()
			kind = p.MustEval(`() => document.contentType`).String()
		})
		if kind != "image/png" {
			t.Errorf("the new tab holds %q, want image/png", kind)
		}
	})

	noProblems(t, c)
}

// waitForTab polls the browser's tabs until one shows url.
func waitForTab(p *rod.Page, url string) *rod.Page {
	for {
		pages, err := p.Browser().Pages()
		if err != nil {
			panic(err)
		}
		for _, tab := range pages {
			if info, err := tab.Info(); err == nil && info.URL == url {
				return tab
			}
		}
		select {
		case <-p.GetContext().Done():
			panic("no tab opened on " + url)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func TestOGViewerFormRegenerates(t *testing.T) {
	p, c, _ := openViewer(t)
	var before, after, pageURL string
	step(t, p, "a quote of spaces is refused", func(p *rod.Page) {
		before = p.MustElement("#og-preview").MustProperty("src").String()
		p.MustElement("#og-quote").MustSelectAllText().MustInput("   ")
		p.MustElement(`[data-testid="og-submit"]`).MustClick()
		p.MustWait(`() => document.getElementById('og-quote').matches(':invalid')`)
		if src := p.MustElement("#og-preview").MustProperty("src").String(); src != before {
			panic("the preview changed to " + src)
		}
	})
	step(t, p, "edit the quote and submit", func(p *rod.Page) {
		p.MustElement("#og-quote").MustSelectAllText().MustInput("A second quote, typed in the browser.")
		p.MustElement(`[data-testid="og-submit"]`).MustClick()
		p.MustWait(`(before) => document.getElementById('og-preview').src !== before`, before)
	})
	waitImage(t, p)
	step(t, p, "read the page", func(p *rod.Page) {
		after = p.MustElement("#og-preview").MustProperty("src").String()
		pageURL = p.MustInfo().URL
	})
	u, err := url.Parse(after)
	if err != nil || u.Query().Get("quote") != "A second quote, typed in the browser." || u.Query().Get("seed") != "e2e-seed" ||
		u.Query().Get("type") != "svg" || u.Query().Get("direct") != "true" {
		t.Errorf("preview src %q", after)
	}
	if !strings.Contains(pageURL, "quote=A+second+quote") {
		t.Errorf("the address bar %q should name the new image", pageURL)
	}

	step(t, p, "New image", func(p *rod.Page) {
		p.MustElement("#og-new").MustClick()
		p.MustWait(`(before) => document.getElementById('og-preview').src !== before`, after)
	})
	waitImage(t, p)
	var seed string
	step(t, p, "read the seed", func(p *rod.Page) { seed = p.MustElement("#og-seed").MustProperty("value").String() })
	if seed == "e2e-seed" || len(seed) != 10 {
		t.Errorf("New image left the seed %q, want a new random one", seed)
	}
	noProblems(t, c)
}

// TestOGViewerFitsLongText: the API refuses no text, so a link whose
// author is longer than a line still shows its image, and no error.
func TestOGViewerFitsLongText(t *testing.T) {
	srv := startApp(t)
	p, c := openPage(t, srv.URL+"/og-image-viewer?seed=x&quote=q&author="+strings.Repeat("a", 81))
	waitImage(t, p)
	step(t, p, "no error", func(p *rod.Page) {
		p.MustWait(`() => document.getElementById('og-error').hidden`)
	})
	noProblems(t, c)
}

// TestOGViewerShowsErrors spends the address's og-image allowance, then
// opens the viewer: the preview's refusal appears on the page in words.
func TestOGViewerShowsErrors(t *testing.T) {
	srv := startApp(t)
	for i := range 121 {
		res, err := http.Get(srv.URL + "/api/og-image?type=svg&direct=true&seed=s&quote=q")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if i == 120 && res.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("the 121st image: %d, want 429", res.StatusCode)
		}
	}
	p, _ := openPage(t, srv.URL+"/og-image-viewer?seed=x&quote=q")
	step(t, p, "the error shows", func(p *rod.Page) {
		p.MustElementR("#og-error", "Too many requests; try again later")
	})
}
