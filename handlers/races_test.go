package handlers_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// racers is how many requests each race test fires at once: -racers=4
// for a quick run under -race -count=50, more for a harder one.
var racers = flag.Int("racers", 16, "how many requests each race test fires at once")

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
		if body != "" && req.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json") // as apptest.DoBody
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

// raceApp is the app with limits that let *racers through: registrations
// and sign-ins not held back per address or email, and as many password slots and queue places
// as a race needs (argon2id's bound would otherwise answer 503 busy).
func raceApp(t *testing.T, db *bun.DB) *apptest.App {
	return apptest.New(t, db, func(d *web.Deps) {
		l := &d.Config.RateLimit
		l.Register, l.SignInByEmail, l.SignInByIP, l.SignInByEmailTotal = 1<<20, 1<<20, 1<<20, 1<<20
		d.Passwords = auth.NewPasswords(auth.PasswordLimits{Slots: 4, Queue: *racers, Wait: time.Minute})
	})
}

// TestRacingSignUps: sign-ups with one display name at once all succeed
// (201), each with a username of its own derived from the name; sign-ups
// with one email at once open one account, the rest are told the email is
// taken (422), as a sign-up after it would be. Nothing answers 5xx.
func TestRacingSignUps(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		rs := race(t, app, *racers, func(i int) (string, string, http.Header, string) {
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
		if n, _ := app.Store.Users.CountUsers(context.Background()); n != *racers {
			t.Errorf("%d users, want %d", n, *racers)
		}

		rs = race(t, app, *racers, func(i int) (string, string, http.Header, string) {
			return "POST", "/api/users", nil, fmt.Sprintf(`{"name":"Grace %d","email":"grace@example.com","password":"long enough secret"}`, i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusUnprocessableEntity] != *racers-1 {
			t.Errorf("one email at once: %v, want one 201 and %d 422", got, *racers-1)
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
		rs := race(t, app, *racers, func(i int) (string, string, http.Header, string) {
			return "PUT", "/api/v1/admin/feature-flags/raced_flag", super, fmt.Sprintf(`{"rolloutPercentage":%d}`, i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusOK] != *racers-1 {
			t.Errorf("answers %v, want one 201 and %d 200", got, *racers-1)
		}
		flags, err := app.Store.Settings.FeatureFlags(context.Background())
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
		if entries != *racers || creations != 1 {
			t.Errorf("%d audit entries, %d without a before; want %d and 1", entries, creations, *racers)
		}
		last := flags[0].RolloutPercentage
		if last < 0 || last >= *racers {
			t.Errorf("rollout %d: not one of the puts", last)
		}
	})
}

// successes counts the audit entries of action that a request with a 2xx
// answer wrote.
func successes(t *testing.T, app *apptest.App, action string) int {
	t.Helper()
	n := 0
	for _, e := range app.AuditEntries(t) {
		if e.Action == action && e.Status < 300 {
			n++
		}
	}
	return n
}

// TestRacingBlocks: creations of one block at once store it once: one
// answers 201, the rest 409 CONFLICT as a creation after it would, and one
// successful creation is audited.
func TestRacingBlocks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		super, _ := app.Admin(t)
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "POST", "/api/v1/admin/blocks", super, `{"kind":"email_domain","value":"raced.example"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusConflict] != *racers-1 {
			t.Errorf("answers %v, want one 201 and %d 409", got, *racers-1)
		}
		for _, r := range rs {
			if r.status == http.StatusConflict && !strings.Contains(r.body, `"code":"CONFLICT"`) {
				t.Errorf("409 without its code: %s", r.body)
			}
		}
		if n := successes(t, app, "block.create"); n != 1 {
			t.Errorf("%d successful block.create entries, want 1", n)
		}
	})
}

// TestRacingReports: one person's reports of one post at once open one
// report; the rest are refused (422) as a second report is.
func TestRacingReports(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		author := app.User(t, "author@example.com")
		post := writePost(t, app, app.SessionFor(t, author.ID), `{"title":"Runner beans","content":"Beans up the poles.","published":true}`)
		reporter := app.SessionFor(t, app.User(t, "reporter@example.com").ID)
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "POST", "/api/posts/" + post.ID + "/report", reporter, `{"reason":"spam"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusUnprocessableEntity] != *racers-1 {
			t.Errorf("answers %v, want one 201 and %d 422", got, *racers-1)
		}
	})
}

// TestRacingPosts: posts written at once, their titles the same new words
// in different orders, are all stored (the search words they teach are
// learnt once, whichever commits first).
func TestRacingPosts(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		words := []string{"zucchini", "kohlrabi", "celeriac", "salsify", "romanesco", "samphire"}
		sessions := make([]http.Header, *racers)
		for i := range sessions {
			sessions[i] = app.SessionFor(t, app.User(t, fmt.Sprintf("writer%d@example.com", i)).ID)
		}
		rs := race(t, app, *racers, func(i int) (string, string, http.Header, string) {
			title := make([]string, len(words))
			for j := range words {
				title[j] = words[(i+j*(i%2*2-1)+len(words)*(*racers))%len(words)]
			}
			return "POST", "/api/posts", sessions[i], fmt.Sprintf(`{"title":%q,"content":"Grown here.","tags":["veg","%d"],"published":true}`, strings.Join(title, " "), i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != *racers {
			t.Errorf("answers %v, want %d 201", got, *racers)
		}
	})
}

// TestRacingPostEdits: edits of one post's tags at once all apply, one
// after another: each answers 200 and the post keeps one edit's tags.
func TestRacingPostEdits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		author := app.SessionFor(t, app.User(t, "author@example.com").ID)
		post := writePost(t, app, author, `{"title":"Runner beans","content":"Beans up the poles.","tags":["a","b"],"published":true}`)
		rs := race(t, app, *racers, func(i int) (string, string, http.Header, string) {
			return "PUT", "/api/posts/" + post.ID, author, fmt.Sprintf(`{"tags":["b","c","t%d"]}`, i)
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusOK] != *racers {
			t.Errorf("answers %v, want %d 200", got, *racers)
		}
		res := apptest.Do(t, app, "GET", "/api/posts/"+post.ID, author)
		if got := decodeAs[api.Post](t, res); len(got.Tags) != 3 {
			t.Errorf("tags %v, want one edit's three", got.Tags)
		}
	})
}

// TestRacingPostDeletes: deletes of one post at once remove it once: one
// answers 200, the rest 404 as a delete after it would, and the author's
// post count drops by one. Before, every delete that waited for the first
// counted the post out again (PostgreSQL).
func TestRacingPostDeletes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		author := app.SessionFor(t, app.User(t, "author@example.com").ID)
		writePost(t, app, author, `{"title":"Kept","content":"Stays.","published":true}`)
		post := writePost(t, app, author, `{"title":"Runner beans","content":"Beans up the poles.","published":true}`)
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "DELETE", "/api/posts/" + post.ID, author, ""
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusOK] != 1 || got[http.StatusNotFound] != *racers-1 {
			t.Errorf("answers %v, want one 200 and %d 404", got, *racers-1)
		}
		checkCounters(t, app)
	})
}

// TestRacingTwoFactorSetups: setups by one person at once each replace the
// pending enrolment, as one after another would: all answer 200, one
// enrolment is left.
func TestRacingTwoFactorSetups(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		u := app.UserWithPassword(t, "enrolling@example.com", "correct horse")
		session := app.SessionFor(t, u.ID)
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "POST", "/api/auth/2fa/setup", session, `{"password":"correct horse"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusOK] != *racers {
			t.Errorf("answers %v, want %d 200", got, *racers)
		}
		n, err := db.NewSelect().Table("user_two_factor").Where("user_id = ?", u.ID).Count(context.Background())
		if err != nil || n != 1 {
			t.Errorf("%d enrolments (%v), want 1", n, err)
		}
	})
}

// TestRacingMaintenance: one maintenance action queued at once is queued
// once: one 202, the rest 409 CONFLICT (one of that action at a time).
func TestRacingMaintenance(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		super, _ := app.Admin(t)
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "POST", "/api/v1/admin/system/maintenance", super, `{"action":"rebuild_search","scope":"posts"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusAccepted] < 1 || got[http.StatusAccepted]+got[http.StatusConflict] != *racers {
			t.Errorf("answers %v, want 202 then 409 for those that found it queued", got)
		}
	})
}

// TestRacingSignIns: sign-ins of one person at once all succeed, each
// with a session of its own, and all are counted.
func TestRacingSignIns(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse")
		rs := race(t, app, *racers, func(int) (string, string, http.Header, string) {
			return "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusOK] != *racers {
			t.Errorf("answers %v, want %d 200", got, *racers)
		}
		got, err := app.Store.Users.UserByID(context.Background(), u.ID)
		if err != nil || got.LoginCount != *racers {
			t.Errorf("login count %v (%v), want %d", got, err, *racers)
		}
	})
}

// TestRacingLocks: admins taking one lock at once: one holds it (201),
// the rest are told who does (423), as one after another would be.
func TestRacingLocks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		admins := make([]http.Header, *racers)
		for i := range admins {
			admins[i] = app.SessionFor(t, app.User(t, fmt.Sprintf("admin%d@example.com", i), access.ImpliedRoles(access.RoleSuperAdmin)...).ID)
		}
		rs := race(t, app, *racers, func(i int) (string, string, http.Header, string) {
			return "POST", "/api/v1/admin/locks", admins[i], `{"type":"post","id":"41"}`
		})
		wantNo5xx(t, rs)
		if got := statuses(rs); got[http.StatusCreated] != 1 || got[http.StatusLocked] != *racers-1 {
			t.Errorf("answers %v, want one 201 and %d 423", got, *racers-1)
		}
	})
}

// TestRacingRepeatedCreates: creations with no uniqueness rule (tokens of
// one name, notes, webhooks of one URL) and a put of the whole reasons
// list, each sent many times at once, all succeed as they would one after
// another, each audited once.
func TestRacingRepeatedCreates(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := raceApp(t, db)
		super, _ := app.Admin(t)
		noted := app.User(t, "noted@example.com")
		for _, tt := range []struct{ action, method, target, body string }{
			{"token.create", "POST", "/api/v1/admin/tokens", `{"permissions":["admin:read"],"ttl":"1h","name":"raced"}`},
			{"user.note", "POST", "/api/v1/admin/users/" + itoa(noted.ID) + "/notes", `{"body":"Mind the tone","kind":"warning"}`},
			{"webhook.create", "POST", "/api/v1/admin/webhooks", `{"url":"https://hooks.invalid/plaza","events":["user.banned"]}`},
			{"moderation_reasons.update", "PUT", "/api/v1/admin/moderation/reasons", `{"reasons":["Spam","Off topic"]}`},
		} {
			t.Run(tt.action, func(t *testing.T) {
				rs := race(t, app, *racers, func(int) (string, string, http.Header, string) { return tt.method, tt.target, super, tt.body })
				wantNo5xx(t, rs)
				for i, r := range rs {
					if r.status/100 != 2 {
						t.Errorf("request %d: %d %s", i, r.status, r.body)
					}
				}
				if n := successes(t, app, tt.action); n != *racers {
					t.Errorf("%d successful %s entries, want %d", n, tt.action, *racers)
				}
			})
		}
	})
}
