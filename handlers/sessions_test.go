package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

const firefoxLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0"

// sessionID is the public id of the session a cookie header carries.
func sessionID(h http.Header) string {
	_, token, _ := strings.Cut(h.Get("Cookie"), "=")
	return models.SessionID(token)
}

// signIn signs in through the form's JSON twin with a browser's user
// agent and returns the session cookie.
func signIn(t *testing.T, app *apptest.App, email, password, ua string) http.Header {
	t.Helper()
	h := http.Header{"User-Agent": {ua}}
	res := apptest.DoBody(t, app, "POST", api.PathSignIn, h, `{"email":"`+email+`","password":"`+password+`"}`)
	if res.Code != 200 {
		t.Fatalf("sign in: %d %s", res.Code, res.Body)
	}
	for _, c := range res.Result().Cookies() {
		if c.Name == "plaza_session" {
			return http.Header{"Cookie": {c.Name + "=" + c.Value}, "User-Agent": {ua}}
		}
	}
	t.Fatal("sign-in set no session cookie")
	return nil
}

func mySessions(t *testing.T, app *apptest.App, h http.Header) api.UserSessions {
	t.Helper()
	res := apptest.Do(t, app, "GET", api.PathSessions, h)
	if res.Code != 200 {
		t.Fatalf("list sessions: %d %s", res.Code, res.Body)
	}
	var out api.UserSessions
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func signedIn(t *testing.T, app *apptest.App, h http.Header) bool {
	t.Helper()
	var s map[string]any
	json.Unmarshal(apptest.Do(t, app, "GET", api.PathSession, h).Body.Bytes(), &s)
	return s["user"] != nil
}

// TestSessionListAndRevoke: session list and revoke (issue 14): one's
// sessions with device, address and the current one marked; one revoked,
// then all others; another's session id is 404.
func TestSessionListAndRevoke(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada := app.UserWithPassword(t, "ada@example.com", "correct horse")
		laptop := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		phone := signIn(t, app, "ada@example.com", "correct horse", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")
		tablet := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)

		list := mySessions(t, app, laptop).Sessions
		if len(list) != 3 {
			t.Fatalf("%d sessions, want 3: %+v", len(list), list)
		}
		byID := map[string]api.UserSession{}
		for _, s := range list {
			byID[s.ID] = s
			if s.Current != (s.ID == sessionID(laptop)) {
				t.Errorf("session %s current=%v", s.ID, s.Current)
			}
			if strings.Contains(laptop.Get("Cookie"), s.ID) {
				t.Error("the list shows a session's token")
			}
		}
		if s := byID[sessionID(laptop)]; s.Device != "Firefox on Linux" || s.UserAgent != firefoxLinux || s.IP != "192.0.2.1" || s.CreatedAt == "" || s.LastSeenAt == "" {
			t.Errorf("laptop session %+v", s)
		}
		if s := byID[sessionID(phone)]; s.Device != "Safari on iOS" {
			t.Errorf("phone session %+v", s)
		}

		app.UserWithPassword(t, "bob@example.com", "battery staple")
		bob := signIn(t, app, "bob@example.com", "battery staple", firefoxLinux)
		if res := apptest.Do(t, app, "DELETE", api.SessionPath(sessionID(bob)), laptop); res.Code != 404 {
			t.Errorf("revoking another's session: %d %s, want 404", res.Code, res.Body)
		}
		if !signedIn(t, app, bob) {
			t.Fatal("another's session ended")
		}

		if res := apptest.Do(t, app, "DELETE", api.SessionPath(sessionID(phone)), laptop); res.Code != 200 {
			t.Fatalf("revoke one: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, phone) || !signedIn(t, app, tablet) {
			t.Error("revoking the phone must end it alone")
		}
		res := apptest.Do(t, app, "DELETE", api.PathSessions, laptop)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"revoked":1`) {
			t.Fatalf("revoke others: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, tablet) || !signedIn(t, app, laptop) {
			t.Error("revoking the others must keep the current session alone")
		}
		if list := mySessions(t, app, laptop).Sessions; len(list) != 1 || !list[0].Current {
			t.Errorf("after revoking others: %+v", list)
		}
		if res := apptest.Do(t, app, "GET", api.PathSessions, nil); res.Code != 401 {
			t.Errorf("no caller: %d, want 401", res.Code)
		}
		// A token with account:read lists its owner's sessions but ends
		// none: a leaked token must not sign its owner out.
		token, _ := app.TokenFor(t, ada.ID, access.ScopeAccountRead)
		if res := apptest.Do(t, app, "GET", api.PathSessions, token); res.Code != 200 {
			t.Errorf("list with a token: %d %s", res.Code, res.Body)
		}
		for _, target := range []string{api.PathSessions, api.SessionPath(sessionID(laptop))} {
			if res := apptest.Do(t, app, "DELETE", target, token); res.Code != 403 {
				t.Errorf("DELETE %s with a token: %d %s, want 403", target, res.Code, res.Body)
			}
		}
		if !signedIn(t, app, laptop) {
			t.Error("a token ended a session")
		}
	})
}

// TestAdminUserSessions: an admin lists a user's sessions and revokes one,
// then all, each audited; the user is signed out at once.
func TestAdminUserSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		one := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		two := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		uid := mustUserID(t, app, "ada@example.com")
		path := api.AdminV1UserSessionsPath(uid)

		res := apptest.Do(t, app, "GET", path, admin)
		var got struct{ Data []api.UserSession }
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || len(got.Data) != 2 || got.Data[0].Current {
			t.Fatalf("admin list: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", path+"/"+sessionID(admin), admin); res.Code != 404 {
			t.Errorf("a session not the user's: %d, want 404", res.Code)
		}
		if res := apptest.Do(t, app, "DELETE", path+"/"+sessionID(one), admin); res.Code != 200 {
			t.Fatalf("revoke one: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, one) || !signedIn(t, app, two) {
			t.Error("the admin's revocation must end that session alone")
		}
		if res := apptest.Do(t, app, "DELETE", path, admin); res.Code != 200 || !strings.Contains(res.Body.String(), `"revoked":1`) {
			t.Fatalf("revoke all: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, two) {
			t.Error("revoke all left a session")
		}
		if res := apptest.Do(t, app, "GET", api.AdminV1UserSessionsPath("99999"), admin); res.Code != 404 {
			t.Errorf("unknown user: %d, want 404", res.Code)
		}
		moderator := app.SessionFor(t, app.User(t, "mod@example.com", access.RoleModerator).ID)
		if res := apptest.Do(t, app, "DELETE", path, moderator); res.Code != 403 {
			t.Errorf("a moderator: %d, want 403", res.Code)
		}
		app.FlushAudit(t)
		actions := map[string]int{}
		for _, e := range app.AuditEntries(t) {
			if e.TargetID == uid {
				actions[e.Action+" "+itoa(int64(e.Status))]++
			}
		}
		if actions["user.revoke_session 200"] != 1 || actions["user.revoke_sessions 200"] != 1 || actions["user.sessions 200"] != 1 {
			t.Errorf("audit entries %v", actions)
		}
	})
}

// TestAdminCannotTouchSuperAdminSessions: an admin who is no super admin
// neither lists nor ends a super admin's sessions, through the API, the
// console's card or a token; a super admin does.
func TestAdminCannotTouchSuperAdminSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root := app.UserWithPassword(t, "root2@example.com", "correct horse", access.ImpliedRoles(access.RoleSuperAdmin)...)
		victim := signIn(t, app, "root2@example.com", "correct horse", firefoxLinux)
		ada := app.User(t, "ada@example.com", access.RoleAdmin)
		admin := app.SessionFor(t, ada.ID)
		token, _ := app.TokenFor(t, ada.ID, access.PermAdminRead, access.PermAdminDelete)
		path := api.AdminV1UserSessionsPath(itoa(root.ID))
		htmx := func(h http.Header) http.Header { h = h.Clone(); h.Set("HX-Request", "true"); return h }
		card := htmx(admin)
		for _, tt := range []struct {
			name, method, target string
			h                    http.Header
		}{
			{"list", "GET", path, admin},
			{"the console's card", "GET", api.ConsoleUserSessionsPath(itoa(root.ID)), card},
			{"list with a token", "GET", path, token},
			{"revoke one", "DELETE", path + "/" + sessionID(victim), admin},
			{"revoke all", "DELETE", path, admin},
			{"revoke all with a token", "DELETE", path, token},
		} {
			if res := apptest.Do(t, app, tt.method, tt.target, tt.h); res.Code != 403 {
				t.Errorf("an admin, %s: %d %s, want 403", tt.name, res.Code, res.Body)
			}
		}
		if !signedIn(t, app, victim) {
			t.Fatal("an admin ended a super admin's session")
		}

		super, _ := app.Admin(t)
		res := apptest.Do(t, app, "GET", api.ConsoleUserSessionsPath(itoa(root.ID)), htmx(super))
		if res.Code != 200 || !strings.Contains(res.Body.String(), `data-testid="session-revoke-open"`) {
			t.Errorf("a super admin's card: %d, revoke buttons shown: %v", res.Code, strings.Contains(res.Body.String(), "session-revoke-open"))
		}
		if res := apptest.Do(t, app, "DELETE", path+"/"+sessionID(victim), super); res.Code != 200 {
			t.Errorf("a super admin revoking: %d %s", res.Code, res.Body)
		}
		if signedIn(t, app, victim) {
			t.Error("the super admin's revocation left the session")
		}
	})
}

// TestBanAndDeactivationEndSessions: a ban (either family) or a
// deactivation ends the user's sessions in the change's transaction.
func TestBanAndDeactivationEndSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		cases := []struct{ who, method, path, body string }{
			{"v1@example.com", "POST", "/ban", `{"action":"ban","reason":"spam"}`},
			{"old@example.com", "POST", "", `{"reason":"spam"}`},
			{"off@example.com", "PUT", "", `{"status":"inactive"}`},
		}
		for _, c := range cases {
			app.UserWithPassword(t, c.who, "correct horse")
			h := signIn(t, app, c.who, "correct horse", firefoxLinux)
			uid := mustUserID(t, app, c.who)
			target := api.PathAdminV1Users + "/" + uid + c.path
			if c.who == "old@example.com" {
				target = "/api/admin/users/" + uid + "/ban"
			}
			if res := apptest.DoBody(t, app, c.method, target, admin, c.body); res.Code != 200 {
				t.Fatalf("%s %s: %d %s", c.method, target, res.Code, res.Body)
			}
			if countLive(t, db, uid, app) != 0 || signedIn(t, app, h) {
				t.Errorf("%s: a session outlived the change", c.who)
			}
		}
	})
}

func countLive(t *testing.T, db *bun.DB, uid string, app *apptest.App) int {
	t.Helper()
	n, err := db.NewSelect().TableExpr("sessions").Where("user_id = ?", uid).Where("expiry > ?", app.Deps.Now()).Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func mustUserID(t *testing.T, app *apptest.App, email string) string {
	t.Helper()
	u, err := app.Store.Users.UserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return itoa(u.ID)
}

// TestPasswordChangeEndsOtherSessions: a password change ends every other
// session of the user's in its transaction and keeps the current one (under
// a new id); a
// wrong current password or a weak new one changes nothing.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		here := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		there := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)

		res := apptest.DoBody(t, app, "POST", api.PathPassword, here, `{"currentPassword":"wrong one","newPassword":"battery staple 42"}`)
		if res.Code != 422 || !strings.Contains(res.Body.String(), `"currentPassword"`) || !signedIn(t, app, there) {
			t.Fatalf("wrong current password: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", api.PathPassword, here, `{"currentPassword":"correct horse","newPassword":"short"}`)
		if res.Code != 422 || !strings.Contains(res.Body.String(), "newPassword") {
			t.Fatalf("weak new password: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", api.PathPassword, here, `{"currentPassword":"correct horse","newPassword":"battery staple 42"}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"revokedSessions":1`) {
			t.Fatalf("change: %d %s", res.Code, res.Body)
		}
		for _, c := range res.Result().Cookies() {
			if c.Name == "plaza_session" {
				here.Set("Cookie", c.Name+"="+c.Value) // the same session under a new id
			}
		}
		if signedIn(t, app, there) || !signedIn(t, app, here) {
			t.Error("the change must end the other session and keep this one")
		}
		signIn(t, app, "ada@example.com", "battery staple 42", firefoxLinux)
	})
}

// TestPasswordChangeRenewsSessionAndRevokesTokens: a password change gives
// the current session a new id (the old one no longer signs anyone in) and
// revokes every API token of the user's, so that whoever knew the old
// password, or held a copy of the cookie or a token, is out.
func TestPasswordChangeRenewsSessionAndRevokesTokens(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		u := app.UserWithPassword(t, "ada@example.com", "correct horse", access.RoleAdmin)
		here := signIn(t, app, "ada@example.com", "correct horse", firefoxLinux)
		token, _ := app.TokenFor(t, u.ID, access.PermAdminRead)
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", token); res.Code != 200 {
			t.Fatalf("token before the change: %d %s", res.Code, res.Body)
		}
		res := apptest.DoBody(t, app, "POST", api.PathPassword, here, `{"currentPassword":"correct horse","newPassword":"battery staple 42"}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"revokedTokens":1`) {
			t.Fatalf("change: %d %s", res.Code, res.Body)
		}
		var renewed string
		for _, c := range res.Result().Cookies() {
			if c.Name == "plaza_session" {
				renewed = c.Value
			}
		}
		if renewed == "" || "plaza_session="+renewed == here.Get("Cookie") {
			t.Fatalf("the session id was not renewed: %q", renewed)
		}
		if signedIn(t, app, here) {
			t.Error("the old session id still signs in")
		}
		if !signedIn(t, app, http.Header{"Cookie": {"plaza_session=" + renewed}}) {
			t.Error("the renewed session is not signed in")
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", token); res.Code != 401 {
			t.Errorf("token after the change: %d %s, want 401", res.Code, res.Body)
		}
	})
}
