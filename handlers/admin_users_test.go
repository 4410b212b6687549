package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestAdminUsersListAccess(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		mod := a.User(t, "mod@example.com", access.RoleModerator)
		plain := a.User(t, "plain@example.com")
		readOnly, _ := a.TokenFor(t, admin.ID, access.PermAdminRead)
		manage, _ := a.TokenFor(t, admin.ID, access.PermUsersManage)
		for _, tt := range []struct {
			name   string
			header http.Header
			want   int
		}{
			{"anonymous", nil, 401},
			{"plain user", a.SessionFor(t, plain.ID), 403},
			{"moderator", a.SessionFor(t, mod.ID), 403},
			{"token without users:manage", readOnly, 403},
			{"token with users:manage", manage, 200},
			{"admin session", a.SessionFor(t, admin.ID), 200},
		} {
			res := apptest.Do(t, a, "GET", "/api/admin/users", tt.header)
			var body map[string]any
			json.Unmarshal(res.Body.Bytes(), &body)
			if res.Code != tt.want {
				t.Errorf("%s: %d %s, want %d", tt.name, res.Code, res.Body, tt.want)
			}
			if _, ok := body["error"].(string); tt.want != 200 && !ok {
				t.Errorf("%s: error body %s is not {error: string}", tt.name, res.Body)
			}
		}
		var listed int
		for _, e := range a.AuditEntries(t) {
			if e.Action == "users.list" {
				listed++
			}
		}
		if listed != 6 {
			t.Errorf("%d users.list audit entries, want one per request, denied ones included", listed)
		}
	})
}

func TestAdminUsersListValidation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		h, _ := a.Admin(t)
		for query, want := range map[string][]api.ZodIssue{
			"page=0":                             {{Code: "too_small", Path: []string{"page"}, Message: "Number must be greater than or equal to 1"}},
			"page=-3":                            {{Code: "too_small", Path: []string{"page"}, Message: "Number must be greater than or equal to 1"}},
			"page=abc":                           {{Code: "invalid_type", Expected: "number", Received: "nan", Path: []string{"page"}, Message: "Expected number, received nan"}},
			"page=1.5":                           {{Code: "invalid_type", Expected: "integer", Received: "float", Path: []string{"page"}, Message: "Expected integer, received float"}},
			"limit=0":                            {{Code: "too_small", Path: []string{"limit"}, Message: "Number must be greater than or equal to 1"}},
			"limit=101":                          {{Code: "too_big", Path: []string{"limit"}, Message: "Number must be less than or equal to 100"}},
			"search=":                            {{Code: "too_small", Path: []string{"search"}, Message: "String must contain at least 1 character(s)"}},
			"search=%20%20":                      {{Code: "too_small", Path: []string{"search"}, Message: "String must contain at least 1 character(s)"}},
			"search=" + strings.Repeat("x", 101): {{Code: "too_big", Path: []string{"search"}, Message: "String must contain at most 100 character(s)"}},
			"page=x&limit=500": {
				{Code: "invalid_type", Expected: "number", Received: "nan", Path: []string{"page"}, Message: "Expected number, received nan"},
				{Code: "too_big", Path: []string{"limit"}, Message: "Number must be less than or equal to 100"},
			},
		} {
			res := apptest.Do(t, a, "GET", "/api/admin/users?"+query, h)
			var body struct {
				Error   string
				Details []api.ZodIssue
			}
			if err := json.Unmarshal(res.Body.Bytes(), &body); err != nil || res.Code != 400 || body.Error == "" {
				t.Errorf("%s: %d %s, want 400 {error, details}", query, res.Code, res.Body)
				continue
			}
			if got, _ := json.Marshal(body.Details); string(got) != mustJSON(want) {
				t.Errorf("%s: details %s, want %s", query, got, mustJSON(want))
			}
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestAdminUsersListRecords(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		h, root := a.Admin(t)
		ctx := context.Background()
		for i := range 45 {
			a.User(t, fmt.Sprintf("member%02d@example.com", i))
		}
		gus := a.User(t, "gus@example.com", access.RoleModerator)
		now := a.Store.Timestamp()
		st := &models.SubscriptionType{Name: "supporter", CreatedAt: now}
		db.NewInsert().Model(st).Exec(ctx)
		email := "gus@github.example"
		for _, row := range []any{
			&models.UserSubscription{UserID: gus.ID, SubscriptionTypeID: st.ID, Status: "active", StartedAt: now},
			&models.ProviderAccount{UserID: gus.ID, Provider: "github", ProviderUserID: "9", Email: &email, EmailVerified: true, CreatedAt: now, LastUsedAt: &now},
		} {
			if _, err := db.NewInsert().Model(row).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		ban := apptest.DoBody(t, a, "POST", api.AdminUserBanPath(gus.ID), h, `{"reason":"harassment","duration":"1w"}`)
		if ban.Code != 200 {
			t.Fatalf("ban: %d %s", ban.Code, ban.Body)
		}

		res := apptest.Do(t, a, "GET", "/api/admin/users?limit=10&page=1", h)
		var list api.AdminUserList
		if err := json.Unmarshal(res.Body.Bytes(), &list); err != nil || res.Code != 200 {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		if list.CurrentPage != 1 || list.TotalPages != 5 || list.Pagination != (api.AdminPagination{Page: 1, Limit: 10, Total: 47, TotalPages: 5, HasNext: true}) {
			t.Errorf("envelope %+v", list)
		}
		g := list.Users[0]
		if g.ID != gus.ID || g.Email != "gus@example.com" || !g.IsTimedOut || g.TimeoutCount != 1 || g.ActiveTimeoutReason == nil ||
			*g.ActiveTimeoutReason != "harassment" || g.TimeoutExpires == nil || g.ActiveTimeoutID == nil || g.Status != "banned" ||
			!g.HasModerator || g.HasAdmin || g.RoleCount != 2 || g.RoleNames == nil || *g.RoleNames != "user,moderator" ||
			g.SubscriptionCount != 1 || !g.HasActiveSubscription || g.SubscriptionNames == nil || *g.SubscriptionNames != "supporter" ||
			g.ProviderName == nil || *g.ProviderName != "github" || g.ProviderEmail == nil || !g.ProviderVerified || g.ProviderLastUsed == nil {
			t.Errorf("gus's record: %s", mustJSON(g))
		}
		exp, _ := time.Parse(time.RFC3339, *g.TimeoutExpires)
		if d := exp.Sub(now); d < 7*24*time.Hour-time.Minute || d > 7*24*time.Hour+time.Minute {
			t.Errorf("a one-week ban expires in %v", d)
		}

		res = apptest.Do(t, a, "GET", "/api/admin/users?limit=10&page=5", h)
		json.Unmarshal(res.Body.Bytes(), &list)
		last := list.Users[len(list.Users)-1]
		if len(list.Users) != 7 || list.Pagination.HasNext || !list.Pagination.HasPrev || last.ID != root.ID || !last.HasAdmin {
			t.Errorf("last page: %d users, %+v, last %s", len(list.Users), list.Pagination, mustJSON(last))
		}
		res = apptest.Do(t, a, "GET", "/api/admin/users?page=9", h)
		json.Unmarshal(res.Body.Bytes(), &list)
		if res.Code != 200 || len(list.Users) != 0 || list.Pagination.Total != 47 {
			t.Errorf("past the end: %d %s", res.Code, res.Body)
		}
		res = apptest.Do(t, a, "GET", "/api/admin/users?search=GITHUB.example", h)
		json.Unmarshal(res.Body.Bytes(), &list)
		if len(list.Users) != 1 || list.Users[0].ID != gus.ID {
			t.Errorf("search by provider email: %s", res.Body)
		}
		if !strings.Contains(res.Body.String(), `"admin_notes":null`) || !strings.Contains(res.Body.String(), `"image":null`) {
			t.Errorf("absent values must be null: %s", res.Body)
		}
	})
}

func TestAdminBanAndUnban(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		rootH, root := a.Admin(t)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		adminH := a.SessionFor(t, admin.ID)
		gus := a.UserWithPassword(t, "gus@example.com", "correct horse battery")
		gusSession := a.SessionFor(t, gus.ID)
		if res := apptest.Do(t, a, "GET", "/api/auth/session", gusSession); !strings.Contains(res.Body.String(), "gus@example.com") {
			t.Fatalf("gus's session before the ban: %s", res.Body)
		}

		res := apptest.DoBody(t, a, "POST", api.AdminUserBanPath(gus.ID), adminH, `{"reason":"spam"}`)
		var got api.AdminBanResult
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 200 || !got.Success || got.User.Status != "banned" || !got.User.IsTimedOut || got.User.TimeoutExpires != nil {
			t.Fatalf("permanent ban: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "GET", "/api/auth/session", gusSession); res.Body.String() != "{}\n" {
			t.Errorf("a banned user's session still answers: %s", res.Body)
		}
		signIn := apptest.DoBody(t, a, "POST", "/api/auth/signin", nil, `{"email":"gus@example.com","password":"correct horse battery"}`)
		if signIn.Code != 401 {
			t.Errorf("a banned user signed in: %d %s", signIn.Code, signIn.Body)
		}

		for _, tt := range []struct {
			name, path, body string
			header           http.Header
			want             int
		}{
			{"unban", api.AdminUserUnbanPath(gus.ID), "", adminH, 200},
			{"unban again", api.AdminUserUnbanPath(gus.ID), "", adminH, 409},
			{"ban oneself", api.AdminUserBanPath(admin.ID), `{"reason":"x"}`, adminH, 403},
			{"admin bans a super admin", api.AdminUserBanPath(root.ID), `{"reason":"x"}`, adminH, 403},
			{"super admin bans an admin", api.AdminUserBanPath(admin.ID), `{"reason":"x","duration":"2h"}`, rootH, 200},
			{"unknown user", api.AdminUserBanPath(99999), `{"reason":"x"}`, rootH, 404},
			{"id not a number", "/api/admin/users/abc/ban", `{"reason":"x"}`, rootH, 400},
			{"no reason", api.AdminUserBanPath(gus.ID), `{}`, rootH, 400},
			{"bad duration", api.AdminUserBanPath(gus.ID), `{"reason":"x","duration":"3y"}`, rootH, 400},
			{"unknown field", api.AdminUserBanPath(gus.ID), `{"reason":"x","forever":true}`, rootH, 400},
			{"malformed JSON", api.AdminUserBanPath(gus.ID), `{"reason":`, rootH, 400},
			{"plain user", api.AdminUserBanPath(gus.ID), `{"reason":"x"}`, a.SessionFor(t, a.User(t, "p@example.com").ID), 403},
			{"anonymous", api.AdminUserBanPath(gus.ID), `{"reason":"x"}`, nil, 401},
		} {
			res := apptest.DoBody(t, a, "POST", tt.path, tt.header, tt.body)
			var body map[string]any
			json.Unmarshal(res.Body.Bytes(), &body)
			if res.Code != tt.want {
				t.Errorf("%s: %d %s, want %d", tt.name, res.Code, res.Body, tt.want)
			}
			if _, ok := body["error"].(string); tt.want >= 400 && !ok {
				t.Errorf("%s: %s is not the family's {error}", tt.name, res.Body)
			}
		}
		if res := apptest.DoBody(t, a, "POST", "/api/auth/signin", nil, `{"email":"gus@example.com","password":"correct horse battery"}`); res.Code != 200 {
			t.Errorf("gus cannot sign in after the unban: %d %s", res.Code, res.Body)
		}

		var bans []models.AuditEntry
		for _, e := range a.AuditEntries(t) {
			if e.Action == "user.ban" || e.Action == "user.unban" {
				bans = append(bans, e)
			}
		}
		if len(bans) != 14 {
			t.Fatalf("%d ban and unban audit entries, want 14 (one per request)", len(bans))
		}
		first := bans[0]
		before, _ := first.Details["before"].(map[string]any)
		if first.Status != 200 || first.TargetType != "user" || first.TargetID != fmt.Sprint(gus.ID) || before["status"] != "active" {
			t.Errorf("the ban's audit entry: %+v", first)
		}
	})
}

func TestAdminStats(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		h, _ := a.Admin(t)
		gus := a.User(t, "gus@example.com")
		a.User(t, "ada@example.com")
		if res := apptest.DoBody(t, a, "POST", api.AdminUserBanPath(gus.ID), h, `{"reason":"spam"}`); res.Code != 200 {
			t.Fatal(res.Body)
		}
		now := a.Store.Timestamp()
		old := now.AddDate(0, 0, -3)
		lapsed := &models.User{Username: "lapsed", Email: "lapsed@example.com", Status: models.UserBanned, IsActive: true, CreatedAt: old, UpdatedAt: old}
		idle := &models.User{Username: "idle", Email: "idle@example.com", Status: models.UserInactive, CreatedAt: old, UpdatedAt: old}
		insertRows(t, db, lapsed, idle)
		ended := now.Add(-time.Hour)
		insertRows(t, db, &models.Ban{UserID: lapsed.ID, Reason: "spam", CreatedAt: old, ExpiresAt: &ended})
		for i, status := range []string{models.PostPublished, models.PostPublished, models.PostDraft, models.PostHidden, models.PostFlagged, models.PostPending} {
			insertRows(t, db, &models.Post{Title: fmt.Sprint("p", i), AuthorID: gus.ID, Status: status, CreatedAt: now, UpdatedAt: now})
		}
		res := apptest.Do(t, a, "GET", "/api/admin/stats", h)
		var st api.AdminStats
		if err := json.Unmarshal(res.Body.Bytes(), &st); err != nil || res.Code != 200 {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		// The lapsed ban counts as active; the idle user is neither.
		wantPosts := map[string]int{"total": 6, "published": 2, "draft": 1, "hidden": 1, "flagged": 1, "pending": 1}
		if st.Users != (api.UserTotals{Total: 5, Active: 3, Banned: 1, NewToday: 3}) || fmt.Sprint(st.Posts) != fmt.Sprint(wantPosts) ||
			st.DatabaseSizeBytes <= 0 || !regexp.MustCompile(`^3h 2m \d+s$`).MatchString(st.Uptime) || st.Database != models.Dialect(db) {
			t.Errorf("stats %s", res.Body)
		}
		if res := apptest.Do(t, a, "GET", "/api/admin/stats", a.SessionFor(t, gus.ID)); res.Code != 401 {
			t.Errorf("a banned user's session: %d", res.Code)
		}
	})
}
