package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// staffLimitsApp is the app on a clock the test moves, with staff
// sessions at their default limits (12 hours, 30 minutes idle).
func staffLimitsApp(t *testing.T, db *bun.DB) (*apptest.App, *testClock) {
	t.Helper()
	clock := &testClock{now: time.Now().UTC().Truncate(time.Second)}
	app := apptest.New(t, db, func(d *web.Deps) { d.Now = clock.Now; d.Store.Now = clock.Now })
	if l := app.Deps.Config.StaffSession; l.Lifetime != 12*time.Hour || l.Idle != 30*time.Minute {
		t.Fatalf("staff session limits %+v, want the defaults", l)
	}
	return app, clock
}

// signedInAs signs email in with its password and returns the cookie
// header, the session cookie and the answer's expires.
func signedInAs(t *testing.T, app *apptest.App, email string) (http.Header, *http.Cookie, time.Time) {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"`+email+`","password":"correct horse battery"}`)
	var got struct{ Expires time.Time }
	if err := json.Unmarshal(res.Body.Bytes(), &got); res.Code != http.StatusOK || err != nil {
		t.Fatalf("sign-in of %s: %d %s", email, res.Code, res.Body)
	}
	for _, c := range res.Result().Cookies() {
		if c.Name == "plaza_session" {
			return http.Header{"Cookie": {c.Name + "=" + c.Value}}, c, got.Expires
		}
	}
	t.Fatalf("sign-in of %s set no session cookie", email)
	return nil, nil, time.Time{}
}

// stillSignedIn asks who the session is: true while it signs its user in.
func stillSignedIn(t *testing.T, app *apptest.App, h http.Header, email string) bool {
	t.Helper()
	return strings.Contains(apptest.Do(t, app, "GET", "/api/auth/session", h).Body.String(), email)
}

// TestStaffSessionLimits: a moderator's session ends after 30 minutes
// without a request and 12 hours after sign-in however active, while a
// member's keeps 24 hours idle and 7 days in all; the staff session's
// cookie and its answer's expires end with those 12 hours. Before, staff
// sessions lasted a member's 7 days (24 hours idle) in a cookie as long.
// Both databases, on a clock the test moves.
func TestStaffSessionLimits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := staffLimitsApp(t, db)
		app.UserWithPassword(t, "mod@example.com", "correct horse battery", access.RoleModerator)
		app.UserWithPassword(t, "amy@example.com", "correct horse battery")

		signIn := clock.Now()
		mod, cookie, expires := signedInAs(t, app, "mod@example.com")
		if want := signIn.Add(12 * time.Hour); !expires.Equal(want) || cookie.Expires.Sub(want) < 0 || cookie.Expires.Sub(want) > 2*time.Second {
			t.Errorf("a moderator's sign-in: expires %v, cookie expires %v; want both at %v", expires, cookie.Expires, want)
		}
		member, cookie, expires := signedInAs(t, app, "amy@example.com")
		if want := signIn.Add(7 * 24 * time.Hour); !expires.Equal(want) || cookie.Expires.Sub(want) < 0 || cookie.Expires.Sub(want) > 2*time.Second {
			t.Errorf("a member's sign-in: expires %v, cookie expires %v; want both at %v", expires, cookie.Expires, want)
		}

		clock.Add(29 * time.Minute)
		if !stillSignedIn(t, app, mod, "mod@example.com") || !stillSignedIn(t, app, member, "amy@example.com") {
			t.Fatal("signed out after 29 minutes idle")
		}
		clock.Add(31 * time.Minute)
		if stillSignedIn(t, app, mod, "mod@example.com") {
			t.Error("a moderator's session idle 31 minutes still signs in")
		}
		if !stillSignedIn(t, app, member, "amy@example.com") {
			t.Error("a member's session idle 31 minutes was ended")
		}

		signIn = clock.Now()
		mod, _, _ = signedInAs(t, app, "mod@example.com")
		member, _, _ = signedInAs(t, app, "amy@example.com")
		for i := range 12 * 3 { // a request every 20 minutes, the last at 11h59m
			clock.Add(20 * time.Minute)
			if i == 12*3-1 {
				clock.Add(-time.Minute)
			}
			if !stillSignedIn(t, app, mod, "mod@example.com") {
				t.Fatalf("an active moderator signed out %v after sign-in", clock.Now().Sub(signIn))
			}
			stillSignedIn(t, app, member, "amy@example.com")
		}
		clock.Add(2 * time.Minute)
		if stillSignedIn(t, app, mod, "mod@example.com") {
			t.Error("an active moderator's session 12h1m old still signs in")
		}
		if !stillSignedIn(t, app, member, "amy@example.com") {
			t.Error("an active member's session 12h1m old was ended")
		}
	})
}

// TestPromotionBringsStaffLimits: a member promoted to moderator mid-session
// is held to the staff limits from the next request on, counted from the
// sign-in: an active session 13 hours old ends at once, one 20 minutes
// old is kept 30 minutes past its last request, and ends after 30 minutes
// idle. Both databases.
func TestPromotionBringsStaffLimits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := staffLimitsApp(t, db)
		boss := app.User(t, "boss@example.com", access.RoleAdmin)
		old := app.UserWithPassword(t, "old@example.com", "correct horse battery")
		young := app.UserWithPassword(t, "young@example.com", "correct horse battery")
		promote := func(u *models.User) {
			t.Helper()
			err := app.Store.Change(context.Background(), func(ctx context.Context) error {
				return app.Store.Users.UpdateUserAsAdmin(ctx, u.ID, boss.ID, models.UserAdminChange{Roles: []string{access.RoleModerator}})
			})
			if err != nil {
				t.Fatal(err)
			}
		}

		oldSession, _, _ := signedInAs(t, app, "old@example.com")
		for range 13 * 3 {
			clock.Add(20 * time.Minute)
			if !stillSignedIn(t, app, oldSession, "old@example.com") {
				t.Fatalf("an active member signed out after %v", 13*time.Hour)
			}
		}
		youngSession, _, _ := signedInAs(t, app, "young@example.com")
		clock.Add(20 * time.Minute)
		if !stillSignedIn(t, app, oldSession, "old@example.com") || !stillSignedIn(t, app, youngSession, "young@example.com") {
			t.Fatal("active members signed out")
		}
		promote(old)
		promote(young)
		clock.Add(time.Minute) // past the few seconds callers are remembered
		if stillSignedIn(t, app, oldSession, "old@example.com") {
			t.Error("a session 13 hours old still signs in after its member became a moderator")
		}
		if !stillSignedIn(t, app, youngSession, "young@example.com") {
			t.Fatal("a session 20 minutes old ended when its member became a moderator")
		}
		var expiry time.Time
		if err := db.NewSelect().TableExpr("sessions").Column("expiry").Where("user_id = ?", young.ID).
			Where("expiry > ?", clock.Now()).Scan(context.Background(), &expiry); err != nil {
			t.Fatal(err)
		}
		if want := clock.Now().Add(30 * time.Minute); !expiry.UTC().Equal(want) {
			t.Errorf("the promoted session is kept until %v, want %v (30 minutes idle)", expiry.UTC(), want)
		}
		clock.Add(31 * time.Minute)
		if stillSignedIn(t, app, youngSession, "young@example.com") {
			t.Error("a promoted member's session idle 31 minutes still signs in")
		}
	})
}
