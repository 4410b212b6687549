package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// holdSlot takes pw's one slot until the returned function is called.
func holdSlot(t *testing.T, pw *auth.Passwords) (release func()) {
	t.Helper()
	hold, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- pw.Do(context.Background(), func() { <-hold }) }()
	apptest.WaitFor(t, "the slot taken", func() bool { return pw.Running() == 1 })
	return func() {
		close(hold)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestSignInBusyAnswers503: while every argon2id slot is taken and the
// queue is full, sign-in answers 503 with Retry-After in its family's
// envelope instead of taking another 46 MiB; once a slot is free it
// answers as usual.
func TestSignInBusyAnswers503(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		pw := auth.NewPasswords(auth.PasswordLimits{Slots: 1, Queue: 0, Wait: time.Minute})
		app := apptest.New(t, db, func(d *web.Deps) { d.Passwords = pw })
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		release := holdSlot(t, pw)
		body := `{"email":"ada@example.com","password":"correct horse"}`
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, body)
		if res.Code != http.StatusServiceUnavailable || res.Header().Get("Retry-After") != "1" ||
			!strings.Contains(res.Body.String(), `{"error":{"code":"SERVER_ERROR","message":"The server is busy checking passwords; try again in a moment"}}`) {
			t.Errorf("with the slot taken: %d (Retry-After %q) %s", res.Code, res.Header().Get("Retry-After"), res.Body)
		}
		release()
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, body); res.Code != 200 {
			t.Errorf("with the slot free: %d %s", res.Code, res.Body)
		}
	})
}

// TestSignInCountsBeforeHashing: wrong passwords sent at once for one
// email are counted before argon2id runs, so no more of them are hashed
// than the throttle allows, however many arrive together; the rest are
// refused 429 without hashing.
func TestSignInCountsBeforeHashing(t *testing.T) {
	pw := auth.NewPasswords(auth.PasswordLimits{Slots: 1, Queue: 100, Wait: time.Minute})
	app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Passwords = pw })
	app.UserWithPassword(t, "ada@example.com", "correct horse")
	limit := app.Deps.Config.RateLimit.SignInByEmail
	const n = 30
	release := holdSlot(t, pw)
	codes := make(chan int, n)
	for range n {
		go func() {
			codes <- apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"wrong horse"}`).Code
		}()
	}
	apptest.WaitFor(t, "every attempt queued or refused", func() bool { return pw.Waiting()+len(codes) == n })
	release()
	got := map[int]int{}
	for range n {
		got[<-codes]++
	}
	if pw.Checks() > int64(limit) || got[429] != n-limit || got[401] != limit {
		t.Errorf("%d attempts at once: %d hashed, answers %v; want at most %d hashed, %d × 401 and the rest 429", n, pw.Checks(), got, limit, limit)
	}
}
