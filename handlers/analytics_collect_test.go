package handlers_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/analytics"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

const collectPath = "/api/analytics/collect"

// collectApp is the real app; its analytics collector is closed (drained)
// when the test ends, before the database.
func collectApp(t *testing.T, db *bun.DB, mutate ...func(*web.Deps)) *apptest.App {
	t.Helper()
	return apptest.New(t, db, mutate...)
}

// collectResult is the 202 body of either shape.
type collectResult struct {
	Success  bool     `json:"success"`
	EventID  string   `json:"event_id"`
	EventIDs []string `json:"event_ids"`
	Message  string   `json:"message"`
}

func decodeCollect(t *testing.T, res *httptest.ResponseRecorder) collectResult {
	t.Helper()
	var r collectResult
	if err := json.Unmarshal(res.Body.Bytes(), &r); err != nil {
		t.Fatalf("body %s: %v", res.Body, err)
	}
	return r
}

func withHeader(h http.Header, kv ...string) http.Header {
	h = h.Clone()
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestCollectNeedsASession(t *testing.T) {
	app := collectApp(t, dbtest.Open(t, "sqlite"))
	u := app.User(t, "ada@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	token, _ := app.TokenFor(t, u.ID, access.AllPermissions()...)
	body := `{"event_type":"page_view","event_data":{}}`
	for name, h := range map[string]http.Header{
		"anonymous":         nil,
		"unknown cookie":    cookieHeader("not-a-session"),
		"bearer, no cookie": token,
	} {
		t.Run(name, func(t *testing.T) {
			res := apptest.DoBody(t, app, "POST", collectPath, h, body)
			if want := `{"success":false,"error":"A signed-in session is required"}`; res.Code != 403 || strings.TrimSpace(res.Body.String()) != want {
				t.Errorf("got %d %s, want 403 %s", res.Code, res.Body, want)
			}
		})
	}
	if n := countRows(t, app.Store.DB, "analytics_events"); n != 0 {
		t.Errorf("%d events stored without a session", n)
	}
}

func countRows(t *testing.T, db bun.IDB, table string) int {
	t.Helper()
	n, err := db.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestCollectSingleEvent(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := collectApp(t, db)
		u := app.User(t, "ada@example.com")
		h := withHeader(app.SessionFor(t, u.ID), "User-Agent", "Mozilla/5.0 (Test)", "Referer", "http://127.0.0.1:8080/posts/7?token=secret#top")
		before := time.Now().UTC().Add(-time.Second)
		res := apptest.DoBody(t, app, "POST", collectPath, h, `{"event_type":"page_view","event_data":{"title":"Post 7","n":12345678901234567890}}`)
		if res.Code != 202 {
			t.Fatalf("got %d %s", res.Code, res.Body)
		}
		r := decodeCollect(t, res)
		if !r.Success || r.EventID == "" || r.EventIDs != nil || r.Message != "Event recorded" {
			t.Errorf("body %s", res.Body)
		}
		if !strings.Contains(res.Body.String(), `"event_id":`) || strings.Contains(res.Body.String(), "event_ids") {
			t.Errorf("single-event body %s", res.Body)
		}
		for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			if res.Header().Get(k) == "" {
				t.Errorf("no %s header", k)
			}
		}
		if res.Header().Get("X-RateLimit-Limit") != "100" || res.Header().Get("X-RateLimit-Remaining") != "99" {
			t.Errorf("rate headers %v", res.Header())
		}
		var e models.AnalyticsEvent
		if err := db.NewSelect().Model(&e).Where("ae.id = ?", r.EventID).Scan(context.Background()); err != nil {
			t.Fatalf("the acknowledged event is not stored: %v", err)
		}
		hexHash := regexp.MustCompile(`^[0-9a-f]{32}$`)
		if e.EventType != "page_view" || e.UserID == nil || *e.UserID != u.ID || e.UserAgent != "Mozilla/5.0 (Test)" ||
			e.PagePath != "/posts/7" || !hexHash.MatchString(e.IPHash) || !hexHash.MatchString(e.SessionID) ||
			e.OccurredAt.Before(before) || !e.OccurredAt.Equal(e.ReceivedAt) {
			t.Errorf("stored %+v", e)
		}
		var raw string // read as text: bun would decode numbers into float64
		if err := db.NewRaw("SELECT CAST(event_data AS TEXT) FROM analytics_events WHERE id = ?", r.EventID).Scan(context.Background(), &raw); err != nil {
			t.Fatal(err)
		}
		if got := normalJSON(t, raw); got != `{"n":12345678901234567890,"title":"Post 7"}` {
			t.Errorf("event_data stored as %s", raw)
		}
		if got := testutil.ToFloat64(app.Deps.Metrics.EventsIngested); got != 1 {
			t.Errorf("plaza_analytics_events_ingested_total = %v, want 1", got)
		}
	})
}

// normalJSON re-encodes a JSON document compactly, numbers kept as written.
func normalJSON(t *testing.T, s string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestCollectBatch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := collectApp(t, db)
		u := app.User(t, "ada@example.com")
		cookie := app.SessionFor(t, u.ID)
		ts := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
		body := fmt.Sprintf(`{"events":[
			{"event_type":"page_view","event_data":{"path":"/a?q=1","session_id":"tab-1"},"timestamp":%q},
			{"event_type":"button_click","event_data":{"url":"https://example.com/b/c?x=y"}},
			{"event_type":"form_submit","event_data":{}},
			{"event_type":"test_event","event_data":{"session_id":"tab-1"}}]}`, ts.Format(time.RFC3339Nano))
		res := apptest.DoBody(t, app, "POST", collectPath, withHeader(cookie, "Referer", "http://127.0.0.1:8080/from-referer"), body)
		if res.Code != 202 {
			t.Fatalf("got %d %s", res.Code, res.Body)
		}
		r := decodeCollect(t, res)
		if !r.Success || len(r.EventIDs) != 4 || r.EventID != "" || r.Message != "4 events recorded" {
			t.Fatalf("body %s", res.Body)
		}
		var stored []models.AnalyticsEvent
		if err := db.NewSelect().Model(&stored).Where("ae.id IN (?)", bun.List(r.EventIDs)).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		byID := map[string]models.AnalyticsEvent{}
		for _, e := range stored {
			byID[strings.ToLower(e.ID)] = e
		}
		if len(byID) != 4 {
			t.Fatalf("%d of 4 acknowledged events stored", len(byID))
		}
		want := []struct{ typ, path, session string }{
			{"page_view", "/a", "tab-1"}, {"button_click", "/b/c", ""}, {"form_submit", "/from-referer", ""}, {"test_event", "/from-referer", "tab-1"},
		}
		pseudonym := byID[r.EventIDs[1]].SessionID
		for i, w := range want {
			e := byID[r.EventIDs[i]]
			session := w.session
			if session == "" {
				session = pseudonym
			}
			if e.EventType != w.typ || e.PagePath != w.path || e.SessionID != session {
				t.Errorf("event %d: %s %q session %q; want %s %q %q", i, e.EventType, e.PagePath, e.SessionID, w.typ, w.path, session)
			}
		}
		if first := byID[r.EventIDs[0]]; !first.OccurredAt.Equal(ts) {
			t.Errorf("occurred_at %v, want the client's %v", first.OccurredAt, ts)
		}
		if byID[r.EventIDs[2]].IPHash != byID[r.EventIDs[0]].IPHash {
			t.Error("one request's events carry different IP hashes")
		}
	})
}

func TestCollectRefusesBadEvents(t *testing.T) {
	app := collectApp(t, dbtest.Open(t, "sqlite"))
	cookie := app.SessionFor(t, app.User(t, "ada@example.com").ID)
	tests := []struct {
		name, body, want string
	}{
		{"malformed JSON", `{"event_type":"page_view",`,
			`{"success":false,"error":"Malformed JSON body","details":{"field":"","reason":"body is not valid JSON","issues":[{"field":"","reason":"body is not valid JSON"}]}}`},
		{"event_data a string", `{"event_type":"page_view","event_data":"{}"}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"event_data","reason":"event_data must be an object","issues":[{"field":"event_data","reason":"event_data must be an object"}]}}`},
		{"missing fields", `{}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"event_type","reason":"event_type is required","issues":[{"field":"event_type","reason":"event_type is required"},{"field":"event_data","reason":"event_data is required"}]}}`},
		{"unknown type", `{"event_type":"purchase","event_data":{}}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"event_type","reason":"event_type must be one of page_view, button_click, form_submit, error_encountered, feature_used, scroll, click, test_event","issues":[{"field":"event_type","reason":"event_type must be one of page_view, button_click, form_submit, error_encountered, feature_used, scroll, click, test_event"}]}}`},
		{"old timestamp", `{"event_type":"click","event_data":{},"timestamp":"2001-01-01T00:00:00Z"}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"timestamp","reason":"timestamp must not be older than 90 days","issues":[{"field":"timestamp","reason":"timestamp must not be older than 90 days"}]}}`},
		{"batch names each path", `{"events":[{"event_type":"click","event_data":{}},{"event_type":"click","event_data":[]},{"event_type":"click"}]}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"events.1.event_data","reason":"event_data must be an object","issues":[{"field":"events.1.event_data","reason":"event_data must be an object"},{"field":"events.2.event_data","reason":"event_data is required"}]}}`},
		{"empty batch", `{"events":[]}`,
			`{"success":false,"error":"Invalid analytics event","details":{"field":"events","reason":"events must hold 1 to 100 events, not 0","issues":[{"field":"events","reason":"events must hold 1 to 100 events, not 0"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apptest.DoBody(t, app, "POST", collectPath, cookie, tt.body)
			if res.Code != 400 || strings.TrimSpace(res.Body.String()) != tt.want {
				t.Errorf("got %d %s\nwant 400 %s", res.Code, res.Body, tt.want)
			}
		})
	}
	if n := countRows(t, app.Store.DB, "analytics_events"); n != 0 {
		t.Errorf("%d events stored from refused requests", n)
	}
	// Refused bodies do not use up the caller's allowance.
	res := apptest.DoBody(t, app, "POST", collectPath, cookie, `{"event_type":"click","event_data":{}}`)
	if res.Code != 202 || res.Header().Get("X-RateLimit-Remaining") != "99" {
		t.Errorf("after refusals: %d, remaining %s", res.Code, res.Header().Get("X-RateLimit-Remaining"))
	}
}

func TestCollectBodyLimit(t *testing.T) {
	app := collectApp(t, dbtest.Open(t, "sqlite"))
	cookie := app.SessionFor(t, app.User(t, "ada@example.com").ID)
	pad := func(n int) string { // a valid single event of n bytes
		head, tail := `{"event_type":"click","event_data":{"x":"`, `"}}`
		return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
	}
	// At the limit the body is parsed (and refused for its event_data size);
	// one byte over, it is refused unread, announced or streamed.
	res := apptest.DoBody(t, app, "POST", collectPath, cookie, pad(analytics.MaxBodyBytes))
	if res.Code != 400 || !strings.Contains(res.Body.String(), "event_data must be at most 8192 bytes") {
		t.Errorf("at the limit: %d %.200s", res.Code, res.Body)
	}
	over := pad(analytics.MaxBodyBytes + 1)
	res = apptest.DoBody(t, app, "POST", collectPath, cookie, over)
	if want := `{"success":false,"error":"Request body is too large (at most 256 KiB)"}`; res.Code != 413 || strings.TrimSpace(res.Body.String()) != want {
		t.Errorf("announced: %d %s, want 413 %s", res.Code, res.Body, want)
	}
	req := httptest.NewRequest("POST", collectPath, io.MultiReader(strings.NewReader(over))) // length unknown
	req.Header = cookie.Clone()
	if req.ContentLength > 0 {
		t.Fatal("the streamed request announces its length")
	}
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Errorf("streamed: %d %s", rec.Code, rec.Body)
	}
}

func TestCollectRateLimitCountsEvents(t *testing.T) {
	app := collectApp(t, dbtest.Open(t, "sqlite"))
	ada, bob := app.User(t, "ada@example.com"), app.User(t, "bob@example.com")
	cookie := app.SessionFor(t, ada.ID)
	batch := func(n int) string {
		events := make([]string, n)
		for i := range events {
			events[i] = `{"event_type":"scroll","event_data":{"depth":` + strconv.Itoa(i) + `}}`
		}
		return `{"events":[` + strings.Join(events, ",") + `]}`
	}
	for _, n := range []int{60, 39, 1} {
		if res := apptest.DoBody(t, app, "POST", collectPath, cookie, batch(n)); res.Code != 202 {
			t.Fatalf("batch of %d within the limit: %d %s", n, res.Code, res.Body)
		}
	}
	res := apptest.DoBody(t, app, "POST", collectPath, cookie, `{"event_type":"click","event_data":{}}`)
	retry, _ := strconv.Atoi(res.Header().Get("Retry-After"))
	if res.Code != 429 || retry < 1 || retry > 60 || res.Header().Get("X-RateLimit-Remaining") != "0" || res.Header().Get("X-RateLimit-Limit") != "100" ||
		strings.TrimSpace(res.Body.String()) != `{"success":false,"error":"Too many events; at most 100 per minute"}` {
		t.Errorf("the 101st event: %d %s, headers %v", res.Code, res.Body, res.Header())
	}
	if n := countRows(t, app.Store.DB, "analytics_events"); n != 100 {
		t.Errorf("%d events stored, want 100", n)
	}
	// The limit is per user.
	if res := apptest.DoBody(t, app, "POST", collectPath, app.SessionFor(t, bob.ID), batch(100)); res.Code != 202 {
		t.Errorf("another user: %d %s", res.Code, res.Body)
	}
}

func TestCollectCrossOriginRefused(t *testing.T) {
	app := collectApp(t, dbtest.Open(t, "sqlite"))
	cookie := app.SessionFor(t, app.User(t, "ada@example.com").ID)
	h := withHeader(cookie, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	res := apptest.DoBody(t, app, "POST", collectPath, h, `{"event_type":"click","event_data":{}}`)
	if res.Code != 403 {
		t.Errorf("cross-site post with the cookie: %d %s", res.Code, res.Body)
	}
	h = withHeader(cookie, "Origin", "http://127.0.0.1:8080", "Sec-Fetch-Site", "same-origin")
	if res := apptest.DoBody(t, app, "POST", collectPath, h, `{"event_type":"click","event_data":{}}`); res.Code != 202 {
		t.Errorf("same-origin post: %d %s", res.Code, res.Body)
	}
}

// blockingSink holds every write until released.
type blockingSink struct {
	release chan struct{}
	store   *models.Store
}

func (s blockingSink) InsertEvents(ctx context.Context, events []models.AnalyticsEvent) error {
	<-s.release
	return s.store.Analytics.InsertEvents(ctx, events)
}

func TestCollectOverloaded(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	sink := blockingSink{release: make(chan struct{}), store: models.NewStore(db)}
	batcher := analytics.NewBatcher[models.AnalyticsEvent](sink, analytics.Options{Writers: 1, MaxPending: 100})
	app := apptest.New(t, db, func(d *web.Deps) { d.Events = batcher; d.Config.RateLimit.EventsPerMin = 1000 })
	cookie := app.SessionFor(t, app.User(t, "ada@example.com").ID)
	events := make([]string, 100)
	for i := range events {
		events[i] = `{"event_type":"click","event_data":{}}`
	}
	first := make(chan *httptest.ResponseRecorder)
	go func() {
		first <- apptest.DoBody(t, app, "POST", collectPath, cookie, `{"events":[`+strings.Join(events, ",")+`]}`)
	}()
	for batcher.Pending() < 100 {
		time.Sleep(time.Millisecond)
	}
	res := apptest.DoBody(t, app, "POST", collectPath, cookie, `{"event_type":"click","event_data":{}}`)
	if res.Code != 503 || res.Header().Get("Retry-After") != "1" || !strings.Contains(res.Body.String(), `"error":"Events could not be stored now; retry shortly"`) {
		t.Errorf("over the queue bound: %d %s, Retry-After %q", res.Code, res.Body, res.Header().Get("Retry-After"))
	}
	close(sink.release)
	if r := <-first; r.Code != 202 {
		t.Errorf("the queued batch: %d %s", r.Code, r.Body)
	}
	batcher.Close()
	if res := apptest.DoBody(t, app, "POST", collectPath, cookie, `{"event_type":"click","event_data":{}}`); res.Code != 503 {
		t.Errorf("after the collector closed: %d %s", res.Code, res.Body)
	}
}

// TestCollectShutdownFlush: requests keep arriving while the collector is
// closed (the order of a graceful shutdown); every acknowledged event is
// stored, every other request is told 503.
func TestCollectShutdownFlush(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := collectApp(t, db, func(d *web.Deps) { d.Config.RateLimit.EventsPerMin = 1_000_000 })
		cookie := app.SessionFor(t, app.User(t, "ada@example.com").ID)
		body := `{"events":[` + strings.Repeat(`{"event_type":"click","event_data":{}},`, 9) + `{"event_type":"click","event_data":{}}]}`
		var mu sync.Mutex
		var acked []string
		refused := 0
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 8 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					res := apptest.DoBody(t, app, "POST", collectPath, cookie, body)
					mu.Lock()
					switch res.Code {
					case 202:
						acked = append(acked, decodeCollect(t, res).EventIDs...)
					case 503:
						refused++
					default:
						t.Errorf("got %d %s", res.Code, res.Body)
					}
					mu.Unlock()
				}
			})
		}
		time.Sleep(300 * time.Millisecond)
		app.Deps.Events.Close()
		time.Sleep(50 * time.Millisecond)
		close(stop)
		wg.Wait()
		if len(acked) == 0 || refused == 0 {
			t.Fatalf("%d events acknowledged, %d requests refused; want both", len(acked), refused)
		}
		missing, err := app.Store.Analytics.MissingEvents(context.Background(), acked)
		if err != nil || len(missing) > 0 {
			t.Errorf("%d of %d acknowledged events are missing after the flush (%v)", len(missing), len(acked), err)
		}
		if got := testutil.ToFloat64(app.Deps.Metrics.EventsIngested); got != float64(len(acked)) {
			t.Errorf("events ingested metric %v, want %d", got, len(acked))
		}
	})
}

// TestCollectSurvivesCrash runs the real `plaza serve` on PostgreSQL, kills
// it with SIGKILL in the middle of a load of collect requests, restarts it,
// and checks that every event it acknowledged is stored; then does the same
// with SIGTERM, after which the process must exit cleanly.
func TestCollectSurvivesCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the plaza binary")
	}
	db, dbURL := dbtest.OpenURL(t, "postgres")
	bin := buildPlaza(t)
	store := models.NewStore(db)
	hash, err := auth.HashPassword("crash-test-password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Users.CreateUser(context.Background(), models.NewUser{Email: "crash@example.com", PasswordHash: hash}); err != nil {
		t.Fatal(err)
	}
	env := []string{"DATABASE_URL=" + dbURL, "PLAZA_ENV=test", "ADDR=127.0.0.1:0", "LOG_FORMAT=text", "SEED_DEMO=false",
		"RATE_LIMIT_ANALYTICS_EVENTS_PER_MINUTE=10000000", "SHUTDOWN_TIMEOUT=10s", "HOME=" + t.TempDir()}

	srv := startPlaza(t, bin, env)
	cookie := signInOver(t, srv.base, "crash@example.com", "crash-test-password")

	load := fireCollect(srv.base, cookie, 16)
	load.waitFor(t, 2000)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	acked := load.stop()
	t.Logf("SIGKILL after %d acknowledged events", len(acked))
	if missing, err := store.Analytics.MissingEvents(context.Background(), acked); err != nil || len(missing) > 0 {
		t.Fatalf("%d of %d acknowledged events missing after SIGKILL (%v)", len(missing), len(acked), err)
	}

	srv = startPlaza(t, bin, env) // same database: the session survives the crash
	load = fireCollect(srv.base, cookie, 16)
	load.waitFor(t, 2000)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exit := srv.cmd.Wait()
	acked = load.stop()
	t.Logf("SIGTERM after %d acknowledged events", len(acked))
	if exit != nil {
		t.Errorf("after SIGTERM: %v\n%s", exit, srv.log.String())
	}
	if missing, err := store.Analytics.MissingEvents(context.Background(), acked); err != nil || len(missing) > 0 {
		t.Fatalf("%d of %d acknowledged events missing after SIGTERM (%v)", len(missing), len(acked), err)
	}
}

// buildPlaza compiles the plaza command into a temporary folder.
func buildPlaza(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts its own toolchain first in PATH
	if err != nil {
		t.Fatalf("no go command to build plaza with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "plaza")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/plazahq/plaza")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type plazaProcess struct {
	cmd  *exec.Cmd
	base string
	log  *lockedBuffer
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var readyLine = regexp.MustCompile(`msg="Plaza is ready" addr=(\S+)`)

// startPlaza runs `plaza serve` and waits for its ready line; the process
// is killed when the test ends if it is still running.
func startPlaza(t *testing.T, bin string, env []string) *plazaProcess {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	p := &plazaProcess{cmd: cmd, log: &lockedBuffer{}}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(p.log, sc.Text())
			if m := readyLine.FindStringSubmatch(sc.Text()); m != nil {
				ready <- m[1]
			}
		}
	}()
	select {
	case addr := <-ready:
		p.base = "http://" + addr
		return p
	case <-time.After(20 * time.Second):
		t.Fatalf("plaza serve was not ready within 20 s:\n%s", p.log)
		return nil
	}
}

// signInOver signs in through POST /api/auth/signin and returns the session cookie.
func signInOver(t *testing.T, base, email, password string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	res, err := http.Post(base+"/api/auth/signin", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "plaza_session" && c.Value != "" {
			return c.Name + "=" + c.Value
		}
	}
	b, _ := io.ReadAll(res.Body)
	t.Fatalf("sign-in: %d %s, no session cookie", res.StatusCode, b)
	return ""
}

// collectLoad posts batches of 10 events from several clients and keeps
// the ids of every acknowledged event.
type collectLoad struct {
	mu     sync.Mutex
	acked  []string
	halt   chan struct{}
	wg     sync.WaitGroup
	client *http.Client
}

func fireCollect(base, cookie string, clients int) *collectLoad {
	l := &collectLoad{halt: make(chan struct{}), client: &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: clients}}}
	body := []byte(`{"events":[` + strings.Repeat(`{"event_type":"test_event","event_data":{"load":true}},`, 9) +
		`{"event_type":"test_event","event_data":{"load":true}}]}`)
	for range clients {
		l.wg.Go(func() {
			for {
				select {
				case <-l.halt:
					return
				default:
				}
				req, _ := http.NewRequest("POST", base+collectPath, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Cookie", cookie)
				res, err := l.client.Do(req)
				if err != nil {
					time.Sleep(5 * time.Millisecond) // the server is gone
					continue
				}
				var r collectResult
				decErr := json.NewDecoder(res.Body).Decode(&r)
				res.Body.Close()
				// Only a complete 202 body is an acknowledgement.
				if res.StatusCode == http.StatusAccepted && decErr == nil && r.Success {
					l.mu.Lock()
					l.acked = append(l.acked, r.EventIDs...)
					l.mu.Unlock()
				}
			}
		})
	}
	return l
}

func (l *collectLoad) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

// waitFor waits until n events are acknowledged.
func (l *collectLoad) waitFor(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for l.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d events acknowledged in 10 s", l.count())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (l *collectLoad) stop() []string {
	close(l.halt)
	l.wg.Wait()
	l.client.CloseIdleConnections()
	return l.acked
}
