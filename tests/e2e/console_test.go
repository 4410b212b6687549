package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/seed"
	"github.com/plazahq/plaza/web"
)

// plaza is the real app served over loopback for the console's tests, on
// a fresh SQLite database holding the demo community, with a super admin,
// an admin and a moderator to sign in as.
type plaza struct {
	*apptest.App
	base                  string
	super, admin, modUser *models.User
}

func startPlaza(t *testing.T, mutate ...func(*web.Deps)) *plaza {
	t.Helper()
	return startPlazaWith(t, app.Options{}, mutate...)
}

// startPlazaWith is startPlaza with options for app.Open: a test's
// webhook receiver on 127.0.0.1 is reached through opts.WebhookNet, so
// only that test's app may reach it.
func startPlazaWith(t *testing.T, opts app.Options, mutate ...func(*web.Deps)) *plaza {
	t.Helper()
	return startPlazaConfig(t, apptest.Config(t), opts, mutate...)
}

// startPlazaConfig is startPlazaWith with settings of the test's own
// (SMTP_URL naming a test's mail server).
func startPlazaConfig(t *testing.T, cfg config.Config, opts app.Options, mutate ...func(*web.Deps)) *plaza {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	cfg.PublicAppURL = base // links in mail, which the composer builds from the config, lead here
	app := apptest.NewWithConfig(t, dbtest.Open(t, config.DialectSQLite), cfg, opts, append([]func(*web.Deps){func(d *web.Deps) { d.Config.PublicAppURL = base }}, mutate...)...)
	if _, err := seed.Demo(context.Background(), app.Store); err != nil {
		t.Fatal(err)
	}
	if err := app.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: app, ReadHeaderTimeout: 10 * time.Second}}
	srv.Start()
	t.Cleanup(srv.Close)
	return &plaza{App: app, base: base,
		super:   app.User(t, "root@plaza.test", access.RoleAdmin, access.RoleSuperAdmin),
		admin:   app.User(t, "ana@plaza.test", access.RoleAdmin),
		modUser: app.User(t, "mo@plaza.test", access.RoleModerator),
	}
}

// as opens a tab signed in as u (a session seeded server-side, never a
// real sign-in) at path, recording console problems from the start. Each
// tab has a browser context of its own, so its cookies are its own.
func (pz *plaza) as(t *testing.T, u *models.User, path string) (*rod.Page, *console) {
	t.Helper()
	people, err := sharedBrowser(t).Incognito()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = people.Close() })
	p, c := blankPageIn(t, people)
	cookie := strings.SplitN(pz.SessionFor(t, u.ID).Get("Cookie"), "=", 2)
	host, _ := url.Parse(pz.base)
	err = p.SetCookies([]*proto.NetworkCookieParam{{Name: cookie[0], Value: cookie[1], Domain: host.Hostname(), Path: "/", HTTPOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, problem := range c.list() {
				t.Logf("console of %s's tab: %s", u.Email, problem)
			}
		}
	})
	step(t, p, "load "+path, func(p *rod.Page) { p.MustNavigate(pz.base + path).MustWaitLoad() })
	return p, c
}

// api calls the JSON API as u, to check what the console did.
func (pz *plaza) api(t *testing.T, u *models.User, method, path string, out any) {
	t.Helper()
	res := apptest.Do(t, pz.App, method, path, pz.SessionFor(t, u.ID))
	if res.Code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, res.Code, res.Body)
	}
	if err := json.Unmarshal(res.Body.Bytes(), out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

// clean fails the test on any console problem the page reported, except
// those matching allowed (a failure the test provoked on purpose) and a
// request the browser cut short by leaving the page: htmx reports it as
// two errors (afterRequest, then sendAbort) for a request no server
// failed, such as the inbox badge's, asked for after every page load, when
// the test navigates before its answer.
func clean(t *testing.T, c *console, allowed ...string) {
	t.Helper()
	problems := c.list()
	aborted := func(i int) bool {
		p := problems[i]
		if strings.Contains(p, "htmx:sendAbort") {
			return true
		}
		return i+1 < len(problems) && strings.Contains(p, "htmx:afterRequest") &&
			problems[i+1] == strings.Replace(p, "htmx:afterRequest", "htmx:sendAbort", 1)
	}
next:
	for i, p := range problems {
		if aborted(i) {
			continue
		}
		for _, a := range allowed {
			if strings.Contains(p, a) {
				continue next
			}
		}
		t.Errorf("console problem: %s", p)
	}
}

// axeSource is axe-core, vendored from npm (package.json, vendor:axe).
var axeSource = func() string {
	b, err := os.ReadFile("testdata/axe/axe.min.js")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// axeViolation is one rule axe found broken, with where.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []struct{ Target []string }
}

// accessible runs axe-core in the page for WCAG 2.1 A and AA and fails the
// test on any serious or critical violation. The script goes in through
// the DevTools protocol, which the page's CSP does not govern.
func accessible(t *testing.T, p *rod.Page, what string) {
	t.Helper()
	// axe checks every node's contrast: on the API reference, with some
	// 120 operations, that takes seconds, and more on a busy machine.
	stepWithin(t, p, "axe on "+what, time.Minute, func(p *rod.Page) {
		if _, err := (proto.RuntimeEvaluate{Expression: axeSource}).Call(p); err != nil {
			panic(err)
		}
		res := p.MustEval(`() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
			.then(r => JSON.stringify(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')))`).Str()
		var vs []axeViolation
		if err := json.Unmarshal([]byte(res), &vs); err != nil {
			panic(err)
		}
		for _, v := range vs {
			var where []string
			for _, n := range v.Nodes {
				where = append(where, strings.Join(n.Target, " "))
			}
			t.Errorf("axe on %s: %s (%s): %s at %s", what, v.ID, v.Impact, v.Help, strings.Join(where, ", "))
		}
	})
}

// waitText waits until the element sel holds text.
func waitText(t *testing.T, p *rod.Page, sel, text string) *rod.Element {
	t.Helper()
	var el *rod.Element
	step(t, p, "wait for "+sel+" to say "+text, func(p *rod.Page) {
		el = p.MustElementR(sel, "/"+strings.ReplaceAll(regexpQuote(text), "/", `\/`)+"/i")
	})
	return el
}

func regexpQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `.`, `\.`, `+`, `\+`, `*`, `\*`, `?`, `\?`, `(`, `\(`, `)`, `\)`, `[`, `\[`, `]`, `\]`, `{`, `\{`, `}`, `\}`, `^`, `\^`, `$`, `\$`, `|`, `\|`)
	return r.Replace(s)
}

// toast waits for a toast saying text.
func toast(t *testing.T, p *rod.Page, text string) {
	t.Helper()
	waitText(t, p, `[data-testid="toast"]`, text)
}
