package handlers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// signInCookie signs email in with password, as one more device would,
// and returns the header carrying that device's session cookie.
func signInCookie(t *testing.T, app *apptest.App, email, password string) http.Header {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"`+email+`","password":"`+password+`"}`)
	if res.Code != 200 {
		t.Fatalf("sign in %s: %d %s", email, res.Code, res.Body)
	}
	return cookieHeader(sessionCookie(t, res.Result()))
}

// liveSessionsOf counts the user's sessions that have not ended.
func liveSessionsOf(t *testing.T, app *apptest.App, userID int64) int64 {
	t.Helper()
	n, err := app.Store.DB.NewSelect().Model((*models.Session)(nil)).
		Where("user_id = ? AND expiry > ?", userID, time.Now()).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// refusedAsAnyone checks that the old device's cookie signs nobody in:
// the session endpoint answers {} and a signed-in route answers 401.
func refusedAsAnyone(t *testing.T, app *apptest.App, cookie http.Header) {
	t.Helper()
	if s := apptest.Do(t, app, "GET", "/api/auth/session", cookie); strings.TrimSpace(s.Body.String()) != `{}` {
		t.Errorf("the deleted account's other device is signed in as: %s", s.Body)
	}
	wantError(t, apptest.Do(t, app, "GET", api.PathSessions, cookie), 401, api.CodeUnauthorized, "")
}

// A member deletes their account from one device; their other device's
// session must end with the account, and must never sign in whoever gets
// the next account (the next registrant, or an admin made as the CLI
// does), even where the database would hand out the same id again.
func TestDeletedAccountsOtherDeviceSignsNobodyIn(t *testing.T) {
	for _, next := range []string{"registrant", "cli admin"} {
		t.Run(next, func(t *testing.T) {
			dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
				app := apptest.New(t, db)
				res := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":"Ada","email":"ada@example.com","password":"long enough secret"}`)
				if res.Code != http.StatusCreated {
					t.Fatalf("register: %d %s", res.Code, res.Body)
				}
				ada := decodeAs[api.User](t, res)
				laptop := signInCookie(t, app, "ada@example.com", "long enough secret")
				phone := signInCookie(t, app, "ada@example.com", "long enough secret")

				res = apptest.DoBody(t, app, "DELETE", "/api/users/"+ada.ID, laptop, `{"password":"long enough secret"}`)
				if res.Code != 200 {
					t.Fatalf("delete own account: %d %s", res.Code, res.Body)
				}
				id := mustID(t, ada.ID)
				if n := liveSessionsOf(t, app, id); n != 0 {
					t.Errorf("%d sessions of the deleted account still live, want every one ended with it", n)
				}

				var newID int64
				if next == "registrant" {
					res = apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":"Bob","email":"bob@example.com","password":"another long secret"}`)
					if res.Code != http.StatusCreated {
						t.Fatalf("register the next account: %d %s", res.Code, res.Body)
					}
					newID = mustID(t, decodeAs[api.User](t, res).ID)
				} else {
					newID = app.UserWithPassword(t, "root@example.com", "another long secret", access.ImpliedRoles(access.RoleSuperAdmin)...).ID
				}
				if newID <= id {
					t.Errorf("the next account has id %d, not above the deleted account's %d", newID, id)
				}
				refusedAsAnyone(t, app, phone)
				refusedAsAnyone(t, app, laptop)
			})
		})
	}
}

// An admin deletes a spammer signed in on two devices: both sessions end
// in the deletion, and neither signs in the next registrant.
func TestAdminDeletedAccountsSessionsSignNobodyIn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		adminH, _ := app.Admin(t)
		spammer := app.UserWithPassword(t, "spam@example.com", "long enough secret")
		one := signInCookie(t, app, "spam@example.com", "long enough secret")
		two := signInCookie(t, app, "spam@example.com", "long enough secret")
		if res := apptest.Do(t, app, "DELETE", "/api/users/"+itoa(spammer.ID), adminH); res.Code != 200 {
			t.Fatalf("admin deleting the spammer: %d %s", res.Code, res.Body)
		}
		if n := liveSessionsOf(t, app, spammer.ID); n != 0 {
			t.Errorf("%d sessions of the deleted account still live, want both ended with it", n)
		}
		res := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":"Bob","email":"bob@example.com","password":"another long secret"}`)
		if res.Code != http.StatusCreated {
			t.Fatalf("register the next account: %d %s", res.Code, res.Body)
		}
		if got := mustID(t, decodeAs[api.User](t, res).ID); got <= spammer.ID {
			t.Errorf("the next account has id %d, not above the deleted account's %d", got, spammer.ID)
		}
		refusedAsAnyone(t, app, one)
		refusedAsAnyone(t, app, two)
	})
}

// Deactivating an account ends its sessions and revokes its tokens in the
// same change, at the versioned admin door and in a bulk update alike.
func TestDeactivationEndsSessionsAndTokens(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		rootH, _ := app.Admin(t)
		for _, door := range []string{"one", "bulk"} {
			mod := app.UserWithPassword(t, door+"@example.com", "long enough secret", access.RoleAdmin)
			session := app.SessionFor(t, mod.ID)
			tokenH, jti := app.TokenFor(t, mod.ID, access.PermAdminRead)
			res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/users/"+itoa(mod.ID), rootH, `{"status":"inactive"}`)
			if door == "bulk" {
				res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", rootH,
					`{"userIds":["`+itoa(mod.ID)+`"],"changes":{"status":"inactive"}}`)
			}
			if res.Code != 200 {
				t.Fatalf("%s: deactivate: %d %s", door, res.Code, res.Body)
			}
			if n := liveSessionsOf(t, app, mod.ID); n != 0 {
				t.Errorf("%s: %d sessions live after deactivation", door, n)
			}
			tok, err := app.Store.Auth.APITokenByJTI(context.Background(), jti)
			if err != nil {
				t.Fatal(err)
			}
			if tok.RevokedAt == nil {
				t.Errorf("%s: the deactivated account's token is not revoked", door)
			}
			if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", tokenH); res.Code != http.StatusUnauthorized {
				t.Errorf("%s: the deactivated account's token got %d, want 401", door, res.Code)
			}
			refusedAsAnyone(t, app, session)
		}
	})
}

// A browser's device cookie vouches for the account it was made for, not
// for whoever registers the email after that account is deleted: past the
// per-email ceiling, the old browser is refused like any unknown one.
func TestDeletedAccountsDeviceCookieVouchesForNobody(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.RateLimit.SignInByEmailTotal = 3 })
		register := `{"name":"Ada","email":"ada@example.com","password":"long enough secret"}`
		res := sendFrom(t, app, office, "POST", "/api/users", nil, register)
		if res.Code != http.StatusCreated {
			t.Fatalf("register: %d %s", res.Code, res.Body)
		}
		ada := decodeAs[api.User](t, res)
		res = sendFrom(t, app, office, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"long enough secret"}`)
		old := http.Header{"Cookie": {"plaza_device=" + deviceCookie(res.Result())}}
		if res.Code != 200 || old.Get("Cookie") == "plaza_device=" {
			t.Fatalf("sign in: %d, device cookie %q", res.Code, old.Get("Cookie"))
		}
		session := cookieHeader(sessionCookie(t, res.Result()))
		if res := apptest.DoBody(t, app, "DELETE", "/api/users/"+ada.ID, session, `{"password":"long enough secret"}`); res.Code != 200 {
			t.Fatalf("delete: %d %s", res.Code, res.Body)
		}
		// Someone else registers the email, and strangers spend its ceiling.
		if res := sendFrom(t, app, home, "POST", "/api/users", nil, `{"name":"Eve","email":"ada@example.com","password":"another long secret"}`); res.Code != http.StatusCreated {
			t.Fatalf("register the email again: %d %s", res.Code, res.Body)
		}
		wrong := `{"email":"ada@example.com","password":"a wrong guess here"}`
		for i := range 3 {
			if res := sendFrom(t, app, "203.0.113."+strconv.Itoa(20+i), "POST", "/api/auth/signin", nil, wrong); res.Code != 401 {
				t.Fatalf("failure %d: %d", i+1, res.Code)
			}
		}
		if res := sendFrom(t, app, attacker, "POST", "/api/auth/signin", old, wrong); res.Code != http.StatusTooManyRequests {
			t.Errorf("the deleted account's browser past the new account's ceiling: %d, want 429", res.Code)
		}
	})
}
