// Package e2e drives Plaza's pages in a real browser: the system Chromium
// through go-rod, against the real app on 127.0.0.1 (docs/architecture.md, "Tests").
//
// Rod never downloads a browser here: the launcher is always given
// /usr/bin/chromium, or the path PLAZA_TEST_CHROMIUM names. Without it the
// tests skip loudly, unless REQUIRE_BROWSER=1 (set by CI), which makes that
// a failure.
package e2e

import (
	"cmp"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// chromiumPath is the only browser these tests run: Debian's Chromium, or
// the one PLAZA_TEST_CHROMIUM names (CI names a missing one for its run
// where only Go is).
var chromiumPath = cmp.Or(os.Getenv("PLAZA_TEST_CHROMIUM"), "/usr/bin/chromium")

// stepTimeout bounds each browser step: a wait that takes longer is a bug.
const stepTimeout = 15 * time.Second

// One browser serves every test of the binary; TestMain closes it.
var (
	browserOnce sync.Once
	browser     *rod.Browser
	browserErr  error
	stopBrowser = func() {}
)

func TestMain(m *testing.M) {
	code := m.Run()
	stopBrowser()
	os.Exit(code)
}

// sharedBrowser returns the test binary's browser, launching it on first
// use, or skips (fails with REQUIRE_BROWSER=1) when there is no Chromium.
func sharedBrowser(t *testing.T) *rod.Browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		msg := fmt.Sprintf("BROWSER TESTS NOT RUN: %s is missing (%v); install Chromium (apt-get install chromium)", chromiumPath, err)
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatal(msg + "; REQUIRE_BROWSER=1 makes this a failure")
		}
		t.Skip(msg)
	}
	browserOnce.Do(func() { browser, browserErr = launch() })
	if browserErr != nil {
		t.Fatalf("launch %s: %v", chromiumPath, browserErr)
	}
	return browser
}

// launch starts headless Chromium on a fresh profile with everything that
// could reach the network on its own turned off.
func launch() (*rod.Browser, error) {
	profile, err := os.MkdirTemp("", "plaza-e2e-chromium-")
	if err != nil {
		return nil, err
	}
	l := launcher.New().Bin(chromiumPath).UserDataDir(profile).Headless(true).NoSandbox(true).
		Set("disable-gpu").Set("disable-quic").Set("no-first-run").Set("disable-background-networking").
		Set("disable-component-update").Set("disable-sync").Set("disable-default-apps").
		Set("disable-extensions").Set("no-default-browser-check").Set("metrics-recording-only").
		Set("safebrowsing-disable-auto-update").Set("disable-domain-reliability")
	u, err := l.Launch()
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		os.RemoveAll(profile)
		return nil, err
	}
	stopBrowser = func() {
		_ = b.Close()
		l.Kill()
		l.Cleanup() // waits for the process, then removes the profile
		os.RemoveAll(profile)
	}
	return b, nil
}

// startApp serves the real app over loopback on a fresh SQLite database,
// with PUBLIC_APP_URL set to its own address and every quote source off.
func startApp(t *testing.T) *httptest.Server {
	t.Helper()
	srv, _ := startAppOf(t)
	return srv
}

// startAppOf is startApp, with the app itself for a test that adds to it.
func startAppOf(t *testing.T) (*httptest.Server, *apptest.App) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	app := apptest.New(t, dbtest.Open(t, config.DialectSQLite), func(d *web.Deps) { d.Config.PublicAppURL = base })
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: app, ReadHeaderTimeout: 10 * time.Second}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, app
}

// console collects what a page reports as broken: console errors and
// warnings, uncaught exceptions, and the browser's own error log entries
// (failed loads, CSP violations).
type console struct {
	mu       sync.Mutex
	problems []string
}

func (c *console) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, s)
}

func (c *console) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.problems...)
}

// openPage opens a blank tab that records console problems from its first
// request on, then navigates it to url and waits for the load event.
func openPage(t *testing.T, url string) (*rod.Page, *console) {
	t.Helper()
	p, c := blankPage(t)
	step(t, p, "load "+url, func(p *rod.Page) {
		p.MustNavigate(url).MustWaitLoad()
	})
	return p, c
}

// blankPage opens a blank tab that records console problems.
func blankPage(t *testing.T) (*rod.Page, *console) {
	t.Helper()
	return blankPageIn(t, sharedBrowser(t))
}

// blankPageIn is blankPage in browser b (an incognito context keeps its
// own cookies, so two tabs can be two people).
func blankPageIn(t *testing.T, b *rod.Browser) (*rod.Page, *console) {
	t.Helper()
	p, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	c := &console{}
	if err := (proto.LogEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	go p.EachEvent(func(e *proto.RuntimeConsoleAPICalled) {
		if e.Type == proto.RuntimeConsoleAPICalledTypeError || e.Type == proto.RuntimeConsoleAPICalledTypeWarning || e.Type == proto.RuntimeConsoleAPICalledTypeAssert {
			c.add(fmt.Sprintf("console.%s: %s", e.Type, p.MustObjectsToJSON(e.Args)))
		}
	}, func(e *proto.RuntimeExceptionThrown) {
		c.add("exception: " + e.ExceptionDetails.Text + " " + describe(e.ExceptionDetails.Exception))
	}, func(e *proto.LogEntryAdded) {
		if e.Entry.Level == proto.LogLogEntryLevelError || e.Entry.Level == proto.LogLogEntryLevelWarning {
			c.add(fmt.Sprintf("log %s (%s): %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	})()
	return p, c
}

func describe(o *proto.RuntimeRemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

// step runs one bounded browser step: a rod call that fails or outlasts
// stepTimeout fails the test, with a screenshot kept for the post-mortem.
func step(t *testing.T, p *rod.Page, what string, fn func(p *rod.Page)) {
	t.Helper()
	stepWithin(t, p, what, stepTimeout, fn)
}

// stepWithin is step with a bound of its own, for the few steps that are
// slow by nature (axe over a large page, a large page's first render).
func stepWithin(t *testing.T, p *rod.Page, what string, bound time.Duration, fn func(p *rod.Page)) {
	t.Helper()
	// A tab in the background has its rendering paused: bring this one
	// forward, as a test with two tabs moves between them.
	err := rod.Try(func() {
		p := p.Timeout(bound)
		p.MustActivate()
		fn(p)
	})
	if err != nil {
		screenshot(t, p)
		t.Fatalf("%s: %v", what, err)
	}
}

// screenshot saves the page to tests/e2e/screenshots (git-ignored).
func screenshot(t *testing.T, p *rod.Page) {
	dir := "screenshots"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	name := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+".png")
	img, err := p.Timeout(5*time.Second).Screenshot(true, nil)
	if err == nil {
		err = os.WriteFile(name, img, 0o644)
	}
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	t.Logf("screenshot saved to tests/e2e/%s", name)
}

// clickToLoad clicks what leads to another page and waits until that page
// has loaded: the wait starts before the click, so no lookup that follows
// can run against the page being left.
func clickToLoad(p *rod.Page, selector string) {
	wait := p.MustWaitNavigation()
	p.MustElement(selector).MustClick()
	wait()
}

// waitAcrossLoad waits until js holds on whatever document the tab shows.
// Going back to a page htmx kept no snapshot of reloads it, and a check
// that lands while the old document is torn down fails with "navigated or
// closed"; that failure means "not yet", so the check runs again on the
// new document. p's own timeout bounds the whole wait.
func waitAcrossLoad(p *rod.Page, js string) {
	for {
		err := rod.Try(func() { p.MustWait(js) })
		if err == nil {
			return
		}
		if ctxErr := p.GetContext().Err(); ctxErr != nil {
			panic(fmt.Errorf("%s: %w (last: %v)", js, ctxErr, err))
		}
		_ = p.WaitLoad()
	}
}
