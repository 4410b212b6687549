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
			u, err := app.Store.CreateUser(ctx, models.NewUser{Email: name + "@example.com", Username: name, Roles: roles})
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
