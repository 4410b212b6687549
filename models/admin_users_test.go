package models_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// statements counts the statements a database runs.
type statements struct {
	mu   sync.Mutex
	list []string
}

func (s *statements) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (s *statements) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, e.Query)
}

func (s *statements) reset() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.list
	s.list = nil
	return out
}

// richUsers makes n users, each with roles, a subscription, two provider
// accounts and a ban history, so that a per-user query would show.
func richUsers(t *testing.T, s *models.Store, n int) {
	t.Helper()
	ctx := context.Background()
	now := s.Timestamp()
	var st models.SubscriptionType
	st.Name, st.CreatedAt = "supporter", now
	if _, err := s.DB.NewInsert().Model(&st).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		roles := []string{}
		if i%10 == 0 {
			roles = append(roles, models.RoleModerator)
		}
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("user%03d@example.com", i), Name: fmt.Sprintf("User %03d", i), Roles: roles})
		if err != nil {
			t.Fatal(err)
		}
		rows := []any{
			&models.UserSubscription{UserID: u.ID, SubscriptionTypeID: st.ID, Status: "active", StartedAt: now},
			&models.ProviderAccount{UserID: u.ID, Provider: "github", ProviderUserID: fmt.Sprint("gh", i), CreatedAt: now},
			&models.ProviderAccount{UserID: u.ID, Provider: "google", ProviderUserID: fmt.Sprint("go", i), CreatedAt: now, LastUsedAt: &now},
			&models.Ban{UserID: u.ID, Reason: "old", CreatedAt: now.Add(-time.Hour), EndedAt: &now},
		}
		for _, r := range rows {
			if _, err := s.DB.NewInsert().Model(r).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestAdminUsersPageIsOneStatement(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		richUsers(t, s, 120)
		if _, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 1}); err != nil { // loads the users index
			t.Fatal(err)
		}
		hook := &statements{}
		db.AddQueryHook(hook)
		res, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		rows, total := res.Rows, res.Total
		if ran := hook.reset(); len(ran) != 2 {
			t.Errorf("a page of 100 users ran %d statements, want 2 (the change log and the page):\n%s", len(ran), strings.Join(ran, "\n"))
		}
		if len(rows) != 100 || total != 120 {
			t.Fatalf("got %d rows of %d", len(rows), total)
		}
		r := rows[0]
		if r.Email != "user119@example.com" || r.RoleCount != 1 || r.SubscriptionCount != 1 || r.ActiveSubscriptions != 1 ||
			r.ProviderName == nil || *r.ProviderName != "google" || r.TimeoutCount != 1 || r.ActiveTimeoutID != nil {
			t.Errorf("newest user's summary: %+v", r)
		}
		if mod := rows[19]; mod.Email != "user100@example.com" || mod.RoleNames == nil || *mod.RoleNames != "user,moderator" || mod.RoleCount != 2 {
			t.Errorf("moderator's roles: %+v", mod)
		}
		res, err = s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 2, Limit: 100, Search: "USER1"})
		if err != nil || res.Total != 20 || len(res.Rows) != 0 {
			t.Errorf("page 2 of a search matching 20: %+v, %v", res, err)
		}
		hook.reset()
		// A search finds its matches in the index: the change log, then
		// the page, whatever the page's size.
		var ran [2][]string
		for i, limit := range []int{5, 100} {
			res, err = s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: limit, Search: "user1"})
			if err != nil || len(res.Rows) != min(limit, 20) {
				t.Fatalf("a search page of %d: %d rows, %v", limit, len(res.Rows), err)
			}
			ran[i] = hook.reset()
		}
		if len(ran[0]) != 2 || len(ran[1]) != 2 {
			t.Errorf("search pages of 5 and 100 ran %d and %d statements:\n%s", len(ran[0]), len(ran[1]), strings.Join(ran[1], "\n"))
		}
	})
}

func TestAdminUsersSearch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ada, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com", Name: "Ada Lovelace"})
		s.Users.CreateUser(ctx, models.NewUser{Email: "bob_100%@example.com", Name: "Bob"})
		s.Users.CreateUser(ctx, models.NewUser{Email: "cy@example.com", Name: "Cy"})
		now := s.Timestamp()
		gitlabEmail := "lovelace@gitlab.example"
		db.NewInsert().Model(&models.ProviderAccount{UserID: ada.ID, Provider: "gitlab", ProviderUserID: "1", Email: &gitlabEmail, CreatedAt: now}).Exec(ctx)
		for term, want := range map[string]string{
			"LOVELACE": "ada@example.com", "gitlab": "ada@example.com", "100%": "bob_100%@example.com",
			"b_1": "bob_100%@example.com", "cy@": "cy@example.com", "%@": "bob_100%@example.com", "a_l": "", "zzz": "",
		} {
			res, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 20, Search: term})
			if err != nil {
				t.Fatal(err)
			}
			rows, total := res.Rows, res.Total
			var got string
			if len(rows) > 0 {
				got = rows[0].Email
			}
			if err != nil || got != want || want != "" && total != 1 || want == "" && total != 0 {
				t.Errorf("search %q: %d rows (%q first), total %d, %v; want %q", term, len(rows), got, total, err, want)
			}
		}
	})
}

func TestTemporaryBanEndsWithTime(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		var clock atomic.Int64
		clock.Store(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixNano())
		s.Now = func() time.Time { return time.Unix(0, clock.Load()).UTC() }
		admin, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "admin@example.com", Roles: []string{models.RoleAdmin}})
		u, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "gus@example.com"})
		err := s.Change(ctx, func(ctx context.Context) error {
			_, err := s.Sanctions.BanUser(ctx, models.BanInput{UserID: u.ID, AdminID: admin.ID, Reason: "harassment", Duration: time.Hour})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		status := func() string {
			got, err := s.Users.UserByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			acc, err := s.Users.AccountByID(ctx, u.ID)
			if err != nil || acc.Status != got.Status {
				t.Fatalf("account status %q, user status %q, %v", acc.Status, got.Status, err)
			}
			return got.Status
		}
		if got := status(); got != models.UserBanned {
			t.Fatalf("after the ban: %s", got)
		}
		if ban, err := s.Sanctions.ActiveBan(ctx, u.ID); err != nil || ban == nil || ban.Reason != "harassment" {
			t.Fatalf("active ban %+v, %v", ban, err)
		}
		clock.Add(int64(time.Hour))
		if got := status(); got != models.UserActive {
			t.Errorf("an hour later: %s, want active with nothing written", got)
		}
		if n, err := s.Sanctions.LiftExpiredBans(ctx); err != nil || n != 1 {
			t.Errorf("LiftExpiredBans = %d, %v", n, err)
		}
		var raw models.User
		db.NewSelect().Model(&raw).Where("id = ?", u.ID).Scan(ctx)
		if raw.Status != models.UserActive {
			t.Errorf("the row still says %s after the sweep", raw.Status)
		}
		err = s.Change(ctx, func(ctx context.Context) error { return s.Sanctions.UnbanUser(ctx, u.ID, admin.ID) })
		if !errors.Is(err, models.ErrNotBanned) {
			t.Errorf("unbanning an active user: %v", err)
		}
	})
}

func TestBulkBannedStatusStaysBanned(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		u, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "gus@example.com"})
		db.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", u.ID).Exec(ctx)
		if got, err := s.Users.UserByID(ctx, u.ID); err != nil || got.Status != models.UserBanned {
			t.Errorf("a status set to banned without a ban row: %+v, %v", got, err)
		}
		if err := s.Change(ctx, func(ctx context.Context) error { return s.Sanctions.UnbanUser(ctx, u.ID, u.ID) }); err != nil {
			t.Errorf("unban: %v", err)
		}
		if got, _ := s.Users.UserByID(ctx, u.ID); got.Status != models.UserActive {
			t.Errorf("after unban: %s", got.Status)
		}
	})
}

func TestAdminUsersPagesFromBothEnds(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		var want []string
		for i := range 45 {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("u%02d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			want = append([]string{u.Email}, want...)
		}
		doomed, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "doomed@example.com"})
		if _, err := db.NewDelete().Model((*models.User)(nil)).Where("id = ?", doomed.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var got []string
		for page := 1; page <= 8; page++ {
			res, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: page, Limit: 7})
			if err != nil || res.Total != 45 {
				t.Fatalf("page %d: %+v, %v", page, res, err)
			}
			for _, r := range res.Rows {
				got = append(got, r.Email)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("pages in order:\n got %v\nwant %v", got, want)
		}
	})
}

// TestAdminUsersSearchCountIsExact: a search past the 200 matches that
// used to be counted counts them all, and its last page is there.
func TestAdminUsersSearchCountIsExact(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := s.Timestamp()
		users := make([]models.User, models.SearchCountCap+5)
		for i := range users {
			users[i] = models.User{Username: fmt.Sprint("many", i), Email: fmt.Sprintf("many%d@example.org", i), Status: models.UserActive,
				IsActive: true, ProfilePublic: true, CreatedAt: now.Add(time.Duration(i) * time.Second), UpdatedAt: now}
		}
		if _, err := db.NewInsert().Model(&users).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 10, Search: "example.ORG"})
		if err != nil || res.Total != len(users) || len(res.Rows) != 10 || res.Rows[0].Username != fmt.Sprint("many", len(users)-1) {
			t.Fatalf("a search of %d matches: total %d, %d rows, %v", len(users), res.Total, len(res.Rows), err)
		}
		res, err = s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: models.SearchCountCap/10 + 1, Limit: 10, Search: "example.org"})
		if err != nil || len(res.Rows) != 5 || res.Rows[4].Username != "many0" {
			t.Errorf("the last page: %d rows, %v", len(res.Rows), err)
		}
		res, err = s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 10})
		if err != nil || res.Total != len(users) {
			t.Errorf("the whole list after a bulk insert: total %d, %v", res.Total, err)
		}
	})
}

// TestAdminUsersDeepPages: any page of the whole list, however deep, holds
// the users an OFFSET over all of them would, after bulk inserts and
// deletions in the middle and at the ends of the id runs that PostgreSQL
// counts.
func TestAdminUsersDeepPages(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := s.Timestamp()
		users := make([]models.User, 3500)
		for i := range users {
			users[i] = models.User{Username: fmt.Sprint("deep", i), Email: fmt.Sprintf("deep%d@example.com", i),
				Status: models.UserActive, IsActive: true, ProfilePublic: true, CreatedAt: now, UpdatedAt: now}
		}
		if _, err := db.NewInsert().Model(&users).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewDelete().Model((*models.User)(nil)).
			Where("id % 7 = 0 OR id BETWEEN 1000 AND 1100 OR id = ?", users[len(users)-1].ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var want []int64
		if err := db.NewSelect().Model((*models.User)(nil)).Column("id").OrderExpr("id DESC").Scan(ctx, &want); err != nil {
			t.Fatal(err)
		}
		check := func(offset, limit int) {
			t.Helper()
			res, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: offset/limit + 1, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range res.Rows {
				got = append(got, r.ID)
			}
			from := min(offset, len(want))
			if exp := want[from:min(from+limit, len(want))]; res.Total != len(want) || !slices.Equal(got, exp) {
				t.Errorf("users %d to %d of %d: %v (total %d), want %v", offset, offset+limit, len(want), got, res.Total, exp)
			}
		}
		for page := range len(want)/20 + 2 {
			check(page*20, 20)
		}
		// Single users on each side of every edge between the runs of
		// 1,024 ids that PostgreSQL counts.
		for i := 1; i < len(want); i++ {
			if want[i]/1024 != want[i-1]/1024 {
				check(i-1, 1)
				check(i, 1)
				check(i+1, 1)
			}
		}
	})
}
