package handlers_test

import (
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAdminReadTokenOnlyReads: a token minted admin:read reads admin data
// and nothing else. As its admin it neither writes, edits nor deletes
// posts, rewrites or deletes the profile, files reports, marks
// notifications, nor lists the admin's sessions with their addresses or
// reads the admin's inbox and email: acting as one's own user takes the
// account scopes (account:read, account:write).
func TestAdminReadTokenOnlyReads(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		_, adaH := userWith(t, app, "ada@example.com")
		own := writePost(t, app, adminH, `{"title":"The admin's","content":"x","published":true}`)
		ada := writePost(t, app, adaH, `{"title":"Ada's","content":"x","published":true}`)
		tok, _ := app.TokenFor(t, admin.ID, access.PermAdminRead)
		me := "/api/users/" + itoa(admin.ID)

		for _, c := range []struct{ method, path, body string }{
			{"POST", "/api/posts", `{"title":"By a read token","content":"x","published":true}`},
			{"PUT", "/api/posts/" + own.ID, `{"title":"Rewritten by a read token"}`},
			{"PUT", "/api/posts/" + own.ID, `{"published":false}`},
			{"DELETE", "/api/posts/" + own.ID, ``},
			{"PUT", me, `{"bio":"rewritten by a read token"}`},
			{"DELETE", me, `{"password":"long enough secret"}`},
			{"POST", "/api/posts/" + ada.ID + "/report", `{"reason":"spam"}`},
			{"GET", "/api/auth/sessions", ``},
			{"GET", "/api/notifications", ``},
		} {
			if res := apptest.DoBody(t, app, c.method, c.path, tok, c.body); res.Code != 403 {
				t.Errorf("an admin:read token, %s %s: %d %s; want 403", c.method, c.path, res.Code, res.Body)
			}
		}
		if res := apptest.Do(t, app, "GET", me, tok); res.Code != 200 || strings.Contains(res.Body.String(), admin.Email) {
			t.Errorf("an admin:read token reading its admin's profile: %d %s; want the public profile", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/posts/"+own.ID, adaH); res.Code != 200 || !strings.Contains(res.Body.String(), "The admin's") {
			t.Errorf("the admin's post after the read token's tries: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users/"+itoa(admin.ID), tok); res.Code != 200 {
			t.Errorf("the admin:read token reading admin data: %d %s", res.Code, res.Body)
		}
	})
}

// TestAccountScopesBoundAToken: account:write acts as the user (posts,
// reports, profile) and account:read reads its own private data (email,
// drafts, sessions, inbox); each only what it names.
func TestAccountScopesBoundAToken(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		u, h := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		bobs := writePost(t, app, bobH, `{"title":"Bob's","content":"x","published":true}`)
		draft := writePost(t, app, h, `{"title":"Ada's draft","content":"x"}`)
		write, _ := app.TokenFor(t, u.ID, "account:write")
		read, _ := app.TokenFor(t, u.ID, "account:read")
		me := "/api/users/" + itoa(u.ID)

		for _, c := range []struct{ method, path, body string }{
			{"POST", "/api/posts", `{"title":"By a write token","content":"x","published":true}`},
			{"PUT", "/api/posts/" + draft.ID, `{"title":"Retitled"}`},
			{"PUT", me, `{"bio":"written by a token"}`},
			{"POST", "/api/posts/" + bobs.ID + "/report", `{"reason":"spam"}`},
		} {
			if res := apptest.DoBody(t, app, c.method, c.path, write, c.body); res.Code/100 != 2 {
				t.Errorf("an account:write token, %s %s: %d %s", c.method, c.path, res.Code, res.Body)
			}
			if res := apptest.DoBody(t, app, c.method, c.path, read, c.body); res.Code != 403 {
				t.Errorf("an account:read token, %s %s: %d %s; want 403", c.method, c.path, res.Code, res.Body)
			}
		}
		for _, path := range []string{"/api/auth/sessions", "/api/notifications", "/api/posts/" + draft.ID} {
			if res := apptest.Do(t, app, "GET", path, read); res.Code != 200 {
				t.Errorf("an account:read token, GET %s: %d %s", path, res.Code, res.Body)
			}
			if res := apptest.Do(t, app, "GET", path, write); res.Code/100 != 4 {
				t.Errorf("an account:write token, GET %s: %d %s; want a refusal", path, res.Code, res.Body)
			}
		}
		if res := apptest.Do(t, app, "GET", me, read); !strings.Contains(res.Body.String(), u.Email) {
			t.Errorf("an account:read token reading its own profile: %d %s; want the email", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", me, write); strings.Contains(res.Body.String(), u.Email) {
			t.Errorf("an account:write token reading its own profile: %d %s; want no email", res.Code, res.Body)
		}
	})
}

// TestTokensMintWithAccountScopes: the API-tokens route (the console's
// form) and the command line mint the account scopes beside the admin
// permissions, and refuse names they do not know.
func TestTokensMintWithAccountScopes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", root, `{"permissions":["account:read","account:write","admin:read"],"ttl":"1h"}`)
		if res.Code != 201 {
			t.Fatalf("minting account scopes: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", root, `{"permissions":["account:everything"],"ttl":"1h"}`)
		if res.Code != 422 {
			t.Errorf("minting an unknown scope: %d %s", res.Code, res.Body)
		}
	})
}
