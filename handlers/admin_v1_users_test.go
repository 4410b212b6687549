package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// v1UserList is the body of GET /api/v1/admin/users.
type v1UserList struct {
	Success bool
	Data    []struct {
		ID, Username, Email, Status, Role, CreatedAt string
		LastLoginAt                                  *string
		PostCount                                    int
		IsVerified                                   bool
	}
	Meta struct {
		Pagination struct {
			Total, Limit, Offset int
			HasMore, TotalCapped bool
		}
	}
}

func listV1Users(t *testing.T, app *apptest.App, h http.Header, query string) v1UserList {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/v1/admin/users?"+query, h)
	var got v1UserList
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 || !got.Success {
		t.Fatalf("%s: %d %s", query, res.Code, res.Body)
	}
	return got
}

func (l v1UserList) usernames() []string {
	var out []string
	for _, u := range l.Data {
		out = append(out, u.Username)
	}
	return out
}

// TestV1UserList: filters by status (as of now), highest role and
// username or email; sorts by every field in both orders; the V1User record
// with the highest role, super_admin shown as admin.
func TestV1UserList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		mod := app.User(t, "Mira.Mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		boss := app.User(t, "boss@example.org", access.ImpliedRoles(access.RoleAdmin)...)
		ada := app.User(t, "ada@example.org")
		zed := app.User(t, "zed@example.com")
		login := time.Date(2026, 11, 20, 9, 30, 0, 123e6, time.UTC)
		db.NewUpdate().Model((*models.User)(nil)).Set("last_login_at = ?", login).Set("post_count = 7").Set("is_verified = ?", true).Where("id = ?", ada.ID).Exec(ctx)
		db.NewUpdate().Model((*models.User)(nil)).Set("last_login_at = ?", login.Add(time.Hour)).Set("post_count = 2").Where("id = ?", zed.ID).Exec(ctx)
		db.NewUpdate().Model((*models.User)(nil)).Set("status = 'inactive'").Set("is_active = ?", false).Where("id = ?", mod.ID).Exec(ctx)
		if err := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Sanctions.BanUser(ctx, models.BanInput{UserID: boss.ID, AdminID: root.ID, Reason: "spam", Duration: time.Hour})
			return err
		}); err != nil {
			t.Fatal(err)
		}

		all := listV1Users(t, app, admin, "")
		if got := all.usernames(); !slices.Equal(got, []string{"zed", "ada", "boss", "mira.mod", "root"}) || all.Meta.Pagination.Total != 5 ||
			all.Meta.Pagination.Limit != 50 || all.Meta.Pagination.HasMore {
			t.Fatalf("newest first: %v, %+v", got, all.Meta.Pagination)
		}
		a := all.Data[1]
		if a.ID != itoa(ada.ID) || a.Role != "user" || a.Status != "active" || a.PostCount != 7 || !a.IsVerified ||
			a.LastLoginAt == nil || *a.LastLoginAt != "2026-11-20T09:30:00.123Z" || len(a.CreatedAt) != 24 || all.Data[4].Role != "admin" || all.Data[3].Role != "moderator" {
			t.Errorf("records: %+v", all.Data)
		}
		for query, want := range map[string][]string{
			"status=banned":                      {"boss"},
			"status=all":                         {"zed", "ada", "boss", "mira.mod", "root"},
			"role=all&status=All":                {"zed", "ada", "boss", "mira.mod", "root"},
			"role=all&status=inactive":           {"mira.mod"},
			"status=all&role=admin":              {"boss", "root"},
			"status=inactive":                    {"mira.mod"},
			"status=active&order=asc":            {"root", "ada", "zed"},
			"role=admin":                         {"boss", "root"},
			"role=moderator":                     {"mira.mod"},
			"role=user&status=active":            {"zed", "ada"},
			"search=EXAMPLE.ORG":                 {"ada", "boss"},
			"search=mira":                        {"mira.mod"},
			"search=%25":                         nil,
			"sort=username&order=asc":            {"ada", "boss", "mira.mod", "root", "zed"},
			"sort=email":                         {"zed", "root", "mira.mod", "boss", "ada"},
			"sort=postCount&order=desc&limit=2":  {"ada", "zed"},
			"sort=last_login_at":                 {"zed", "ada", "boss", "mira.mod", "root"},
			"sort=lastLoginAt&order=asc":         {"root", "mira.mod", "boss", "ada", "zed"},
			"sort=created_at&offset=3&limit=100": {"mira.mod", "root"},
		} {
			if got := listV1Users(t, app, admin, query).usernames(); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", query, got, want)
			}
		}
		page := listV1Users(t, app, admin, "sort=username&limit=2&offset=2").Meta.Pagination
		if page.Total != 5 || page.Offset != 2 || !page.HasMore {
			t.Errorf("a middle page: %+v", page)
		}
		if n := listV1Users(t, app, admin, "role=user&search=example").Meta.Pagination.Total; n != 2 {
			t.Errorf("filtered total %d, want 2", n)
		}
		// The older list takes no status or role filter: all is ignored
		// there like any parameter it does not know.
		if res := apptest.Do(t, app, "GET", "/api/admin/users?status=all&role=all", admin); res.Code != 200 || !strings.Contains(res.Body.String(), `"total":5`) {
			t.Errorf("the unversioned list with all: %d %s", res.Code, res.Body)
		}
	})
}

// TestV1UserSearchCountsExactly: a search that matches more than the 200
// users once counted is counted in full on both databases, and its last
// page comes.
func TestV1UserSearchCountsExactly(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		bulkUsers(t, app, 230)
		first := listV1Users(t, app, root, "search=bulk&sort=post_count&limit=50")
		deep := listV1Users(t, app, root, "search=bulk&sort=post_count&limit=50&offset=200")
		p, d := first.Meta.Pagination, deep.Meta.Pagination
		if len(first.Data) != 50 || len(deep.Data) != 30 || !p.HasMore || d.HasMore {
			t.Fatalf("pages of %d and %d users, hasMore %v then %v", len(first.Data), len(deep.Data), p.HasMore, d.HasMore)
		}
		if p.Total != 230 || p.TotalCapped || d.Total != 230 || d.TotalCapped {
			t.Errorf("first page: total %d capped %v; last page: total %d capped %v; want 230, not capped",
				p.Total, p.TotalCapped, d.Total, d.TotalCapped)
		}
	})
}

// TestV1UserListRefusals: every bad parameter is a 422 naming it, never
// clamped; no caller, a plain user and a moderator are refused.
func TestV1UserListRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		for query, field := range map[string]string{
			"limit=0": "limit", "limit=101": "limit", "limit=ten": "limit", "offset=-1": "offset",
			"status=gone": "status", "role=super_admin": "role", "sort=name": "sort", "order=up": "order",
			"search=" + strings.Repeat("a", 101): "search", "search=": "search",
		} {
			res := apptest.Do(t, app, "GET", "/api/v1/admin/users?"+query, admin)
			var got struct {
				Success bool
				Error   struct {
					Code    string
					Details struct {
						Field, Reason string
						Issues        []struct{ Field, Reason string }
					}
				}
			}
			json.Unmarshal(res.Body.Bytes(), &got)
			if res.Code != 422 || got.Success || got.Error.Code != "VALIDATION_ERROR" || len(got.Error.Details.Issues) != 1 || got.Error.Details.Field != field {
				t.Errorf("%s: %d %s, want 422 naming %s", query, res.Code, res.Body, field)
			}
		}
		user := app.User(t, "plain@example.com")
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		for who, h := range map[string]http.Header{"nobody": nil, "a user": app.SessionFor(t, user.ID), "a moderator": app.SessionFor(t, mod.ID)} {
			want := 403
			if h == nil {
				want = 401
			}
			if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", h); res.Code != want {
				t.Errorf("%s: %d, want %d", who, res.Code, want)
			}
		}
		apptest.Do(t, app, "GET", "/api/v1/admin/users", admin)
		if last := lastEntry(t, app, "users.list"); last.Status != 200 {
			t.Errorf("the last users.list audit entry: %d, want 200", last.Status)
		}
	})
}

// TestV1UserDetail: one user in full, with roles highest first, every ban
// newest first (the one in force marked active), the latest ten posts and
// the latest audit entries about the user, views left out; an unknown or
// malformed id is 404.
func TestV1UserDetail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		db.NewUpdate().Model((*models.User)(nil)).Set("name = 'Mo Derator'").Set("bio = 'Hi'").Where("id = ?", mod.ID).Exec(ctx)
		for i := range 12 {
			newPostAs(t, app, mod.ID, fmt.Sprint("Post ", i))
		}
		for _, body := range []string{`{"reason":"first","duration":"1h"}`, `{"reason":"second"}`} {
			if res := apptest.DoBody(t, app, "POST", api.AdminUserBanPath(mod.ID), admin, body); res.Code != 200 {
				t.Fatal(res.Body)
			}
		}
		app.FlushAudit(t)
		apptest.Do(t, app, "GET", "/api/v1/admin/users/"+itoa(mod.ID), admin)
		res := apptest.Do(t, app, "GET", "/api/v1/admin/users/"+itoa(mod.ID), admin)
		var got struct {
			Success bool
			Data    struct {
				ID, Username, Status, Role string
				Profile                    struct{ Name, Bio, Location string }
				Roles                      []string
				Bans                       []struct {
					ID, Reason, CreatedBy string
					ExpiresAt, EndedAt    *string
					Active                bool
				}
				RecentPosts        []struct{ ID, Title, Status string }
				RecentAuditEntries []struct{ Action, TargetID string }
			}
		}
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 || !got.Success {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		d := got.Data
		if d.ID != itoa(mod.ID) || d.Status != "banned" || d.Role != "moderator" || d.Profile.Name != "Mo Derator" || d.Profile.Bio != "Hi" ||
			!slices.Equal(d.Roles, []string{"moderator", "user"}) {
			t.Errorf("user: %+v", d)
		}
		if len(d.Bans) != 2 || d.Bans[0].Reason != "second" || !d.Bans[0].Active || d.Bans[0].ExpiresAt != nil || d.Bans[0].CreatedBy != itoa(root.ID) ||
			d.Bans[1].Reason != "first" || d.Bans[1].Active || d.Bans[1].EndedAt == nil || d.Bans[1].ExpiresAt == nil {
			t.Errorf("bans: %+v", d.Bans)
		}
		if len(d.RecentPosts) != 10 || d.RecentPosts[0].Title != "Post 11" || d.RecentPosts[9].Title != "Post 2" {
			t.Errorf("recent posts: %+v", d.RecentPosts)
		}
		if len(d.RecentAuditEntries) != 2 || d.RecentAuditEntries[0].Action != "user.ban" || d.RecentAuditEntries[0].TargetID != itoa(mod.ID) {
			t.Errorf("recent audit entries: %+v", d.RecentAuditEntries)
		}
		for _, id := range []string{"999999", "abc", "0"} {
			if res := apptest.Do(t, app, "GET", "/api/v1/admin/users/"+id, admin); res.Code != 404 || !strings.Contains(res.Body.String(), `"NOT_FOUND"`) {
				t.Errorf("user %s: %d %s, want 404", id, res.Code, res.Body)
			}
		}
		other := app.User(t, "other.mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users/"+itoa(mod.ID), app.SessionFor(t, other.ID)); res.Code != 403 {
			t.Errorf("a moderator reads a user in full: %d", res.Code)
		}
	})
}

func newPostAs(t *testing.T, app *apptest.App, author int64, title string) {
	t.Helper()
	err := app.Store.Change(context.Background(), func(ctx context.Context) error {
		_, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: title, Content: "text", Published: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lastEntry is the newest audit entry of action. Entries of reads and
// refusals are written in batches, so the newest entry of all may be an
// earlier request's.
func lastEntry(t *testing.T, app *apptest.App, action string) models.AuditEntry {
	t.Helper()
	entries := app.AuditEntries(t)
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Action == action {
			return entries[i]
		}
	}
	t.Fatalf("no %s audit entry", action)
	return models.AuditEntry{}
}

// v1Error is the versioned family's error body.
type v1Error struct {
	Success bool
	Error   struct {
		Code, Message, RequiredPermission, LockedBy, LockedAt string
		// Details of a VALIDATION_ERROR: the first issue's field and
		// reason, and every issue.
		Details struct {
			Field, Reason string
			Issues        []struct{ Field, Reason string }
		}
	}
}

func decodeV1Error(t *testing.T, body []byte) v1Error {
	t.Helper()
	var e v1Error
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return e
}

// wantInvalid sends method target (with body, when not empty) as h and
// expects 422 VALIDATION_ERROR whose first detail names field.
func wantInvalid(t *testing.T, app *apptest.App, method, target string, h http.Header, body, field string) {
	t.Helper()
	res := apptest.DoBody(t, app, method, target, h, body)
	if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 422 || e.Error.Code != "VALIDATION_ERROR" || len(e.Error.Details.Issues) == 0 || e.Error.Details.Field != field ||
		e.Error.Details.Issues[0].Field != field || e.Error.Details.Reason == "" {
		t.Errorf("%s %s %.60s: %d %s, want 422 naming %s", method, target, body, res.Code, res.Body, field)
	}
}

// wantAdminOnly sends method target (with body, when not empty) without
// a caller, then as the moderator session mod, and expects 401, then 403.
func wantAdminOnly(t *testing.T, app *apptest.App, mod http.Header, method, target, body string) {
	t.Helper()
	if res := apptest.DoBody(t, app, method, target, nil, body); res.Code != 401 {
		t.Errorf("%s %s anonymous: %d, want 401", method, target, res.Code)
	}
	if res := apptest.DoBody(t, app, method, target, mod, body); res.Code != 403 {
		t.Errorf("%s %s as a moderator: %d, want 403", method, target, res.Code)
	}
}

// TestV1UserUpdate: a partial update changes what it names, answers the
// V1User record and keeps before and after in its audit entry; status ends a
// ban in force and a deactivated user's session stops working.
func TestV1UserUpdate(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		u := app.User(t, "member@example.com")
		path := "/api/v1/admin/users/" + itoa(u.ID)
		res := apptest.DoBody(t, app, "PUT", path, admin, `{"role":"moderator","isVerified":true,"notes":"Keeps the garden thread tidy"}`)
		var got struct {
			Success bool
			Data    struct {
				ID, Role, Status string
				IsVerified       bool
			}
		}
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || got.Data.Role != "moderator" || !got.Data.IsVerified || got.Data.Status != "active" {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		e := lastEntry(t, app, "user.update")
		before, _ := e.Details["before"].(map[string]any)
		after, _ := e.Details["after"].(map[string]any)
		if e.Status != 200 || e.TargetID != itoa(u.ID) || before["role"] != "user" || after["role"] != "moderator" ||
			after["notes"] != "Keeps the garden thread tidy" || before["isVerified"] != false {
			t.Errorf("audit entry %s %d %v", e.Action, e.Status, e.Details)
		}
		detail := apptest.Do(t, app, "GET", path, admin).Body.String()
		if !strings.Contains(detail, `"notes":"Keeps the garden thread tidy"`) || !strings.Contains(detail, `"roles":["moderator","user"]`) {
			t.Errorf("detail after the update: %s", detail)
		}

		session := app.SessionFor(t, u.ID)
		if res := apptest.DoBody(t, app, "PUT", path, admin, `{"status":"inactive","role":"user"}`); res.Code != 200 {
			t.Fatal(res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/session", session); strings.Contains(res.Body.String(), `"user"`) {
			t.Errorf("a deactivated user's session still answers: %s", res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminUserBanPath(u.ID), admin, `{"reason":"spam"}`); res.Code != 200 {
			t.Fatal(res.Body)
		}
		if res := apptest.DoBody(t, app, "PUT", path, admin, `{"status":"active"}`); res.Code != 200 || !strings.Contains(res.Body.String(), `"status":"active"`) {
			t.Fatalf("reactivating a banned user: %d %s", res.Code, res.Body)
		}
		if strings.Contains(apptest.Do(t, app, "GET", path, admin).Body.String(), `"active":true`) {
			t.Error("the ban is still in force after status active")
		}
	})
}

// TestV1UserUpdateBans: status banned through PUT is the ban action's
// ban (a ban record with its reason, the sessions ended, the ban's policy
// entry and audit details), and active or inactive on a banned user its
// unban; a user already banned keeps the ban in force.
func TestV1UserUpdateBans(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		u := app.User(t, "member@example.com")
		path := "/api/v1/admin/users/" + itoa(u.ID)
		put := func(h http.Header, body string) (int, string) {
			res := apptest.DoBody(t, app, "PUT", path, h, body)
			var got struct{ Data struct{ Status string } }
			json.Unmarshal(res.Body.Bytes(), &got)
			return res.Code, got.Data.Status
		}
		type ban struct {
			Reason, CreatedBy string
			EndedAt           *string
			Active            bool
		}
		bans := func() []ban {
			var got struct{ Data struct{ Bans []ban } }
			json.Unmarshal(apptest.Do(t, app, "GET", path, admin).Body.Bytes(), &got)
			return got.Data.Bans
		}
		session := app.SessionFor(t, u.ID)
		if code, status := put(admin, `{"status":"banned","reason":"spam ring","notes":"see the garden thread"}`); code != 200 || status != "banned" {
			t.Fatalf("status banned: %d %s", code, status)
		}
		if b := bans(); len(b) != 1 || b[0].Reason != "spam ring" || !b[0].Active || b[0].CreatedBy != itoa(root.ID) {
			t.Errorf("the ban record: %+v", b)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/session", session); strings.Contains(res.Body.String(), `"user"`) {
			t.Errorf("the banned user's session still answers: %s", res.Body)
		}
		e := lastEntry(t, app, "user.update")
		before, _ := e.Details["before"].(map[string]any)
		after, _ := e.Details["after"].(map[string]any)
		if e.Status != 200 || e.Details["action"] != "ban" || e.Details["reason"] != "spam ring" || e.Details["banId"] == nil ||
			before["status"] != "active" || after["status"] != "banned" || after["notes"] != "see the garden thread" {
			t.Errorf("the audit entry: %d %v", e.Status, e.Details)
		}
		if code, status := put(admin, `{"status":"banned","reason":"again"}`); code != 200 || status != "banned" || len(bans()) != 1 || bans()[0].Reason != "spam ring" {
			t.Errorf("banned again: %d %s, bans %+v", code, status, bans())
		}
		if code, status := put(admin, `{"status":"active"}`); code != 200 || status != "active" {
			t.Fatalf("status active: %d %s", code, status)
		}
		if b := bans(); len(b) != 1 || b[0].Active || b[0].EndedAt == nil {
			t.Errorf("after status active the ban is not ended: %+v", b)
		}
		if e := lastEntry(t, app, "user.update"); e.Details["action"] != "unban" {
			t.Errorf("the unban's audit entry: %v", e.Details)
		}
		if code, _ := put(admin, `{"status":"banned"}`); code != 200 || bans()[0].Reason != actions.DefaultBanReason {
			t.Errorf("a ban without a reason: %d %+v", code, bans())
		}
		if code, status := put(admin, `{"status":"inactive"}`); code != 200 || status != "inactive" || bans()[0].Active {
			t.Errorf("status inactive on a banned user: %d %s, bans %+v", code, status, bans())
		}
		// Banning and lifting a ban are the ban action's, under its rule;
		// behind the versioned gate (the admin role and admin:write for a
		// PUT) the rule asks no users:manage: an admin's token scoped
		// admin:read,admin:write makes a ban and lifts it alike.
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		writer, _ := app.TokenFor(t, boss.ID, access.PermAdminRead, access.PermAdminWrite)
		if code, status := put(writer, `{"status":"active"}`); code != 200 || status != "active" {
			t.Errorf("reactivating an inactive user: %d %s", code, status)
		}
		if code, status := put(writer, `{"status":"banned"}`); code != 200 || status != "banned" || !bans()[0].Active {
			t.Errorf("a ban by an admin:write token through v1: %d %s", code, status)
		}
		if code, status := put(writer, `{"status":"active"}`); code != 200 || status != "active" {
			t.Errorf("lifting a ban by an admin:write token through v1: %d %s", code, status)
		}
		reader, _ := app.TokenFor(t, boss.ID, access.PermAdminRead)
		res := apptest.DoBody(t, app, "PUT", path, reader, `{"status":"banned"}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != access.PermAdminWrite {
			t.Errorf("a ban by a read-only token: %d %s", res.Code, res.Body)
		}
	})
}

// TestV1UserUpdateRefusals: 422 for each bad body, 404, 403 for one's own
// role and another's super admin, 423 under another admin's lock (written
// to the audit log as 423, never as a success) and through for the holder.
func TestV1UserUpdateRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, root := app.Admin(t)
		u := app.User(t, "member@example.com")
		path := "/api/v1/admin/users/" + itoa(u.ID)
		for body, field := range map[string]string{
			`{}`: "body", `{"name":"x"}`: "name", `{"status":"gone"}`: "status", `{"status":"Banned"}`: "status",
			`{"isVerified":true,"reason":"spam"}`: "reason", `{"status":"active","reason":"spam"}`: "reason",
			`{"status":"banned","reason":" "}`: "reason", `{"status":"banned","reason":"` + strings.Repeat("r", 501) + `"}`: "reason",
			`{"role":"super_admin"}`: "role", `{"isVerified":"yes"}`: "isVerified",
			`{"notes":"` + strings.Repeat("n", 2001) + `"}`: "notes",
		} {
			wantInvalid(t, app, "PUT", path, super, body, field)
		}
		if res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/users/999999", super, `{"isVerified":true}`); res.Code != 404 {
			t.Errorf("unknown user: %d", res.Code)
		}
		for _, body := range []string{`{"role":"user"}`, `{"status":"inactive"}`, `{"status":"banned"}`} {
			res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/users/"+itoa(root.ID), super, body)
			if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.Code != api.CodeSelfActionForbidden || e.Error.RequiredPermission != "" {
				t.Errorf("one's own %s: %d %s", body, res.Code, res.Body)
			}
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		bossSession := app.SessionFor(t, boss.ID)
		res := apptest.DoBody(t, app, "PUT", "/api/v1/admin/users/"+itoa(root.ID), bossSession, `{"isVerified":true}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.Code != "INSUFFICIENT_ADMIN_PERMISSIONS" || e.Error.RequiredPermission != "admin:super" {
			t.Errorf("an admin changes a super admin: %d %s", res.Code, res.Body)
		}
		reader, _ := app.TokenFor(t, boss.ID, access.PermAdminRead)
		res = apptest.DoBody(t, app, "PUT", path, reader, `{"isVerified":true}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:write" {
			t.Errorf("a read-only token: %d %s", res.Code, res.Body)
		}

		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", bossSession, `{"type":"user","id":"`+itoa(u.ID)+`"}`); res.Code != 201 {
			t.Fatal(res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", path, super, `{"isVerified":true}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 423 || e.Error.Code != "RESOURCE_LOCKED" || e.Error.LockedBy != "boss" || e.Error.LockedAt == "" {
			t.Errorf("under another admin's lock: %d %s", res.Code, res.Body)
		}
		if e := lastEntry(t, app, "user.update"); e.Status != 423 || e.TargetID != itoa(u.ID) {
			t.Errorf("the refused update's audit entry: %d for %s", e.Status, e.TargetID)
		}
		if res := apptest.DoBody(t, app, "PUT", path, bossSession, `{"isVerified":true}`); res.Code != 200 {
			t.Errorf("the lock's holder: %d %s", res.Code, res.Body)
		}
	})
}

// banV1 bans or unbans through the versioned route and decodes the answer.
func banV1(t *testing.T, app *apptest.App, h http.Header, id int64, body string) (int, struct {
	User struct{ Status string }
	Ban  *struct {
		ID, Reason, CreatedAt, CreatedBy string
		ExpiresAt                        *string
	}
	HiddenPosts int
}) {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(id)+"/ban", h, body)
	var got struct {
		Data struct {
			User struct{ Status string }
			Ban  *struct {
				ID, Reason, CreatedAt, CreatedBy string
				ExpiresAt                        *string
			}
			HiddenPosts int
		}
	}
	json.Unmarshal(res.Body.Bytes(), &got)
	return res.Code, got.Data
}

// TestV1Ban: every duration unit sets its expiry, no duration is
// permanent, the banned user's session and token stop at once, time alone
// ends a temporary ban, unban ends the one in force (and of a user no ban
// holds changes nothing), and removeContent hides the user's public posts
// with a moderation record each, in the ban's transaction.
func TestV1Ban(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		var clock atomic.Int64
		clock.Store(time.Now().UnixNano())
		app.Store.Now = func() time.Time { return time.Unix(0, clock.Load()).UTC() }
		u := app.User(t, "member@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		for dur, want := range map[string]time.Duration{"30m": 30 * time.Minute, "2h": 2 * time.Hour, "3d": 72 * time.Hour, "1w": 7 * 24 * time.Hour} {
			code, got := banV1(t, app, admin, u.ID, `{"action":"ban","reason":"spam","duration":"`+dur+`"}`)
			if code != 200 || got.User.Status != "banned" || got.Ban == nil || got.Ban.ExpiresAt == nil || got.Ban.CreatedBy != itoa(root.ID) {
				t.Fatalf("ban %s: %d %+v", dur, code, got)
			}
			created, _ := time.Parse(time.RFC3339, got.Ban.CreatedAt)
			expires, _ := time.Parse(time.RFC3339, *got.Ban.ExpiresAt)
			if expires.Sub(created) != want {
				t.Errorf("ban %s lasts %v", dur, expires.Sub(created))
			}
		}
		if code, got := banV1(t, app, admin, u.ID, `{"action":"ban","reason":"for good"}`); code != 200 || got.Ban.ExpiresAt != nil {
			t.Errorf("a permanent ban: %d %+v", code, got.Ban)
		}
		if code, got := banV1(t, app, admin, u.ID, `{"action":"unban"}`); code != 200 || got.User.Status != "active" || got.Ban == nil || got.Ban.Reason != "for good" {
			t.Errorf("unban: %d %+v", code, got)
		}
		if code, got := banV1(t, app, admin, u.ID, `{"action":"unban"}`); code != 200 || got.Ban != nil || got.User.Status != "active" {
			t.Errorf("unban of a user no ban holds: %d %+v", code, got)
		}

		session := app.SessionFor(t, u.ID)
		token, _ := app.TokenFor(t, u.ID, access.PermAdminRead)
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", token); res.Code != 200 {
			t.Fatalf("the admin's token before the ban: %d", res.Code)
		}
		if code, _ := banV1(t, app, admin, u.ID, `{"action":"ban","reason":"cooling off","duration":"1h"}`); code != 200 {
			t.Fatal(code)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/users", token); res.Code != 401 && res.Code != 403 {
			t.Errorf("a banned admin's token: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", "/api/auth/session", session); strings.Contains(res.Body.String(), `"user"`) {
			t.Errorf("a banned user's session: %s", res.Body)
		}
		clock.Add(int64(61 * time.Minute))
		admin = app.SessionFor(t, root.ID) // an idle hour ended the earlier one, as a staff session's does
		if got := listV1Users(t, app, admin, "status=banned"); got.Meta.Pagination.Total != 0 {
			t.Errorf("an hour and a minute later, still banned: %v", got.usernames())
		}

		author := app.User(t, "author@example.com")
		for i := range 3 {
			newPostAs(t, app, author.ID, fmt.Sprint("Post ", i))
		}
		draft := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: "Draft", Content: "x"})
			return err
		})
		if draft != nil {
			t.Fatal(draft)
		}
		code, got := banV1(t, app, admin, author.ID, `{"action":"ban","reason":"spam ring","removeContent":true}`)
		hidden, _ := db.NewSelect().Model((*models.Post)(nil)).Where("author_id = ? AND status = 'hidden'", author.ID).Count(ctx)
		records, _ := db.NewSelect().Model((*models.ModerationAction)(nil)).Where("action = 'hide' AND reason = 'spam ring'").Count(ctx)
		if code != 200 || got.HiddenPosts != 3 || hidden != 3 || records != 3 {
			t.Errorf("removeContent: %d, %d hidden by the answer, %d in the database, %d records", code, got.HiddenPosts, hidden, records)
		}
	})
}

// TestV1BanRefusals: 422 for each bad body, 404, 403 for oneself and for a
// super admin unless the caller is one, 423 under another admin's lock.
func TestV1BanRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, root := app.Admin(t)
		u := app.User(t, "member@example.com")
		for body, field := range map[string]string{
			`{"reason":"x"}`: "action", `{"action":"kick","reason":"x"}`: "action", `{"action":"ban"}`: "reason",
			`{"action":"ban","reason":"x","duration":"5x"}`: "duration", `{"action":"ban","reason":"x","duration":"0d"}`: "duration",
			`{"action":"unban","duration":"1d"}`: "action", `{"action":"ban","reason":"x","until":"later"}`: "until",
		} {
			wantInvalid(t, app, "POST", "/api/v1/admin/users/"+itoa(u.ID)+"/ban", super, body, field)
		}
		ban := `{"action":"ban","reason":"x"}`
		if code, _ := banV1(t, app, super, 999999, ban); code != 404 {
			t.Errorf("unknown user: %d", code)
		}
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(root.ID)+"/ban", super, ban)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.Code != api.CodeSelfActionForbidden || e.Error.RequiredPermission != "" {
			t.Errorf("banning oneself: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminUserBanPath(root.ID), super, `{"reason":"x"}`); res.Code != 403 ||
			res.Body.String() != `{"error":"You cannot do this to your own account"}`+"\n" {
			t.Errorf("banning oneself through the unversioned family: %d %s", res.Code, res.Body)
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		bossSession := app.SessionFor(t, boss.ID)
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/"+itoa(root.ID)+"/ban", bossSession, ban)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:super" {
			t.Errorf("an admin bans a super admin: %d %s", res.Code, res.Body)
		}
		other := app.User(t, "other@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		if code, _ := banV1(t, app, super, other.ID, ban); code != 200 {
			t.Errorf("a super admin bans a super admin: %d", code)
		}
		apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", bossSession, `{"type":"user","id":"`+itoa(u.ID)+`"}`)
		if code, _ := banV1(t, app, super, u.ID, ban); code != 423 {
			t.Errorf("under another admin's lock: %d", code)
		}
		if code, _ := banV1(t, app, bossSession, u.ID, ban); code != 200 {
			t.Errorf("the lock's holder: %d", code)
		}
	})
}

// bulkUsers inserts n plain users in one statement and returns their ids
// as the bulk route takes them.
func bulkUsers(t *testing.T, app *apptest.App, n int) []string {
	t.Helper()
	now := app.Store.Timestamp()
	users := make([]models.User, n)
	for i := range users {
		users[i] = models.User{Username: fmt.Sprint("bulk", i), Email: fmt.Sprintf("bulk%d@example.com", i),
			Status: models.UserActive, IsActive: true, ProfilePublic: true, CreatedAt: now, UpdatedAt: now}
	}
	if _, err := app.Store.DB.NewInsert().Model(&users).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i, u := range users {
		ids[i] = itoa(u.ID)
	}
	return ids
}

func idList(ids []string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// TestV1BulkUpdate: 500 users change in one request, with one audit entry
// holding each one's before and after; one unknown id among them changes
// nothing.
func TestV1BulkUpdate(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		ids := bulkUsers(t, app, 500)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super,
			`{"userIds":`+idList(ids)+`,"changes":{"role":"moderator","isVerified":true}}`)
		var got struct {
			Data struct {
				Updated int
				Users   []struct {
					ID, Role   string
					IsVerified bool
				}
			}
		}
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || got.Data.Updated != 500 || len(got.Data.Users) != 500 || got.Data.Users[499].Role != "moderator" || !got.Data.Users[0].IsVerified {
			t.Fatalf("%d, updated %d, %d users", res.Code, got.Data.Updated, len(got.Data.Users))
		}
		mods, _ := db.NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
			Where("r.name = 'moderator'").Count(ctx)
		e := lastEntry(t, app, "users.bulk_update")
		changes, _ := e.Details["users"].([]any)
		first, _ := changes[0].(map[string]any)
		before, _ := first["before"].(map[string]any)
		after, _ := first["after"].(map[string]any)
		if mods != 500 || e.Status != 200 || len(changes) != 500 ||
			before["role"] != "user" || after["role"] != "moderator" || after["isVerified"] != true {
			t.Errorf("%d moderators; audit entry %s %d with %d changes, first %v", mods, e.Action, e.Status, len(changes), first)
		}

		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super,
			`{"userIds":`+idList([]string{ids[0], ids[0]})+`,"changes":{"isVerified":false}}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"updated":1`) {
			t.Errorf("a repeated id: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super,
			`{"userIds":`+idList([]string{ids[0], "999999", ids[1]})+`,"changes":{"status":"inactive"}}`)
		inactive, _ := db.NewSelect().Model((*models.User)(nil)).Where("status = 'inactive'").Count(ctx)
		if res.Code != 404 || !strings.Contains(res.Body.String(), "999999") || inactive != 0 {
			t.Errorf("an unknown id: %d %s, %d users inactive", res.Code, res.Body, inactive)
		}
	})
}

// TestV1BulkUpdateRefusals: 422 for each bad body, 403 without admin:super
// or with one's own status among the changes, 423 under another admin's
// lock.
func TestV1BulkUpdateRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, root := app.Admin(t)
		ids := bulkUsers(t, app, 3)
		many := make([]string, 501)
		for i := range many {
			many[i] = fmt.Sprint(i + 1)
		}
		for body, field := range map[string]string{
			`{"userIds":[],"changes":{"isVerified":true}}`:                     "userIds",
			`{"userIds":` + idList(many) + `,"changes":{"isVerified":true}}`:   "userIds",
			`{"userIds":["x"],"changes":{"isVerified":true}}`:                  "userIds",
			`{"userIds":[` + ids[0] + `],"changes":{"isVerified":true}}`:       "userIds",
			`{"userIds":["` + ids[0] + `"],"changes":{}}`:                      "changes",
			`{"userIds":["` + ids[0] + `"],"changes":{"status":"banned"}}`:     "changes.status",
			`{"userIds":["` + ids[0] + `"],"changes":{"notes":"x"}}`:           "notes",
			`{"userIds":["` + ids[0] + `"],"changes":{"role":"x"},"dryRun":1}`: "dryRun",
		} {
			wantInvalid(t, app, "POST", "/api/v1/admin/users/bulk-update", super, body, field)
		}
		empty := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super, `{"userIds":["`+ids[0]+`"],"changes":{}}`)
		if msg := empty.Body.String(); !strings.Contains(msg, "status, role, isVerified") || strings.Contains(msg, "notes") {
			t.Errorf("empty changes: %s; the message must offer what changes takes, which is not notes", msg)
		}
		ok := `{"userIds":` + idList(ids) + `,"changes":{"isVerified":true}}`
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", app.SessionFor(t, boss.ID), ok)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:super" {
			t.Errorf("an admin without admin:super: %d %s", res.Code, res.Body)
		}
		self := `{"userIds":` + idList(append(ids, itoa(root.ID))) + `,"changes":{"role":"user"}}`
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super, self)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.Code != api.CodeSelfActionForbidden {
			t.Errorf("one's own role among the changes: %d %s", res.Code, res.Body)
		}
		other := app.User(t, "other@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", app.SessionFor(t, other.ID), `{"type":"user","id":"`+ids[2]+`"}`)
		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/users/bulk-update", super, ok)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 423 || e.Error.LockedBy != "other" {
			t.Errorf("one user under another admin's lock: %d %s", res.Code, res.Body)
		}
	})
}

// TestV1UserNotes: staff notes are appended and listed newest first; a
// warning, a ban and a standing hide of the user's post are the
// strikes the user's detail lists; bad notes are 422, unknown users 404.
func TestV1UserNotes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		u := app.User(t, "member@example.com")
		newPostAs(t, app, u.ID, "Loud post")
		notes := "/api/v1/admin/users/" + itoa(u.ID) + "/notes"
		res := apptest.DoBody(t, app, "POST", notes, admin, `{"body":"Asked to tone it down"}`)
		if res.Code != 201 || !strings.Contains(res.Body.String(), `"kind":"note"`) || !strings.Contains(res.Body.String(), `"username":"root"`) {
			t.Fatalf("a note: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", notes, admin, `{"body":"Second time: personal attacks","kind":"warning"}`); res.Code != 201 {
			t.Fatal(res.Body)
		}
		var list struct {
			Data []struct {
				Kind, Body string
				Author     struct{ ID string }
			}
		}
		json.Unmarshal(apptest.Do(t, app, "GET", notes, admin).Body.Bytes(), &list)
		if len(list.Data) != 2 || list.Data[0].Kind != "warning" || list.Data[1].Body != "Asked to tone it down" || list.Data[0].Author.ID != itoa(root.ID) {
			t.Errorf("notes: %+v", list.Data)
		}
		post := postByTitle(t, db, "Loud post")
		apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(post), admin, `{"action":"hide","reason":"harassment"}`)
		apptest.DoBody(t, app, "POST", api.AdminV1UserPath(u.ID)+"/ban", admin, `{"action":"ban","reason":"third strike","duration":"1d"}`)
		var detail struct {
			Data struct {
				Strikes []struct {
					Kind, Reason string
					By           *string
				}
			}
		}
		json.Unmarshal(apptest.Do(t, app, "GET", api.AdminV1UserPath(u.ID), admin).Body.Bytes(), &detail)
		kinds := map[string]string{}
		for _, s := range detail.Data.Strikes {
			kinds[s.Kind] = s.Reason
		}
		if len(detail.Data.Strikes) != 3 || kinds["ban"] != "third strike" || kinds["warning"] != "Second time: personal attacks" ||
			kinds["moderation"] != "harassment" || detail.Data.Strikes[0].By == nil || *detail.Data.Strikes[0].By != "root" {
			t.Errorf("strikes: %+v", detail.Data.Strikes)
		}
		for body, field := range map[string]string{`{"body":"  "}`: "body", `{"body":"x","kind":"praise"}`: "kind",
			`{"body":"` + strings.Repeat("b", 2001) + `"}`: "body", `{"text":"x"}`: "text"} {
			wantInvalid(t, app, "POST", notes, admin, body, field)
		}
		for _, method := range []string{"GET", "POST"} {
			if res := apptest.DoBody(t, app, method, "/api/v1/admin/users/999999/notes", admin, `{"body":"x"}`); res.Code != 404 {
				t.Errorf("%s notes of an unknown user: %d", method, res.Code)
			}
		}
	})
}

// TestV1StrikesStillStanding: a strike is a decision against the author
// that still stands. An undone hide, a hide another moderator overturned
// and a dismissal leave none; a hide that stands and a delete are one
// strike each, and a hide stands again once the approve over it is undone.
func TestV1StrikesStillStanding(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		other := app.SessionFor(t, app.User(t, "second@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...).ID)
		u := app.User(t, "member@example.com")
		posts := map[string]int64{}
		for _, title := range []string{"Undone", "Overturned", "Dismissed", "Hidden", "Deleted", "Hidden again"} {
			newPostAs(t, app, u.ID, title)
			posts[title] = postByTitle(t, db, title)
		}
		decide := func(h http.Header, title, body string) {
			t.Helper()
			if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(posts[title]), h, body); res.Code != 200 {
				t.Fatalf("%s %s: %d %s", title, body, res.Code, res.Body)
			}
		}
		undo := func(h http.Header, title string) {
			t.Helper()
			if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(posts[title])+"/undo", h, ``); res.Code != 200 {
				t.Fatalf("undo on %s: %d %s", title, res.Code, res.Body)
			}
		}
		strikes := func() []string {
			var detail struct {
				Data struct {
					Strikes []struct{ Kind, Reason string }
				}
			}
			json.Unmarshal(apptest.Do(t, app, "GET", api.AdminV1UserPath(u.ID), admin).Body.Bytes(), &detail)
			var out []string
			for _, s := range detail.Data.Strikes {
				out = append(out, s.Kind+":"+s.Reason)
			}
			return out
		}
		decide(admin, "Undone", `{"action":"hide","reason":"Spam"}`)
		undo(admin, "Undone")
		if got := strikes(); len(got) != 0 {
			t.Fatalf("after hide and undo, strikes %v, want none", got)
		}
		decide(admin, "Overturned", `{"action":"hide","reason":"Off topic"}`)
		decide(other, "Overturned", `{"action":"approve","reason":"It is on topic"}`)
		decide(admin, "Dismissed", `{"action":"dismiss","reason":"Not spam"}`)
		decide(admin, "Hidden", `{"action":"hide","reason":"harassment"}`)
		decide(admin, "Deleted", `{"action":"delete","reason":"doxxing"}`)
		decide(admin, "Hidden again", `{"action":"hide","reason":"insults"}`)
		decide(other, "Hidden again", `{"action":"approve","reason":"misread"}`)
		undo(other, "Hidden again")
		all := strikes()
		slices.Sort(all)
		if got := strings.Join(all, ", "); got != "moderation:doxxing, moderation:harassment, moderation:insults" {
			t.Errorf("strikes %q, want the standing hide, the delete and the hide whose overturn was undone", got)
		}
	})
}
