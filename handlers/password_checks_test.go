package handlers_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestOwnAccountDeletionSharesTheThrottle: deleting one's own account
// checks the password like every other route that does: a wrong one
// counts against sign-in's failure throttle for the email, together with
// failed sign-ins, and a spent window answers 429 before any check. Before,
// DELETE /api/users/{own id} compared passwords without limit.
func TestOwnAccountDeletionSharesTheThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada := app.UserWithPassword(t, "ada@example.com", "correct horse")
		session := app.SessionFor(t, ada.ID)
		path := "/api/users/" + strconv.FormatInt(ada.ID, 10)
		for i := range 5 {
			if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"bad"}`); res.Code != 401 {
				t.Fatalf("failed sign-in %d: got %d %s", i+1, res.Code, res.Body)
			}
		}
		for i := range 5 {
			if res := apptest.DoBody(t, app, "DELETE", path, session, `{"password":"bad guess `+strconv.Itoa(i)+`"}`); res.Code != 422 || !strings.Contains(res.Body.String(), `"password"`) {
				t.Fatalf("wrong password %d: got %d %s, want 422 on password", i+1, res.Code, res.Body)
			}
		}
		res := apptest.DoBody(t, app, "DELETE", path, session, `{"password":"correct horse"}`)
		if res.Code != 429 || res.Header().Get("Retry-After") == "" || !strings.Contains(res.Body.String(), `"RATE_LIMITED"`) {
			t.Errorf("after 10 failures: got %d %s, want 429 with Retry-After", res.Code, res.Body)
		}
		if _, err := app.Store.Users.UserByID(context.Background(), ada.ID); err != nil {
			t.Errorf("the account is gone: %v", err)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`); res.Code != 429 {
			t.Errorf("sign-in after the deletion's failures: got %d, want 429", res.Code)
		}
	})
}

// TestCodesCountBeforeTheyAreChecked: a code given to turn two-factor
// sign-in on counts against sign-in's failure throttle before it is
// checked, as passwords do, through the one confirmation check. With one
// try left, of wrong codes sent together exactly one is checked (422,
// audited as a failed code) and the others are refused 429 unchecked.
// Before, the two-factor doors looked at the window, checked the code and
// counted it after, unaudited: codes sent together were all checked
// against a window with one try left.
func TestCodesCountBeforeTheyAreChecked(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse")
		session := app.SessionFor(t, u.ID)
		res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/setup", session, setupBody)
		var setup struct{ Secret string }
		if res.Code != 200 || json.Unmarshal(res.Body.Bytes(), &setup) != nil {
			t.Fatalf("setup: %d %s", res.Code, res.Body)
		}
		for i := range app.Deps.Config.RateLimit.SignInByEmail - 1 {
			if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"bad"}`); res.Code != 401 {
				t.Fatalf("failed sign-in %d: got %d %s", i+1, res.Code, res.Body)
			}
		}
		const tries = 8
		codes := make(chan int, tries)
		var wg sync.WaitGroup
		for range tries {
			wg.Go(func() {
				res := apptest.DoBody(t, app, "POST", "/api/auth/2fa/enable", session, `{"code":"`+wrongCode(t, setup.Secret, clock.Now())+`"}`)
				codes <- res.Code
			})
		}
		wg.Wait()
		close(codes)
		got := map[int]int{}
		for c := range codes {
			got[c]++
		}
		if got[422] != 1 || got[429] != tries-1 {
			t.Errorf("answers %v, want one 422 and %d 429", got, tries-1)
		}
		checked := 0
		for _, e := range app.AuditEntries(t) {
			if e.Action == "two_factor.enable" && e.Details["failed"] == "code" {
				checked++
			}
		}
		if checked != 1 {
			t.Errorf("%d codes were checked, want 1 (the one try left)", checked)
		}
	})
}
