package handlers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// sseEvent is one server-sent event as a client reads it.
type sseEvent struct {
	name string
	data api.QueueNews
}

// stream is a moderator's open stream of the queue's news, read over real
// HTTP by a plain client.
type stream struct {
	events <-chan sseEvent
	res    *http.Response
	cancel context.CancelFunc
}

// openStream opens the queue's stream on srv as the caller of header.
func openStream(t *testing.T, srv *httptest.Server, header http.Header) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+api.PathConsoleModerationEvents, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan sseEvent, 64)
	go func() {
		defer close(events)
		r := bufio.NewReader(res.Body)
		var ev sseEvent
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data); err != nil {
					return
				}
			case strings.HasPrefix(line, ": "):
				events <- sseEvent{name: "comment"}
			case line == "" && ev.name != "":
				events <- ev
				ev = sseEvent{}
			}
		}
	}()
	s := &stream{events: events, res: res, cancel: cancel}
	t.Cleanup(func() { cancel(); res.Body.Close() })
	return s
}

// next is the stream's next event, which must come.
func (s *stream) next(t *testing.T) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// expect reads the next event, which must be name, and returns its data.
func (s *stream) expect(t *testing.T, name string) api.QueueNews {
	t.Helper()
	ev := s.next(t)
	if ev.name != name {
		t.Fatalf("event %q %+v, want %q", ev.name, ev.data, name)
	}
	return ev.data
}

func (s *stream) expectQueue(t *testing.T, want int) {
	t.Helper()
	if d := s.expect(t, "queue"); d.Count == nil || *d.Count != want {
		t.Fatalf("queue event %+v, want count %d", d, want)
	}
}

// TestQueueEvents: a moderator's stream, read over real HTTP, starts with
// the count awaiting a decision, then tells of a report filed, another
// moderator's claim and decision (with their name and the post's title),
// and the count after each; never of the moderator's own doings. On
// PostgreSQL the stream is served by a second instance on the same
// database, which hears the first's changes. A bearer token is refused,
// and a client that leaves ends the handler.
func TestQueueEvents(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		watcher := app
		if app.Store.Dialect() == config.DialectPostgres {
			watcher = apptest.New(t, db)
		}
		srv := httptest.NewServer(watcher)
		t.Cleanup(srv.Close)
		ctx := context.Background()
		newUser := func(name string, roles ...string) *models.User {
			u, err := app.Store.Users.CreateUser(ctx, models.NewUser{Email: name + "@example.com", Username: name, Roles: roles})
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		ana, bo, cy, dee := newUser("ana", models.RoleModerator), newUser("bo", models.RoleModerator), newUser("cy"), newUser("dee")
		newPostAs(t, app, cy.ID, "Cheap pills")
		pills := postByTitle(t, db, "Cheap pills")
		anaSession, boSession := app.SessionFor(t, ana.ID), app.SessionFor(t, bo.ID)

		s := openStream(t, srv, anaSession)
		if s.res.StatusCode != http.StatusOK || s.res.Header.Get("Content-Type") != "text/event-stream" ||
			s.res.Header.Get("X-Accel-Buffering") != "no" || s.res.Header.Get("Content-Encoding") != "" {
			t.Fatalf("stream answered %d %v", s.res.StatusCode, s.res.Header)
		}
		s.expectQueue(t, 0)

		if res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(pills)), app.SessionFor(t, dee.ID), `{"reason":"spam"}`); res.Code != http.StatusCreated {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		if d := s.expect(t, "report"); d.PostID != itoa(pills) {
			t.Fatalf("report event %+v", d)
		}
		s.expectQueue(t, 1)

		// Ana's own claim is not news to her: the next event is Bo's.
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), anaSession); res.Code != http.StatusOK {
			t.Fatalf("ana claims: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), boSession); res.Code != http.StatusLocked {
			t.Fatalf("bo claims ana's post: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", api.ConsoleClaimPath(pills), anaSession); res.Code != http.StatusOK {
			t.Fatalf("ana releases: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), boSession); res.Code != http.StatusOK {
			t.Fatalf("bo claims: %d %s", res.Code, res.Body)
		}
		if d := s.expect(t, "claim"); d.PostID != itoa(pills) || d.By != "bo" || d.Until == "" || d.Released {
			t.Fatalf("claim event %+v", d)
		}

		if res := apptest.DoBody(t, app, "POST", api.ConsoleModeratePath(pills), boSession, `{"action":"hide"}`); res.Code != http.StatusOK {
			t.Fatalf("bo hides: %d %s", res.Code, res.Body)
		}
		if d := s.expect(t, "decision"); d.PostID != itoa(pills) || d.Action != "hide" || d.By != "bo" || d.Title != "Cheap pills" {
			t.Fatalf("decision event %+v", d)
		}
		s.expectQueue(t, 0)

		token, _ := app.TokenFor(t, ana.ID, api.PermPostsModerate)
		if res := apptest.Do(t, watcher, "GET", api.PathConsoleModerationEvents, token); res.Code != http.StatusForbidden {
			t.Fatalf("a bearer token's stream: %d, want 403", res.Code)
		}
		if res := apptest.Do(t, watcher, "GET", api.PathConsoleModerationEvents, app.SessionFor(t, cy.ID)); res.Code != http.StatusForbidden {
			t.Fatalf("a plain user's stream: %d, want 403", res.Code)
		}

		if n := watcher.Deps.Moderation.Subscribers(); n != 1 {
			t.Fatalf("%d streams open, want 1", n)
		}
		s.cancel()
		apptest.WaitFor(t, "the handler to end when its client left", func() bool { return watcher.Deps.Moderation.Subscribers() == 0 })
	})
}

// TestQueueEventsEndOnShutdown: an open stream ends as the server shuts
// down (the feed closes as shutdown begins), so shutdown waits for no
// stream.
func TestQueueEventsEndOnShutdown(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	mod := app.User(t, "mod@example.com", models.RoleModerator)
	srv := httptest.NewUnstartedServer(app)
	srv.Config.RegisterOnShutdown(app.Deps.Moderation.Close)
	srv.Start()
	s := openStream(t, srv, app.SessionFor(t, mod.ID))
	s.expectQueue(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Config.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a stream open: %v", err)
	}
	select {
	case _, ok := <-s.events:
		if ok {
			t.Fatal("an event after shutdown")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream outlived the server")
	}
}

// TestClaimPost: a moderator claims a post; another sees "ana is
// reviewing" on the queue and cannot claim it (423: "ana is reviewing
// this post"); her release frees it; a plain user is refused; an unknown
// post is 404. htmx gets the row's claim note.
func TestClaimPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		newUser := func(name string, roles ...string) *models.User {
			u, err := app.Store.Users.CreateUser(ctx, models.NewUser{Email: name + "@example.com", Username: name, Roles: roles})
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		ana, bo, cy, dee := newUser("ana", models.RoleModerator), newUser("bo", models.RoleModerator), newUser("cy"), newUser("dee")
		newPostAs(t, app, cy.ID, "Cheap pills")
		pills := postByTitle(t, db, "Cheap pills")
		if res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(pills)), app.SessionFor(t, dee.ID), `{"reason":"spam"}`); res.Code != http.StatusCreated {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		anaH, boH := app.SessionFor(t, ana.ID), app.SessionFor(t, bo.ID)
		htmx := func(h http.Header) http.Header {
			h = h.Clone()
			h.Set("HX-Request", "true")
			return h
		}

		res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), anaH)
		var claimed api.V1Of[api.V1Claim]
		if err := json.Unmarshal(res.Body.Bytes(), &claimed); res.Code != http.StatusOK || err != nil ||
			claimed.Data.By.Username != "ana" || claimed.Data.PostID != itoa(pills) {
			t.Fatalf("ana claims: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), htmx(anaH)); res.Code != http.StatusOK ||
			!strings.Contains(res.Body.String(), `data-testid="claim-mine"`) {
			t.Fatalf("ana renews through htmx: %d %s", res.Code, res.Body)
		}
		queue := apptest.Do(t, app, "GET", api.PathConsoleModeration, htmx(boH)).Body.String()
		if !strings.Contains(queue, `data-claim-by>ana</span> is reviewing`) {
			t.Fatalf("bo's queue does not say ana is reviewing:\n%s", queue)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), htmx(boH)); res.Code != http.StatusLocked ||
			!strings.Contains(res.Body.String(), "ana is reviewing this post") {
			t.Fatalf("bo claims ana's post: %d, want 423 saying ana is reviewing it", res.Code)
		}
		if res := apptest.Do(t, app, "DELETE", api.ConsoleClaimPath(pills), boH); res.Code != http.StatusOK ||
			!strings.Contains(res.Body.String(), `"released":false`) {
			t.Fatalf("bo releases ana's claim: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", api.ConsoleClaimPath(pills), htmx(anaH)); res.Code != http.StatusOK ||
			!strings.Contains(res.Body.String(), `data-testid="claim"`) {
			t.Fatalf("ana releases through htmx: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), boH); res.Code != http.StatusOK {
			t.Fatalf("bo claims the freed post: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills), app.SessionFor(t, dee.ID)); res.Code != http.StatusForbidden {
			t.Fatalf("a plain user claims: %d, want 403", res.Code)
		}
		if res := apptest.Do(t, app, "POST", api.ConsoleClaimPath(pills+1000), anaH); res.Code != http.StatusNotFound {
			t.Fatalf("an unknown post: %d, want 404", res.Code)
		}
	})
}

// TestQueueBadge: every console page a moderator opens shows, beside
// "Moderation queue", how many posts await a decision, with words for
// screen readers; at zero the badge is hidden. Partials and JSON read no
// count.
func TestQueueBadge(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		mod := app.User(t, "mod@example.com", models.RoleModerator)
		author, reporter := app.User(t, "author@example.com"), app.User(t, "rep@example.com")
		page := func(path string) string {
			res := apptest.Do(t, app, "GET", path, withHeader(app.SessionFor(t, mod.ID), "Accept", "text/html"))
			if res.Code != http.StatusOK {
				t.Fatalf("%s: %d", path, res.Code)
			}
			return res.Body.String()
		}
		if p := page(api.PathConsole); !strings.Contains(p, `hidden data-queue-badge`) {
			t.Fatalf("no hidden badge at zero:\n%s", p)
		}
		for _, title := range []string{"One", "Two"} {
			newPostAs(t, app, author.ID, title)
			id := postByTitle(t, db, title)
			if res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(id)), app.SessionFor(t, reporter.ID), `{"reason":"spam"}`); res.Code != http.StatusCreated {
				t.Fatalf("report: %d %s", res.Code, res.Body)
			}
		}
		for _, path := range []string{api.PathConsole, api.PathConsoleModeration, api.PathConsoleInbox} {
			p := page(path)
			if !strings.Contains(p, `<span data-queue-count>2</span><span class="sr-only"> posts awaiting review</span>`) || strings.Contains(p, `hidden data-queue-badge`) {
				t.Errorf("%s: no badge saying 2 posts awaiting review", path)
			}
		}
		partial := apptest.Do(t, app, "GET", api.PathConsoleModeration, withHeader(app.SessionFor(t, mod.ID), "HX-Request", "true"))
		if strings.Contains(partial.Body.String(), "data-queue-badge") {
			t.Error("a partial carries the badge")
		}
	})
}

// TestQueueEventsOutliveServerTimeouts: a stream lasts past the server's
// read and write timeouts (a minute in production, a fraction of a second
// here), its heartbeats arriving all along.
func TestQueueEventsOutliveServerTimeouts(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.QueueHeartbeat = 20 * time.Millisecond })
	mod := app.User(t, "mod@example.com", models.RoleModerator)
	srv := httptest.NewUnstartedServer(app)
	srv.Config.ReadTimeout, srv.Config.WriteTimeout = 100*time.Millisecond, 100*time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	s := openStream(t, srv, app.SessionFor(t, mod.ID))
	s.expectQueue(t, 0)
	start := time.Now()
	for beats := 0; beats < 5 || time.Since(start) < 300*time.Millisecond; beats++ {
		s.expect(t, "comment")
	}
}
