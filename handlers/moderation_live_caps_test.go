package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestQueueStreamCaps: over real HTTP, a moderator gets as many streams of
// the queue's news as one person may (3 here) and the next is refused 429
// RATE_LIMITED with Retry-After, in the console's error format; once the
// instance holds its maximum (5 here), anyone else's is refused 503 with
// Retry-After, while someone over their own bound still hears 429.
// Streams whose clients leave give their slots back, and new ones are
// accepted. A burst of one moderator's streams sent together gets exactly
// their bound. Before, one moderator opened 300.
func TestQueueStreamCaps(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.Streams = web.NewStreamSlots(config.ModerationStreams{PerUser: 3, Max: 5})
	})
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	ana, bo, cy, dee := app.User(t, "ana@example.com", models.RoleModerator), app.User(t, "bo@example.com", models.RoleModerator),
		app.User(t, "cy@example.com", models.RoleModerator), app.User(t, "dee@example.com", models.RoleModerator)
	anaSession, boSession, cySession, deeSession := app.SessionFor(t, ana.ID), app.SessionFor(t, bo.ID), app.SessionFor(t, cy.ID), app.SessionFor(t, dee.ID)
	open := func(who http.Header) *stream {
		t.Helper()
		s := openStream(t, srv, who)
		if s.res.StatusCode != http.StatusOK {
			t.Fatalf("stream answered %d, want 200", s.res.StatusCode)
		}
		s.expectQueue(t, 0)
		return s
	}
	openAll := func(who http.Header, n int) []*stream {
		t.Helper()
		var out []*stream
		for range n {
			out = append(out, open(who))
		}
		return out
	}

	anas := openAll(anaSession, 3)
	refusedStream(t, srv, anaSession, http.StatusTooManyRequests, "too many live moderation queues open")
	openAll(boSession, 2)
	refusedStream(t, srv, cySession, http.StatusServiceUnavailable, "as many live moderation queues open as it can")
	refusedStream(t, srv, anaSession, http.StatusTooManyRequests, "too many live moderation queues open")

	for _, s := range anas {
		s.cancel()
	}
	apptest.WaitFor(t, "the streams of ana's closed tabs to give their slots back", func() bool {
		mine, all := app.Deps.Streams.Open(ana.ID)
		return mine == 0 && all == 2
	})
	open(cySession)
	openAll(anaSession, 2)
	if _, all := app.Deps.Streams.Open(0); all != 5 {
		t.Fatalf("%d streams open, want 5", all)
	}
	refusedStream(t, srv, deeSession, http.StatusServiceUnavailable, "as many live moderation queues open as it can")
	if n := app.Deps.Moderation.Subscribers(); n != 5 {
		t.Fatalf("%d subscribers, want the 5 open streams", n)
	}
}

// TestQueueStreamBurst: 12 streams of one moderator sent together get
// exactly 3 (the bound) open and 9 refused 429; when those 3 end, the
// moderator may open 3 again.
func TestQueueStreamBurst(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) {
		d.Streams = web.NewStreamSlots(config.ModerationStreams{PerUser: 3, Max: 100})
	})
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	mod := app.User(t, "mod@example.com", models.RoleModerator)
	session := app.SessionFor(t, mod.ID)
	for round := range 2 {
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			opened []*stream
			codes  = map[int]int{}
		)
		for range 12 {
			wg.Go(func() {
				s := openStreamQuietly(t, srv, session)
				mu.Lock()
				defer mu.Unlock()
				codes[s.res.StatusCode]++
				if s.res.StatusCode == http.StatusOK {
					opened = append(opened, s)
				}
			})
		}
		wg.Wait()
		if codes[http.StatusOK] != 3 || codes[http.StatusTooManyRequests] != 9 {
			t.Fatalf("round %d: answers %v, want 3 × 200 and 9 × 429", round, codes)
		}
		for _, s := range opened {
			s.cancel()
		}
		apptest.WaitFor(t, "the burst's streams to give their slots back", func() bool {
			_, all := app.Deps.Streams.Open(mod.ID)
			return all == 0
		})
	}
}

// openStreamQuietly is openStream for a goroutine other than the test's:
// it reports a failure without stopping the test from there.
func openStreamQuietly(t *testing.T, srv *httptest.Server, header http.Header) *stream {
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+api.PathConsoleModerationEvents, nil)
	if err != nil {
		t.Error(err)
		cancel()
		return &stream{res: &http.Response{}, cancel: cancel}
	}
	req.Header = header.Clone()
	req.Header.Set("Accept", "text/event-stream")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Error(err)
		cancel()
		return &stream{res: &http.Response{}, cancel: cancel}
	}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
	}
	return &stream{res: res, cancel: func() { cancel(); res.Body.Close() }}
}

// refusedStream asks for a stream that must be refused with status, with
// Retry-After and an HTML error page (the console's format) saying want.
func refusedStream(t *testing.T, srv *httptest.Server, who http.Header, status int, want string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+api.PathConsoleModerationEvents, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = who.Clone()
	req.Header.Set("Accept", "text/event-stream")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Fatalf("a stream opened; want %d", status)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != status || res.Header.Get("Retry-After") != "30" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), want) {
		t.Fatalf("stream answered %d (Retry-After %q, %s) %.300s; want %d saying %q", res.StatusCode,
			res.Header.Get("Retry-After"), res.Header.Get("Content-Type"), body, status, want)
	}
}
