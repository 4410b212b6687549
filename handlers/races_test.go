package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// racers is how many requests each race test fires at once.
const racers = 16

// raced is one answer of a race: its status and body.
type raced struct {
	status int
	body   string
}

// race serves app on a real listener and sends n requests at once: each
// goroutine builds and connects its request, then all wait on one channel
// and go together, so they reach the database as close together as the
// server lets them. It returns the answers in request order.
func race(t *testing.T, app *apptest.App, n int, build func(i int) (method, target string, header http.Header, body string)) []raced {
	t.Helper()
	srv := httptest.NewServer(app)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}, Timeout: time.Minute}
	defer client.CloseIdleConnections()
	out := make([]raced, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		method, target, header, body := build(i)
		req, err := http.NewRequest(method, srv.URL+target, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header.Clone()
		if req.Header == nil {
			req.Header = http.Header{}
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := client.Do(req)
			if err != nil {
				out[i] = raced{status: -1, body: err.Error()}
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			out[i] = raced{status: res.StatusCode, body: string(b)}
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// statuses counts the answers by status.
func statuses(rs []raced) map[int]int {
	n := map[int]int{}
	for _, r := range rs {
		n[r.status]++
	}
	return n
}

// wantNo5xx fails the test for every answer of 500 and above, with its body.
func wantNo5xx(t *testing.T, rs []raced) {
	t.Helper()
	for i, r := range rs {
		if r.status >= 500 || r.status < 0 {
			t.Errorf("request %d answered %d %s", i, r.status, r.body)
		}
	}
}

// raceApp is the app with limits that let racers through: registrations
// not held back per address, and as many password slots and queue places
// as a race needs (argon2id's bound would otherwise answer 503 busy).
func raceApp(t *testing.T, db *bun.DB) *apptest.App {
	return apptest.New(t, db, func(d *web.Deps) {
		d.Config.RateLimit.Register = 1 << 20
		d.Passwords = auth.NewPasswords(auth.PasswordLimits{Slots: 4, Queue: racers, Wait: time.Minute})
	})
}

// TestRacingSignUps: sign-ups with one display name at once all succeed
// (201), each with a username of its own derived from the name; sign-ups
// with one email at once open one account, the rest are told the email is
// taken (422), as a sign-up after it would be. Nothing answers 5xx.
func TestRacingSignUps(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		rs := race(t, app, racers, func(i int) (string, string, http.Header, string) {
			return "POST", "/api/users", nil, fmt.Sprintf(`{"name":"Ada Lovelace","email":"ada%d@example.com","password":"long enough secret"}`, i)
		})
		wantNo5xx(t, rs)
		names := map[string]bool{}
		for i, r := range rs {
			var u struct{ Username string }
			json.Unmarshal([]byte(r.body), &u)
			if r.status != http.StatusCreated || !strings.HasPrefix(u.Username, "ada") || names[u.Username] {
				t.Errorf("sign-up %d: %d %s (want 201 with a username of its own)", i, r.status, r.body)
			}
			names[u.Username] = true
		}
		if n, _ := app.Store.CountUsers(context.Background()); n != racers {
			t.Errorf("%d users, want %d", n, racers)
		}

		rs = race(t, app, racers, func(i int) (string, string, http.Header, string) {
			return "POST", "/api/users", nil, fmt.Sprintf(`{"name":"Grace %d","email":"grace@example.com","password":"long enough secret"}`, i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusUnprocessableEntity] != racers-1 {
			t.Errorf("one email at once: %v, want one 201 and %d 422", got, racers-1)
		}
		for _, r := range rs {
			if r.status == http.StatusUnprocessableEntity && !strings.Contains(r.body, `"field":"email"`) {
				t.Errorf("refusal without the email: %s", r.body)
			}
		}
	})
}

// TestRacingFlagCreation: puts of one new flag at once create it once:
// exactly one answers 201, the rest 200 with the flag as they left it,
// and each writes one audit entry, the creation's without a before.
func TestRacingFlagCreation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		super, _ := app.Admin(t)
		rs := race(t, app, racers, func(i int) (string, string, http.Header, string) {
			return "PUT", "/api/v1/admin/feature-flags/raced_flag", super, fmt.Sprintf(`{"rolloutPercentage":%d}`, i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusOK] != racers-1 {
			t.Errorf("answers %v, want one 201 and %d 200", got, racers-1)
		}
		flags, err := app.Store.FeatureFlags(context.Background())
		if err != nil || len(flags) != 1 {
			t.Fatalf("flags %v %v, want one", flags, err)
		}
		var entries, creations int
		for _, e := range app.AuditEntries(t) {
			if e.Action == "feature_flag.update" && e.TargetID == "raced_flag" {
				entries++
				if _, ok := e.Details["before"]; !ok {
					creations++
				}
			}
		}
		if entries != racers || creations != 1 {
			t.Errorf("%d audit entries, %d without a before; want %d and 1", entries, creations, racers)
		}
		last := flags[0].RolloutPercentage
		if last < 0 || last >= racers {
			t.Errorf("rollout %d: not one of the puts", last)
		}
	})
}

