package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/redistest"
	"github.com/plazahq/plaza/internal/tcpproxy"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// outageWait bounds each wait of the outage tests for a condition.
const outageWait = 30 * time.Second

// TestDatabaseOutageUnderLoad cuts Plaza's connection to PostgreSQL (a
// proxy between them refuses new connections and ends the open ones) for
// about two seconds while 8 clients post analytics events and 2 admins
// read, then restores it. It checks what issue 27 asks of an outage:
//   - no answer but 2xx or 503, and every 503 with Retry-After and the
//     family's body ({success:false, error} from the collector, the v1
//     envelope from the admin routes): no 500, no panic;
//   - /api/health answers 503 unhealthy, database disconnected, during the
//     cut, and healthy after it; plaza_database_unavailable_total counts
//     the refusals;
//   - once health says healthy, every request sent succeeds: the first
//     after recovery too;
//   - background work resumes by itself: the change listener listens
//     again, a River job queued after recovery runs, and the audit entry
//     of a request made after recovery is written;
//   - every event acknowledged with 202 is stored.
func TestDatabaseOutageUnderLoad(t *testing.T) {
	direct := dbtest.Open(t, "postgres")
	proxy, err := tcpproxy.New(dbtest.ServerAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	a := apptest.NewWith(t, dbtest.Through(t, direct, proxy.Addr()), app.Options{}, func(d *web.Deps) {
		d.Config.RateLimit.EventsPerMin, d.Config.RateLimit.AdminGeneral, d.Config.RateLimit.AdminSuper = 1<<20, 1<<20, 1<<20
	})
	if err := a.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	rootSession, root := a.Admin(t)
	token, _ := a.TokenFor(t, root.ID, access.AllPermissions()...)
	l := &load{base: srv.URL, client: srv.Client(), refusals: true}
	stopLoad := l.start(t, a, token, rootSession)

	waitUntil(t, "every client to be answered", func() bool { return l.successes() >= 20 })
	proxy.Down()
	cutAt := time.Now()
	waitUntil(t, "health to say the database is away", func() bool {
		code, h, hdr := l.health()
		return code == http.StatusServiceUnavailable && h.Status == api.StatusUnhealthy &&
			h.Database == api.DatabaseUnreachable && hdr.Get("Retry-After") != ""
	})
	waitUntil(t, "the change listener to notice", func() bool { return !a.Deps.Principals.Enabled() })
	waitUntil(t, "both kinds of request to be refused", func() bool {
		return l.count(kindCollect, http.StatusServiceUnavailable) > 0 && l.count(kindAdmin, http.StatusServiceUnavailable) > 0
	})
	<-time.After(time.Until(cutAt.Add(2 * time.Second))) // the outage lasts two seconds
	before := l.acknowledged()
	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	upAt := time.Now()
	waitUntil(t, "health to say healthy", func() bool {
		code, h, _ := l.health()
		return code == http.StatusOK && h.Status == api.StatusHealthy
	})
	l.recovered.Store(time.Now().UnixNano())
	t.Logf("cut for %v; healthy %v after the database came back", upAt.Sub(cutAt).Round(time.Millisecond),
		time.Since(upAt).Round(time.Millisecond))

	// The first requests after recovery, each once, no retry.
	if code, body := l.send(http.MethodPost, api.PathAnalyticsCollect, rootSession, `{"event_type":"page_view","event_data":{"path":"/first"}}`); code != http.StatusAccepted {
		t.Errorf("the first event after recovery: %d %s", code, body)
	}
	if code, body := l.send(http.MethodGet, api.PathAdminV1Users+"?limit=1", token, ""); code != http.StatusOK {
		t.Errorf("the first admin read after recovery: %d %s", code, body)
	}
	waitUntil(t, "the change listener to listen again", a.Deps.Principals.Enabled)
	checkJobRuns(t, l, a, token)
	checkAuditResumes(t, a, upAt)
	waitUntil(t, "every client to be answered after recovery", func() bool { return l.acknowledged() > before+8 })
	stopLoad()

	if n := testutil.ToFloat64(a.Deps.Metrics.DatabaseUnavailable); n == 0 {
		t.Error("plaza_database_unavailable_total did not count the refusals")
	}
	for _, b := range l.broken() {
		t.Error(b)
	}
	t.Logf("answers: %v", l.summary())
	acked := l.ackedIDs()
	missing, err := models.NewStore(direct).Analytics.MissingEvents(context.Background(), acked)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d acknowledged events are not stored: %v", len(missing), len(acked), missing[:min(len(missing), 5)])
	}
}

// TestRedisOutageUnderLoad takes away the Redis that holds the rate
// limits (REDIS_URL through a proxy the test cuts) for about two seconds
// under the same load, then brings it back. Nothing is refused: every
// answer is 2xx, still counted (X-RateLimit-* on the admin reads), while
// each instance counts in its own memory; /api/health stays healthy and
// says rateLimiter memory-fallback, plaza_ratelimit_fallback is 1, and
// both go back to redis once Redis answers.
func TestRedisOutageUnderLoad(t *testing.T) {
	proxy, _ := redistest.NewProxy(t)
	cfg := apptest.Config(t)
	cfg.RedisURL, cfg.RedisKeyPrefix = proxy.URL(), fmt.Sprintf("test:%d", time.Now().UnixNano())
	cfg.RateLimit.EventsPerMin, cfg.RateLimit.AdminGeneral, cfg.RateLimit.AdminSuper = 1<<20, 1<<20, 1<<20
	a := apptest.NewWithConfig(t, dbtest.Open(t, "postgres"), cfg, app.Options{})
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	rootSession, root := a.Admin(t)
	token, _ := a.TokenFor(t, root.ID, access.AllPermissions()...)
	l := &load{base: srv.URL, client: srv.Client(), counted: true}
	limiterIs := func(want string, fallback float64) func() bool {
		return func() bool {
			code, h, _ := l.health()
			return code == http.StatusOK && h.Status == api.StatusHealthy && h.RateLimiter == want &&
				gauge(t, a, "plaza_ratelimit_fallback") == fallback
		}
	}
	if !limiterIs(ratelimit.StatusRedis, 0)() {
		t.Fatalf("with Redis up the limiter is %q", a.Deps.Limiter.Status())
	}
	stopLoad := l.start(t, a, token, rootSession)
	waitUntil(t, "every client to be answered", func() bool { return l.successes() >= 20 })
	proxy.Down()
	cutAt := time.Now()
	waitUntil(t, "the limiter to count in memory", limiterIs(ratelimit.StatusFallback, 1))
	before := l.successes()
	waitUntil(t, "requests answered while Redis is away", func() bool { return l.successes() > before+20 })
	<-time.After(time.Until(cutAt.Add(2 * time.Second))) // the outage lasts two seconds
	proxy.Up()
	waitUntil(t, "the limiter to count in Redis again", limiterIs(ratelimit.StatusRedis, 0))
	before = l.successes()
	waitUntil(t, "requests answered after Redis is back", func() bool { return l.successes() > before+20 })
	stopLoad()
	for _, b := range l.broken() {
		t.Error(b)
	}
	t.Logf("answers: %v", l.summary())
}

// gauge is the value of the app's metric of that name (no labels).
func gauge(t *testing.T, a *apptest.App, name string) float64 {
	t.Helper()
	families, err := a.Deps.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// TestSessionWriteBackFailsClearly: when the database goes away between
// reading a session and writing it back, the request answers 503 with
// Retry-After in its family's body (not scs's plain-text 500), and neither
// the handler's answer nor a session cookie goes out.
func TestSessionWriteBackFailsClearly(t *testing.T) {
	direct := dbtest.Open(t, "postgres")
	proxy, err := tcpproxy.New(dbtest.ServerAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	a := apptest.New(t, dbtest.Through(t, direct, proxy.Addr()), func(d *web.Deps) {
		d.ExtraRoutes = []web.Route{{Method: http.MethodGet, Path: "/api/probe/session", Family: api.FamilyGeneral,
			Scope: web.ScopeExempt, Caller: true, Handler: func(c echo.Context) error {
				d.Sessions.Put(c.Request().Context(), "probe", "changed") // to be written back
				proxy.Down()
				c.Response().Header().Set("X-Probe", "handler")
				return c.JSON(http.StatusOK, map[string]string{"probe": "answered"})
			}}}
	})
	cookie := a.SessionFor(t, a.User(t, "ada@example.com").ID)
	res := apptest.Do(t, a, http.MethodGet, "/api/probe/session", cookie)
	_, want := api.FamilyGeneral.ErrorBody(api.DatabaseUnavailable(nil))
	b, _ := json.Marshal(want)
	if res.Code != http.StatusServiceUnavailable || strings.TrimSpace(res.Body.String()) != string(b) {
		t.Errorf("got %d %s, want 503 %s", res.Code, res.Body, b)
	}
	if res.Header().Get("Retry-After") == "" || res.Header().Get("Set-Cookie") != "" || res.Header().Get("X-Probe") != "" {
		t.Errorf("headers %v: want Retry-After, and neither a cookie nor the handler's headers", res.Header())
	}
	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
}

// start runs the load against a until the returned function (or the
// test's end) stops it: 8 users post events, an admin token and an admin
// session read.
func (l *load) start(t *testing.T, a *apptest.App, token, session http.Header) func() {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range 8 {
		cookie := a.SessionFor(t, a.User(t, fmt.Sprintf("collector%d@example.com", i)).ID)
		wg.Go(func() { l.collect(ctx, i, cookie) })
	}
	wg.Go(func() { l.read(ctx, api.PathAdminV1Users+"?limit=5", token) })
	wg.Go(func() { l.read(ctx, api.PathAdminAuditLogs+"?limit=5", session) })
	stopLoad := sync.OnceFunc(func() { stop(); wg.Wait() })
	t.Cleanup(stopLoad)
	return stopLoad
}

// checkJobRuns queues a maintenance job after recovery and waits for the
// job queue to run it.
func checkJobRuns(t *testing.T, l *load, a *apptest.App, token http.Header) {
	t.Helper()
	code, body := l.send(http.MethodPost, api.PathAdminV1Maintenance, token, `{"action":"cache_clear","scope":"previews"}`)
	var queued api.V1Of[api.V1QueuedJob]
	if err := json.Unmarshal(body, &queued); err != nil || code != http.StatusAccepted {
		t.Fatalf("queue a job after recovery: %d %s", code, body)
	}
	waitUntil(t, "the job queued after recovery to run", func() bool {
		j, err := a.Store.Maintenance.MaintenanceJobByID(context.Background(), queued.Data.JobID)
		return err == nil && j.Status == models.JobCompleted
	})
}

// checkAuditResumes waits for the audit writer to store the entry of an
// admin read made after recovery. (Entries of requests refused during an
// outage are written too, once it ends: TestEveryRouteWithDatabaseDown.)
func checkAuditResumes(t *testing.T, a *apptest.App, upAt time.Time) {
	t.Helper()
	waitUntil(t, "an audit entry of a request after recovery", func() bool {
		for _, e := range a.AuditEntries(t) {
			if e.Status == http.StatusOK && e.CreatedAt.After(upAt) {
				return true
			}
		}
		return false
	})
}

// waitUntil polls cond until it holds, failing the test after outageWait.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(outageWait); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", outageWait, what)
		}
	}
}

// Kinds of request the load sends.
const (
	kindCollect = "collect"
	kindAdmin   = "admin"
)

// load sends requests to a server and keeps what it was answered.
type load struct {
	base   string
	client *http.Client
	// refusals allows 503s (with Retry-After, in the family's format)
	// until recovered.
	refusals bool
	// counted asks every admin read for its X-RateLimit-* headers.
	counted   bool
	recovered atomic.Int64 // Unix nanoseconds when health said healthy again; 0 before

	mu       sync.Mutex
	statuses map[string]map[int]int
	bad      []string
	acked    []string
}

// collect posts events as one user until ctx ends.
func (l *load) collect(ctx context.Context, client int, cookie http.Header) {
	for seq := 0; ctx.Err() == nil; seq++ {
		started := time.Now()
		body := fmt.Sprintf(`{"event_type":"page_view","event_data":{"path":"/outage","client":%d,"seq":%d}}`, client, seq)
		code, hdr, b, err := l.do(ctx, http.MethodPost, api.PathAnalyticsCollect, cookie, body)
		if err != nil {
			if ctx.Err() == nil {
				l.report("collect: %v", err)
			}
			return
		}
		l.note(kindCollect, started, code, hdr, b, api.FamilyCollector)
		if code == http.StatusAccepted {
			var ok api.CollectAccepted
			if err := json.Unmarshal(b, &ok); err != nil || ok.EventID == "" {
				l.report("collect: 202 without an event id: %s", b)
				continue
			}
			l.mu.Lock()
			l.acked = append(l.acked, ok.EventID)
			l.mu.Unlock()
		}
	}
}

// read asks an admin route as h until ctx ends.
func (l *load) read(ctx context.Context, target string, h http.Header) {
	for ctx.Err() == nil {
		started := time.Now()
		code, hdr, b, err := l.do(ctx, http.MethodGet, target, h, "")
		if err != nil {
			if ctx.Err() == nil {
				l.report("read %s: %v", target, err)
			}
			return
		}
		l.note(kindAdmin, started, code, hdr, b, api.FamilyV1)
	}
}

// note records an answer and reports it when it breaks the rules: a
// status other than 2xx and 503, a 503 without Retry-After or the
// family's body, or a failure of a request sent after recovery.
func (l *load) note(kind string, started time.Time, code int, hdr http.Header, body []byte, fam api.Family) {
	l.mu.Lock()
	if l.statuses == nil {
		l.statuses = map[string]map[int]int{}
	}
	if l.statuses[kind] == nil {
		l.statuses[kind] = map[int]int{}
	}
	l.statuses[kind][code]++
	l.mu.Unlock()
	switch {
	case code >= 200 && code < 300:
		if l.counted && kind == kindAdmin && hdr.Get("X-RateLimit-Remaining") == "" {
			l.report("%s: %d without X-RateLimit-Remaining", kind, code)
		}
		return
	case code != http.StatusServiceUnavailable || !l.refusals:
		l.report("%s: %d %.300s", kind, code, body)
		return
	}
	if rec := l.recovered.Load(); rec != 0 && started.UnixNano() > rec {
		l.report("%s sent %v after recovery: %d %.300s", kind, time.Duration(started.UnixNano()-rec), code, body)
	}
	if s, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || s < 1 {
		l.report("%s: 503 with Retry-After %q", kind, hdr.Get("Retry-After"))
	}
	if !familyBody(fam, body) {
		l.report("%s: 503 not in its family's format: %.300s", kind, body)
	}
}

// familyBody reports whether body is a 503 in the family's format.
func familyBody(fam api.Family, body []byte) bool {
	switch fam {
	case api.FamilyCollector:
		var got map[string]any
		if json.Unmarshal(body, &got) != nil || len(got) != 2 {
			return false
		}
		msg, _ := got["error"].(string)
		return got["success"] == false && msg != ""
	case api.FamilyV1:
		var got api.V1Error
		return json.Unmarshal(body, &got) == nil && !got.Success && got.Error.Code == api.CodeServerError && got.Error.Message != ""
	}
	return false
}

func (l *load) do(ctx context.Context, method, target string, h http.Header, body string) (int, http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, l.base+target, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := l.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b, err
}

// send is one request of the test's own, outside the load.
func (l *load) send(method, target string, h http.Header, body string) (int, []byte) {
	code, _, b, err := l.do(context.Background(), method, target, h, body)
	if err != nil {
		return 0, []byte(err.Error())
	}
	return code, b
}

func (l *load) health() (int, api.Health, http.Header) {
	code, hdr, b, err := l.do(context.Background(), http.MethodGet, api.PathHealth, nil, "")
	var h api.Health
	if err == nil {
		json.Unmarshal(b, &h) //nolint:errcheck // a wrong body fails the caller's condition
	}
	return code, h, hdr
}

func (l *load) report(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) < 20 {
		l.bad = append(l.bad, fmt.Sprintf(format, args...))
	}
}

func (l *load) count(kind string, code int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.statuses[kind][code]
}

func (l *load) successes() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, byCode := range l.statuses {
		for code, c := range byCode {
			if code < 300 {
				n += c
			}
		}
	}
	return n
}

func (l *load) acknowledged() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

func (l *load) ackedIDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acked...)
}

func (l *load) broken() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.bad...)
}

func (l *load) summary() map[string]map[int]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.statuses
}
