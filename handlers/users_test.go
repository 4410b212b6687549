package handlers_test

import (
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
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// decodeAs reads a JSON response body, failing the test when it is not one.
func decodeAs[T any](t *testing.T, res *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil {
		t.Fatalf("body %q: %v", res.Body, err)
	}
	return v
}

// generalError is the general family's error body.
type generalError struct {
	Error struct {
		Code, Message string
		Details       *api.InvalidDetails
	}
}

// wantError checks a general-family error: its status, code and, for
// validation errors, a detail on field ("*": no detail asked for).
func wantError(t *testing.T, res *httptest.ResponseRecorder, status int, code, field string) {
	t.Helper()
	if res.Code != status {
		t.Fatalf("got %d %s, want %d %s", res.Code, res.Body, status, code)
	}
	got := decodeAs[generalError](t, res)
	if got.Error.Code != code || got.Error.Message == "" {
		t.Fatalf("body %s, want code %s with a message", res.Body, code)
	}
	if code != api.CodeValidationError || field == "*" {
		return
	}
	d := got.Error.Details
	if d == nil || len(d.Issues) == 0 || d.Field != d.Issues[0].Field || d.Reason != d.Issues[0].Reason {
		t.Fatalf("details %s: want the first issue's field and reason beside the issues", res.Body)
	}
	for _, is := range d.Issues {
		if is.Field == field && is.Reason != "" {
			return
		}
	}
	t.Fatalf("details %+v name no field %q", d, field)
}

// fromIP sends a JSON request as if from ip (the socket peer).
func fromIP(t *testing.T, app *apptest.App, ip, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = ip + ":40000"
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	return rec
}

// userWith creates a user with a password and returns it with its session.
func userWith(t *testing.T, app *apptest.App, email string, roles ...string) (*models.User, http.Header) {
	t.Helper()
	u := app.UserWithPassword(t, email, "long enough secret", roles...)
	return u, app.SessionFor(t, u.ID)
}

// auditActions are the actions and targets of the stored audit entries.
func auditActions(t *testing.T, app *apptest.App) []string {
	t.Helper()
	var out []string
	for _, e := range app.AuditEntries(t) {
		out = append(out, e.Action+" "+e.TargetType+":"+e.TargetID)
	}
	return out
}

func TestRegisterThenSignIn(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		res := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":" Ada Lovelace ","email":" Ada@Example.COM","password":"analytical engine"}`)
		if res.Code != http.StatusCreated {
			t.Fatalf("register: %d %s", res.Code, res.Body)
		}
		u := decodeAs[api.User](t, res)
		if u.ID == "" || u.Email != "ada@example.com" || u.Name == nil || *u.Name != "Ada Lovelace" || u.Username != "adalovelace" ||
			!u.ProfilePublic || u.PostCount != 0 || u.LastLogin != nil || !strings.HasSuffix(u.CreatedAt, "Z") {
			t.Errorf("registered user %s", res.Body)
		}
		stored, err := app.Store.Users.UserByEmail(context.Background(), "ada@example.com")
		if err != nil || stored.Status != models.UserActive || stored.PasswordHash == nil || strings.Contains(*stored.PasswordHash, "analytical") {
			t.Fatalf("stored user %+v, %v", stored, err)
		}
		if roles, _ := app.Store.Users.UserRoles(context.Background(), stored.ID); len(roles) != 1 || roles[0] != "user" {
			t.Errorf("roles %v, want [user]", roles)
		}
		res = apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ADA@example.com","password":"analytical engine"}`)
		if res.Code != http.StatusOK || !contains(res.Body.String(), `"role":"user"`) {
			t.Fatalf("sign-in after registration: %d %s", res.Code, res.Body)
		}
		cookie := cookieHeader(sessionCookie(t, res.Result()))
		if me := apptest.Do(t, app, "GET", "/api/users/"+u.ID, cookie); !contains(me.Body.String(), `"email":"ada@example.com"`) {
			t.Errorf("own profile after signing in: %s", me.Body)
		}
		again := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":"Ada Again","email":"ADA@example.com","password":"another long one"}`)
		wantError(t, again, http.StatusUnprocessableEntity, api.CodeValidationError, "email")
	})
}

func TestRegisterValidation(t *testing.T) {
	long := strings.Repeat("n", 101)
	tests := []struct {
		name, body, field string
	}{
		{"name missing", `{"email":"a@example.com","password":"long enough secret"}`, "name"},
		{"name blank", `{"name":"   ","email":"a@example.com","password":"long enough secret"}`, "name"},
		{"name too long", `{"name":"` + long + `","email":"a@example.com","password":"long enough secret"}`, "name"},
		{"name with a newline", `{"name":"Ada\nLovelace","email":"a@example.com","password":"long enough secret"}`, "name"},
		{"email missing", `{"name":"Ada","password":"long enough secret"}`, "email"},
		{"email without @", `{"name":"Ada","email":"ada","password":"long enough secret"}`, "email"},
		{"email without a dot in the domain", `{"name":"Ada","email":"ada@localhost","password":"long enough secret"}`, "email"},
		{"email with a display name", `{"name":"Ada","email":"Ada <ada@example.com>","password":"long enough secret"}`, "email"},
		{"email too long", `{"name":"Ada","email":"` + strings.Repeat("a", 250) + `@example.com","password":"long enough secret"}`, "email"},
		{"password missing", `{"name":"Ada","email":"a@example.com"}`, "password"},
		{"password short", `{"name":"Ada","email":"a@example.com","password":"seven77"}`, "password"},
		{"password of 7 characters in 14 bytes", `{"name":"Ada","email":"a@example.com","password":"ééééééé"}`, "password"},
		{"password too long", `{"name":"Ada","email":"a@example.com","password":"` + strings.Repeat("p", 257) + `"}`, "password"},
		{"common password", `{"name":"Ada","email":"a@example.com","password":"password123"}`, "password"},
		{"common password in capitals", `{"name":"Ada","email":"a@example.com","password":"QWERTYUIOP"}`, "password"},
		{"password is the email", `{"name":"Ada","email":"ada.l@example.com","password":"ADA.L@example.com"}`, "password"},
		{"password is the email's name", `{"name":"Ada","email":"lovelace1815@example.com","password":"Lovelace1815"}`, "password"},
		{"unknown field", `{"name":"Ada","email":"a@example.com","password":"long enough secret","role":"admin"}`, "role"},
		{"wrong type", `{"name":1,"email":"a@example.com","password":"long enough secret"}`, "name"},
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.RateLimit.Register = 1000 })
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.DoBody(t, app, "POST", "/api/users", nil, tt.body)
				wantError(t, res, http.StatusUnprocessableEntity, api.CodeValidationError, tt.field)
			})
		}
		res := apptest.DoBody(t, app, "POST", "/api/users", nil, `{"name":`)
		wantError(t, res, http.StatusUnprocessableEntity, api.CodeValidationError, "*")
		if n, _ := app.Store.Users.CountUsers(context.Background()); n != 0 {
			t.Errorf("%d users after refused registrations, want 0", n)
		}
	})
}

// TestRegisterRateLimit: registrations count per IP in a window of their
// own (a small RATE_LIMIT_REGISTER here), refused ones included; another
// address is not held back.
func TestRegisterRateLimit(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.RateLimit.Register = 3 })
		body := func(i int) string {
			return `{"name":"User ` + itoa(int64(i)) + `","email":"u` + itoa(int64(i)) + `@example.com","password":"long enough secret"}`
		}
		for i := range 3 {
			b := body(i)
			if i == 1 {
				b = `{"name":"Bad"}` // refused registrations count too
			}
			res := fromIP(t, app, "198.51.100.7", "POST", "/api/users", b)
			if res.Code != http.StatusCreated && res.Code != http.StatusUnprocessableEntity {
				t.Fatalf("registration %d: %d %s", i, res.Code, res.Body)
			}
			if got, want := res.Header().Get("X-RateLimit-Remaining"), itoa(int64(2-i)); got != want || res.Header().Get("X-RateLimit-Limit") != "3" {
				t.Errorf("registration %d: X-RateLimit-Limit %q Remaining %q, want 3 and %s", i, res.Header().Get("X-RateLimit-Limit"), got, want)
			}
		}
		res := fromIP(t, app, "198.51.100.7", "POST", "/api/users", body(9))
		wantError(t, res, http.StatusTooManyRequests, api.CodeRateLimited, "")
		if res.Header().Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		if res := fromIP(t, app, "203.0.113.9", "POST", "/api/users", body(9)); res.Code != http.StatusCreated {
			t.Errorf("another address: %d %s, want 201", res.Code, res.Body)
		}
		if res := fromIP(t, app, "198.51.100.7", "GET", "/api/users", ""); res.Code != http.StatusOK {
			t.Errorf("the spent address reading users: %d, want 200 (only registrations are held back)", res.Code)
		}
	})
}

func TestUserList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		ada, _ := userWith(t, app, "ada@example.com")
		bob, bobH := userWith(t, app, "bob@example.com")
		carol, _ := userWith(t, app, "carol@example.com")
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("profile_public = ?", false).Where("id = ?", bob.ID).Exec(ctx)
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", carol.ID).Exec(ctx)

		list := func(h http.Header, query string) api.UserList {
			t.Helper()
			res := apptest.Do(t, app, "GET", "/api/users"+query, h)
			if res.Code != http.StatusOK {
				t.Fatalf("list%s: %d %s", query, res.Code, res.Body)
			}
			return decodeAs[api.UserList](t, res)
		}
		ids := func(l api.UserList) []string {
			var out []string
			for _, u := range l.Users {
				out = append(out, u.ID+":"+u.Email+":"+u.Status)
			}
			return out
		}
		anon := list(nil, "")
		if anon.Total != 2 || anon.Limit != 20 || anon.Offset != 0 || strings.Join(ids(anon), " ") != itoa(ada.ID+3)+":: "+itoa(ada.ID)+"::" {
			t.Errorf("anonymous list (newest first, no emails, no private or banned profile): %+v", anon)
		}
		if got := ids(list(bobH, "")); len(got) != 3 || !contains(strings.Join(got, " "), itoa(bob.ID)+":bob@example.com:") {
			t.Errorf("bob's list shows his private profile with his email: %v", got)
		}
		all := list(adminH, "")
		if all.Total != 4 || !contains(strings.Join(ids(all), " "), itoa(carol.ID)+":carol@example.com:banned") {
			t.Errorf("an admin sees everyone with emails and status: %v", ids(all))
		}
		page := list(adminH, "?limit=1&offset=1")
		if page.Total != 4 || len(page.Users) != 1 || page.Users[0].ID != itoa(carol.ID) || page.Limit != 1 || page.Offset != 1 {
			t.Errorf("second page of one: %+v", page)
		}
		for _, q := range []string{"limit=0", "limit=101", "limit=ten", "limit=", "offset=-1", "offset=x"} {
			field, _, _ := strings.Cut(q, "=")
			wantError(t, apptest.Do(t, app, "GET", "/api/users?"+q, nil), http.StatusUnprocessableEntity, api.CodeValidationError, field)
		}
	})
}

// TestUserGet: who sees a user, and what of it: the email and the sign-in
// activity (last_login, login_count) only the user itself and those who
// manage users; before, anonymous callers saw anyone's sign-in activity.
func TestUserGet(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		ada, adaH := userWith(t, app, "ada@example.com")
		bob, bobH := userWith(t, app, "bob@example.com")
		carol, _ := userWith(t, app, "carol@example.com")
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("profile_public = ?", false).Where("id = ?", bob.ID).Exec(ctx)
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", carol.ID).Exec(ctx)

		tests := []struct {
			name   string
			id     int64
			caller http.Header
			status int
			email  bool
		}{
			{"public, anonymous", ada.ID, nil, 200, false},
			{"public, another user", ada.ID, bobH, 200, false},
			{"public, oneself", ada.ID, adaH, 200, true},
			{"private, anonymous", bob.ID, nil, 404, false},
			{"private, another user", bob.ID, adaH, 404, false},
			{"private, oneself", bob.ID, bobH, 200, true},
			{"private, admin", bob.ID, adminH, 200, true},
			{"banned, another user", carol.ID, adaH, 404, false},
			{"banned, admin", carol.ID, adminH, 200, true},
			{"unknown", 999999, adminH, 404, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := apptest.Do(t, app, "GET", "/api/users/"+itoa(tt.id), tt.caller)
				if tt.status == 404 {
					wantError(t, res, 404, api.CodeNotFound, "")
					return
				}
				u := decodeAs[api.User](t, res)
				if res.Code != tt.status || u.ID != itoa(tt.id) || (u.Email != "") != tt.email {
					t.Errorf("got %d %s, want %d with email %t", res.Code, res.Body, tt.status, tt.email)
				}
				// Sign-in activity is as private as the email.
				var raw map[string]any
				json.Unmarshal(res.Body.Bytes(), &raw)
				_, lastLogin := raw["last_login"]
				_, loginCount := raw["login_count"]
				if loginCount != tt.email || lastLogin && !tt.email {
					t.Errorf("last_login shown: %t, login_count shown: %t, want %t: %s", lastLogin, loginCount, tt.email, res.Body)
				}
			})
		}
		for _, id := range []string{"abc", "0", "-1", "99999999999999999999"} {
			wantError(t, apptest.Do(t, app, "GET", "/api/users/"+id, nil), 404, api.CodeNotFound, "")
		}
	})
}

func TestUserUpdate(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		bob, bobH := userWith(t, app, "bob@example.com")
		_, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		admin, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		path := "/api/users/" + itoa(ada.ID)

		res := apptest.DoBody(t, app, "PUT", path, adaH, `{"name":"Ada L.","bio":" Counts. ","location":"London","image":"https://example.com/a.png"}`)
		u := decodeAs[api.User](t, res)
		if res.Code != 200 || *u.Name != "Ada L." || u.Bio != "Counts." || u.Location != "London" || *u.Image != "https://example.com/a.png" || u.Email != "ada@example.com" {
			t.Fatalf("own update: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", path, adaH, `{"profile_public":false,"image":""}`)
		u = decodeAs[api.User](t, res)
		if res.Code != 200 || u.ProfilePublic || u.Image != nil || u.Location != "London" {
			t.Errorf("partial update keeps the rest and removes the image: %s", res.Body)
		}
		if entries := auditActions(t, app); len(entries) != 0 {
			t.Errorf("editing oneself is no admin action, yet audited: %v", entries)
		}

		invalid := []struct{ body, field string }{
			{`{}`, ""}, {`{"name":null}`, ""}, {`{"email":"new@example.com"}`, "email"}, {`{"password":"new password"}`, "password"},
			{`{"name":""}`, "name"}, {`{"name":"` + strings.Repeat("x", 101) + `"}`, "name"}, {`{"bio":"` + strings.Repeat("b", 501) + `"}`, "bio"},
			{`{"location":"a\tb"}`, "location"}, {`{"image":"javascript:alert(1)"}`, "image"}, {`{"image":"//evil.example/x.png"}`, "image"},
			{`{"image":"data:image/png;base64,AAAA"}`, "image"}, {`{"profile_public":"yes"}`, "profile_public"},
		}
		for _, tt := range invalid {
			wantError(t, apptest.DoBody(t, app, "PUT", path, adaH, tt.body), 422, api.CodeValidationError, tt.field)
		}
		wantError(t, apptest.DoBody(t, app, "PUT", path, nil, `{"bio":"x"}`), 401, api.CodeUnauthorized, "")
		wantError(t, apptest.DoBody(t, app, "PUT", path, bobH, `{"bio":"hacked"}`), 403, api.CodeForbidden, "")
		wantError(t, apptest.DoBody(t, app, "PUT", path, modH, `{"bio":"hacked"}`), 403, api.CodeForbidden, "")
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/users/999999", adminH, `{"bio":"x"}`), 404, api.CodeNotFound, "")
		app.FlushAudit(t) // the refusal's entry is queued; the next one is written with its change

		res = apptest.DoBody(t, app, "PUT", path, adminH, `{"bio":"Reviewed by an admin"}`)
		if res.Code != 200 || decodeAs[api.User](t, res).Bio != "Reviewed by an admin" {
			t.Fatalf("admin's update: %d %s", res.Code, res.Body)
		}
		entries := app.AuditEntries(t)
		if len(entries) != 2 || entries[0].Action != "user.profile" || entries[0].Status != 404 || entries[1].Action != "user.profile" ||
			entries[1].TargetType != "user" || entries[1].TargetID != itoa(ada.ID) || *entries[1].AdminID != admin.ID || entries[1].Status != 200 {
			t.Fatalf("audit entries %+v, want the admin's two updates of other accounts (404, 200)", entries)
		}
		details, _ := json.Marshal(entries[1].Details)
		if string(details) != `{"after":{"bio":"Reviewed by an admin"},"before":{"bio":"Counts."}}` {
			t.Errorf("audit details %s", details)
		}

		// Another admin's edit lock holds the admin back (423), not the user.
		other, _ := userWith(t, app, "other-admin@example.com", access.RoleAdmin)
		if _, err := app.Store.Desk.AcquireLock(context.Background(), "user", itoa(bob.ID), other.ID); err != nil {
			t.Fatal(err)
		}
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/users/"+itoa(bob.ID), adminH, `{"bio":"x"}`), 423, api.CodeResourceLocked, "")
		if res := apptest.DoBody(t, app, "PUT", "/api/users/"+itoa(bob.ID), bobH, `{"bio":"mine"}`); res.Code != 200 {
			t.Errorf("bob editing himself under an admin's lock: %d %s", res.Code, res.Body)
		}
	})
}

func TestUserDeleteSelf(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada := app.UserWithPassword(t, "ada@example.com", "long enough secret")
		res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"long enough secret"}`)
		cookie := cookieHeader(sessionCookie(t, res.Result()))
		path := "/api/users/" + itoa(ada.ID)

		wantError(t, apptest.Do(t, app, "DELETE", path, cookie), 422, api.CodeValidationError, "password")
		wantError(t, apptest.DoBody(t, app, "DELETE", path, cookie, `{"password":"wrong password"}`), 422, api.CodeValidationError, "password")
		wantError(t, apptest.DoBody(t, app, "DELETE", path, cookie, `{"password":"x","force":true}`), 422, api.CodeValidationError, "force")
		res = apptest.DoBody(t, app, "DELETE", path, cookie, `{"password":"long enough secret"}`)
		if res.Code != 200 || strings.TrimSpace(res.Body.String()) != `{"deleted":true,"id":"`+itoa(ada.ID)+`"}` {
			t.Fatalf("delete oneself: %d %s", res.Code, res.Body)
		}
		if !contains(res.Header().Get("Set-Cookie"), "plaza_session=;") {
			t.Errorf("the session cookie is not cleared: %q", res.Header().Get("Set-Cookie"))
		}
		// An ended session's row stays a while, expired (models.SessionStore).
		if n, _ := app.Store.DB.NewSelect().Model((*models.Session)(nil)).Where("expiry > ?", time.Now()).Count(context.Background()); n != 0 {
			t.Errorf("%d live sessions left, want the deleted user's ended", n)
		}
		if s := apptest.Do(t, app, "GET", "/api/auth/session", cookie); strings.TrimSpace(s.Body.String()) != `{}` {
			t.Errorf("session after deleting oneself: %s", s.Body)
		}
		wantError(t, apptest.Do(t, app, "GET", path, nil), 404, api.CodeNotFound, "")
		// Deleting oneself is no admin action; only the refused password is
		// audited, as every wrong password given to confirm is.
		if entries := auditActions(t, app); len(entries) != 1 || entries[0] != "user.delete user:"+itoa(ada.ID) {
			t.Errorf("deleting oneself audited %v, want only the wrong password's refusal", entries)
		}

		// An account without a password (external sign-in) cannot confirm.
		ext := app.User(t, "ext@example.com")
		wantError(t, apptest.DoBody(t, app, "DELETE", "/api/users/"+itoa(ext.ID), app.SessionFor(t, ext.ID), `{"password":"anything at all"}`), 403, api.CodeForbidden, "")
	})
}

func TestUserDeleteByOthers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, _ := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		admin, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		root, rootH := userWith(t, app, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		del := func(h http.Header, id int64, body string) *httptest.ResponseRecorder {
			return apptest.DoBody(t, app, "DELETE", "/api/users/"+itoa(id), h, body)
		}

		wantError(t, del(bobH, ada.ID, `{"password":"long enough secret"}`), 403, api.CodeForbidden, "")
		wantError(t, del(nil, ada.ID, ""), 401, api.CodeUnauthorized, "")
		if res := del(adminH, ada.ID, ""); res.Code != 200 {
			t.Fatalf("admin deleting a user: %d %s", res.Code, res.Body)
		}
		wantError(t, del(adminH, root.ID, ""), 403, api.CodeForbidden, "")
		app.FlushAudit(t) // the refusal's entry is queued; the next one is written with its change
		// The last super admin cannot go, even by its own hand.
		wantError(t, del(rootH, root.ID, `{"password":"long enough secret"}`), 403, api.CodeForbidden, "")

		second, secondH := userWith(t, app, "second@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		if res := del(rootH, second.ID, ""); res.Code != 200 {
			t.Fatalf("super admin deleting another: %d %s", res.Code, res.Body)
		}
		// The deleted super admin's session went with it.
		wantError(t, del(secondH, root.ID, ""), 401, api.CodeUnauthorized, "")
		entries := app.AuditEntries(t)
		var got []string
		for _, e := range entries {
			got = append(got, e.Action+" "+e.TargetID+" "+itoa(int64(e.Status))+" by "+e.AdminUsername)
		}
		want := []string{"user.delete " + itoa(ada.ID) + " 200 by " + admin.Username, "user.delete " + itoa(root.ID) + " 403 by " + admin.Username,
			"user.delete " + itoa(second.ID) + " 200 by " + root.Username}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("audit entries:\n got %v\nwant %v", got, want)
		}
	})
}
