package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
)

// viewport is a browser window's size in CSS pixels.
type viewport struct{ width, height int }

func (v viewport) String() string { return fmt.Sprintf("%dx%d", v.width, v.height) }

// The console is checked at a phone, a large laptop and a laptop, in that
// order so that a walk ends at 1280x800, the size screenshots are taken at.
var (
	phone       = viewport{390, 844}
	largeLaptop = viewport{1440, 900}
	laptop      = viewport{1280, 800}
	viewports   = []viewport{phone, largeLaptop, laptop}
)

// resize gives the tab a window of v (a desktop window, not a phone's
// emulation: the page is laid out at exactly v.width CSS pixels).
func resize(t *testing.T, p *rod.Page, v viewport) {
	t.Helper()
	err := proto.EmulationSetDeviceMetricsOverride{Width: v.width, Height: v.height, DeviceScaleFactor: 1}.Call(p)
	if err != nil {
		t.Fatalf("resize to %s: %v", v, err)
	}
}

// overflowScript lists what is too wide in the page as laid out now: the
// page itself when it scrolls sideways (naming the elements that stick out
// of the window), and every table wider than the box that holds it, when
// that box clips it (overflow hidden) or, at laptop widths, even when it
// is a scroll container: at 1280 px nothing a person needs may sit out of
// sight. A table may scroll inside its own box on a phone.
const overflowScript = `(laptop) => {
	const name = (el) => {
		let s = el.tagName.toLowerCase();
		if (el.id) s += '#' + el.id;
		if (el.classList.contains('sr-only')) s += '.sr-only';
		const text = el.textContent.trim().replace(/\s+/g, ' ');
		if (text) s += ' "' + text.slice(0, 30) + '"';
		const testid = el.closest('[data-testid]');
		if (testid) s += ' in [data-testid="' + testid.dataset.testid + '"]';
		return s;
	};
	// The nearest ancestor that clips el: an absolutely positioned element
	// (screen-reader text) escapes every box up to its containing block.
	const clipper = (el) => {
		let pos = getComputedStyle(el).position;
		for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
			const s = getComputedStyle(a);
			const contains = s.position !== 'static' || s.transform !== 'none';
			if ((pos === 'absolute' && !contains) || (pos === 'fixed' && s.transform === 'none')) continue;
			pos = s.position;
			if (s.overflowX !== 'visible') return a;
		}
		return null;
	};
	const out = [];
	const root = document.documentElement;
	const vw = root.clientWidth;
	// An element escapes when it reaches past the window and no box of
	// its own clips it there.
	const escapes = (el) => {
		if (el.getBoundingClientRect().right <= vw + 0.5) return false;
		const box = clipper(el);
		return !box || box.getBoundingClientRect().right > vw + 0.5;
	};
	if (root.scrollWidth > vw) {
		const culprits = [];
		for (const el of document.body.querySelectorAll('*')) {
			if (el.getClientRects().length === 0 || !escapes(el) || escapes(el.parentElement)) continue;
			culprits.push(name(el) + ' reaches ' + Math.round(el.getBoundingClientRect().right) + 'px');
		}
		out.push('the page is ' + root.scrollWidth + 'px wide in a ' + vw + 'px window: ' + culprits.slice(0, 6).join('; '));
	}
	for (const table of document.querySelectorAll('table')) {
		if (table.getClientRects().length === 0) continue;
		const box = clipper(table);
		if (!box || box.scrollWidth <= box.clientWidth + 1) continue;
		const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
		if (!scrolls) {
			out.push(name(table) + ' is cut off: ' + box.scrollWidth + 'px in a box of ' + box.clientWidth + 'px');
		} else if (laptop) {
			out.push(name(table) + ' needs ' + box.scrollWidth + 'px and scrolls inside ' + box.clientWidth + 'px');
		}
	}
	return out;
}`

// fits fails the test for whatever is too wide in the page at v
// (overflowScript).
func fits(t *testing.T, p *rod.Page, what string, v viewport) {
	t.Helper()
	var problems []string
	step(t, p, "measure "+what+" at "+v.String(), func(p *rod.Page) {
		for _, s := range p.MustEval(overflowScript, v.width >= laptop.width).Arr() {
			problems = append(problems, s.Str())
		}
	})
	for _, s := range problems {
		t.Errorf("%s at %s: %s", what, v, s)
	}
}

// consoleFixtures gives the console's pages their widest rows: a webhook
// that delivered and one whose message failed (its log has a Retry
// button and an error), and a finished backup job with its file.
func consoleFixtures(t *testing.T, pz *plaza, recv *apptest.Receiver) {
	t.Helper()
	h := pz.SessionFor(t, pz.super.ID)
	recv.Host("inside.test", "10.0.0.5")
	for _, url := range []string{recv.URL, "http://inside.test:" + strconv.Itoa(recv.ReceiverPort()) + "/hooks/with/a/rather/long/path"} {
		body, _ := json.Marshal(map[string]any{"url": url, "events": []string{"user.banned", "post.moderated", "report.created"}, "description": "Trust and safety bot"})
		res := apptest.DoBody(t, pz.App, "POST", api.PathAdminWebhooks, h, string(body))
		var hook struct{ Data api.Webhook }
		if err := json.Unmarshal(res.Body.Bytes(), &hook); err != nil || res.Code != http.StatusCreated {
			t.Fatalf("register %s: %d %s", url, res.Code, res.Body)
		}
		if res := apptest.Do(t, pz.App, "POST", api.PathAdminWebhooks+"/"+hook.Data.ID+"/test", h); res.Code != http.StatusAccepted {
			t.Fatalf("test %s: %d %s", url, res.Code, res.Body)
		}
		apptest.WaitFor(t, "the test message to "+url+" to settle", func() bool {
			var log struct{ Data []api.WebhookDelivery }
			getJSON(t, pz, h, api.PathAdminWebhooks+"/"+hook.Data.ID+"/deliveries", &log)
			return len(log.Data) == 1 && log.Data[0].Status != "pending"
		})
	}
	res := apptest.DoBody(t, pz.App, "POST", api.PathAdminV1Maintenance, h, `{"action":"backup_database"}`)
	var queued struct{ Data struct{ JobID string } }
	if err := json.Unmarshal(res.Body.Bytes(), &queued); err != nil || res.Code != http.StatusAccepted {
		t.Fatalf("queue a backup: %d %s", res.Code, res.Body)
	}
	apptest.WaitFor(t, "the backup to finish", func() bool {
		var job struct{ Data api.V1Job }
		getJSON(t, pz, h, api.PathAdminV1Jobs+"/"+queued.Data.JobID, &job)
		return job.Data.Status == "completed" || job.Data.Status == "failed"
	})
}

// getJSON is pz.api with a session header made once: each SessionFor is
// one more session on the viewer's sessions page.
func getJSON(t *testing.T, pz *plaza, h http.Header, path string, out any) {
	t.Helper()
	res := apptest.Do(t, pz.App, "GET", path, h)
	if err := json.Unmarshal(res.Body.Bytes(), out); err != nil || res.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Code, res.Body)
	}
}

// consoleLinks reads the sidebar's links and the account menu's, in order.
func consoleLinks(t *testing.T, p *rod.Page, who string) []string {
	t.Helper()
	var links []string
	step(t, p, "read the sidebar", func(p *rod.Page) {
		for _, a := range p.MustElements(`[data-testid="console-nav"] a`) {
			links = append(links, *a.MustAttribute("href"))
		}
		for _, a := range p.MustElements(`[data-testid="viewer-menu"] a`) {
			if href := *a.MustAttribute("href"); !slices.Contains(links, href) {
				links = append(links, href)
			}
		}
	})
	if len(links) < 3 {
		t.Fatalf("%s's sidebar: %v", who, links)
	}
	return links
}

// screenshotName is the file a page's screenshot goes to: the person and
// the path, as in admin-feature-flags.png.
func screenshotName(who, link string) string {
	return who + strings.ReplaceAll(strings.TrimPrefix(link, "/admin"), "/", "-") + ".png"
}

// TestConsoleBulkBarKeepsRowsStill: ticking a row's box on the users page
// (a super admin's) and the moderation queue shows the bulk bar without
// moving the table: the next row stays where it was, so the next click
// lands on the row it was aimed at. At a laptop's width and a phone's.
func TestConsoleBulkBarKeepsRowsStill(t *testing.T) {
	pz := startPlaza(t)
	for _, c := range []struct {
		path, rows string
		who        *models.User
	}{
		{"/admin/users", `[data-testid^="user-row-"]`, pz.super},
		{"/admin/moderation", `[data-testid^="post-row-"]`, pz.modUser},
	} {
		p, con := pz.as(t, c.who, c.path)
		for _, v := range []viewport{laptop, phone} {
			resize(t, p, v)
			var rows rod.Elements
			step(t, p, "find two rows on "+c.path, func(p *rod.Page) {
				rows = p.MustElements(c.rows)
			})
			if len(rows) < 2 {
				t.Fatalf("%s lists %d rows", c.path, len(rows))
			}
			var before, after float64
			step(t, p, "tick a row on "+c.path+" at "+v.String(), func(p *rod.Page) {
				rows[1].MustScrollIntoView()
				box := rows[0].MustElement(`[data-select]`)
				box.MustScrollIntoView()
				before = rows[1].MustEval(`() => this.getBoundingClientRect().top`).Num()
				box.MustClick()
				p.MustWait(`() => !document.querySelector('[data-testid="bulk-bar"]').hidden`)
				after = rows[1].MustEval(`() => this.getBoundingClientRect().top`).Num()
			})
			if before != after {
				t.Errorf("%s at %s: the bulk bar moved the next row from %vpx to %vpx", c.path, v, before, after)
			}
			step(t, p, "the bar is in the window at "+v.String(), func(p *rod.Page) {
				if !p.MustEval(`() => { const r = document.querySelector('[data-testid="bulk-bar"]').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= document.documentElement.clientWidth }`).Bool() {
					panic("the bulk bar is not wholly in the window")
				}
			})
			if v == laptop {
				accessible(t, p, c.path+" with the bulk bar shown")
			}
			step(t, p, "untick", func(p *rod.Page) {
				rows[0].MustElement(`[data-select]`).MustClick()
				p.MustWait(`() => document.querySelector('[data-testid="bulk-bar"]').hidden`)
			})
		}
		clean(t, con)
	}
}

// meter adds up the bytes a tab receives (Network.loadingFinished's
// encodedDataLength: headers and body as they came over the wire, so a
// gzipped answer counts compressed and one from the cache counts nothing)
// and knows which requests are still under way.
type meter struct {
	mu      sync.Mutex
	bytes   map[string]float64 // by URL
	pending map[proto.NetworkRequestID]string
	event   chan struct{}
}

func newMeter(t *testing.T, p *rod.Page) *meter {
	t.Helper()
	m := &meter{bytes: map[string]float64{}, pending: map[proto.NetworkRequestID]string{}, event: make(chan struct{}, 1)}
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	go p.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		if e.Type == proto.NetworkResourceTypeEventSource {
			return // the moderation queue's live stream never finishes; it carries a few bytes a minute
		}
		m.mu.Lock()
		m.pending[e.RequestID] = e.Request.URL
		m.mu.Unlock()
		m.poke()
	}, func(e *proto.NetworkLoadingFinished) {
		m.mu.Lock()
		if url, ok := m.pending[e.RequestID]; ok {
			m.bytes[url] += e.EncodedDataLength
			delete(m.pending, e.RequestID)
		}
		m.mu.Unlock()
		m.poke()
	}, func(e *proto.NetworkLoadingFailed) {
		m.mu.Lock()
		delete(m.pending, e.RequestID)
		m.mu.Unlock()
		m.poke()
	})()
	return m
}

func (m *meter) poke() {
	select {
	case m.event <- struct{}{}:
	default:
	}
}

// load navigates to url and waits until the page has loaded and no
// request of it (its htmx requests too) has been under way for a quiet
// moment; it answers the bytes received, and by URL.
func (m *meter) load(t *testing.T, p *rod.Page, url string) (float64, map[string]float64) {
	t.Helper()
	m.mu.Lock()
	m.bytes, m.pending = map[string]float64{}, map[proto.NetworkRequestID]string{}
	m.mu.Unlock()
	step(t, p, "load "+url, func(p *rod.Page) {
		p.MustNavigate(url).MustWaitLoad()
	})
	return m.settle(t, url)
}

// settle waits until no request has been under way for a quiet moment and
// answers the bytes received since the last load, and by URL.
func (m *meter) settle(t *testing.T, url string) (float64, map[string]float64) {
	t.Helper()
	// Quiet means nothing pending and no event for 150 ms: htmx's requests
	// start from the page's scripts, before the load event or just after.
	deadline := time.After(stepTimeout)
	quiet := time.NewTimer(quietFor)
	defer quiet.Stop()
	for {
		select {
		case <-m.event:
			quiet.Reset(quietFor)
			continue
		case <-deadline:
			t.Fatalf("%s: requests still under way after %v: %v", url, stepTimeout, m.under())
		case <-quiet.C:
		}
		if len(m.under()) == 0 {
			break
		}
		quiet.Reset(quietFor)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var sum float64
	for _, n := range m.bytes {
		sum += n
	}
	return sum, maps.Clone(m.bytes)
}

const quietFor = 150 * time.Millisecond

func (m *meter) under() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Collect(maps.Values(m.pending))
}

// pageWeight loads url and answers the bytes it took. The og-image
// viewer's preview is left out (and logged): it is the tool's output, a
// new random image at every visit (17 to 35 KB of SVG), not the page.
func pageWeight(t *testing.T, m *meter, p *rod.Page, url string) float64 {
	t.Helper()
	sum, byURL := m.load(t, p, url)
	for u, n := range byURL {
		if strings.Contains(u, api.PathOGImage+"?") {
			t.Logf("%s: the preview %.1f KB, not counted", url, n/1024)
			sum -= n
		}
	}
	return sum
}

// Page weight budgets (docs/performance.md): a console page's first load
// with nothing cached, and a page opened after another.
const (
	firstLoadBudget = 100 << 10
	repeatBudget    = 30 << 10
	apiDocsBudget   = 150 << 10 // the API reference: its first load only (the whole document on one page)
)

// TestConsolePageWeight measures what every console page of a super
// admin's sidebar and account menu, and two users' pages (one with
// related accounts), costs over the
// wire: first with the browser's cache off (a first visit), then each
// again after another console page, with the cache on. Each is within its
// budget; the figures are logged for docs/performance.md. (A moderator's
// pages are the same pages with less on them.)
func TestConsolePageWeight(t *testing.T) {
	pz := startPlaza(t)
	for _, who := range []struct {
		name  string
		user  *models.User
		extra []string
	}{
		{"admin", pz.super, []string{fmt.Sprintf("/admin/users/%d", pz.modUser.ID), fmt.Sprintf("/admin/users/%d", demoUserID(t, pz, "cheap_seeds_4u"))}},
	} {
		p, c := pz.as(t, who.user, "/admin")
		links := append(consoleLinks(t, p, who.name), who.extra...)
		m := newMeter(t, p)
		first := map[string]float64{}
		if err := (proto.NetworkSetCacheDisabled{CacheDisabled: true}).Call(p); err != nil {
			t.Fatal(err)
		}
		for _, link := range links {
			first[link] = pageWeight(t, m, p, pz.base+link)
		}
		if err := (proto.NetworkSetCacheDisabled{CacheDisabled: false}).Call(p); err != nil {
			t.Fatal(err)
		}
		m.load(t, p, pz.base+"/admin") // fills the cache, as any first page does
		for _, link := range links {
			repeat := pageWeight(t, m, p, pz.base+link)
			t.Logf("%s %s: first load %.1f KB, repeat %.1f KB", who.name, link, first[link]/1024, repeat/1024)
			switch {
			case link == api.PathAPIDocs:
				if first[link] > apiDocsBudget {
					t.Errorf("%s: first load %.1f KB, over the API reference's budget of %d KB", link, first[link]/1024, apiDocsBudget>>10)
				}
			case first[link] > firstLoadBudget:
				t.Errorf("%s: first load %.1f KB, over the budget of %d KB", link, first[link]/1024, firstLoadBudget>>10)
			case repeat > repeatBudget:
				t.Errorf("%s: repeat %.1f KB, over the budget of %d KB", link, repeat/1024, repeatBudget>>10)
			}
		}
		clean(t, c)
	}
}

// usersPageBudget is what the users page may weigh on a first load, every
// avatar of its 50 rows included (docs/performance.md).
const usersPageBudget = 60 << 10

// TestUsersPageWeight: the users page, 50 rows with an avatar each, stays
// under 60 KB on a first load with nothing cached, even scrolled to its
// end, so that no lazy-loading distance the browser picks (it loads more
// ahead when it thinks the network slow or absent) can push it over.
func TestUsersPageWeight(t *testing.T) {
	pz := startPlaza(t)
	for i := range 60 {
		pz.User(t, fmt.Sprintf("weight%02d@example.com", i))
	}
	p, c := pz.as(t, pz.super, "/admin")
	resize(t, p, laptop)
	m := newMeter(t, p)
	if err := (proto.NetworkSetCacheDisabled{CacheDisabled: true}).Call(p); err != nil {
		t.Fatal(err)
	}
	url := pz.base + "/admin/users?limit=50"
	first, _ := m.load(t, p, url)
	step(t, p, "scroll to the end", func(p *rod.Page) {
		p.MustEval(`() => window.scrollTo(0, document.documentElement.scrollHeight)`)
	})
	all, byURL := m.settle(t, url) // everything since the load began
	more := all - first
	avatars := 0.0
	for u, n := range byURL {
		if strings.Contains(u, "/admin/avatar") {
			avatars += n
		}
	}
	t.Logf("users page: %.1f KB on load, %.1f KB more scrolled to the end; avatars %.1f KB", first/1024, more/1024, avatars/1024)
	if first+more > usersPageBudget {
		t.Errorf("the users page weighs %.1f KB with every avatar, over %d KB", (first+more)/1024, usersPageBudget>>10)
	}
	clean(t, c)
}
