package models_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestListUsersSearchMatchesEveryWay: a search of the admin list answers
// the same page and the same exact count as sorting every match, for
// common, rare and absent terms, each sort, direction and page, with a
// status filter too.
func TestListUsersSearchMatchesEveryWay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var all []models.User
		for i := range 420 {
			domain := "example.org"
			if i%9 == 0 {
				domain = "rare.test"
			}
			u := models.User{Username: fmt.Sprintf("user%03d", i), Email: fmt.Sprintf("u%03d@%s", i, domain), Status: "active", IsActive: true,
				PostCount: (i * 37) % 11, CreatedAt: base.Add(time.Duration(i%50) * time.Hour), UpdatedAt: base}
			if i%4 == 0 {
				login := base.Add(time.Duration(i%7) * time.Minute)
				u.LastLoginAt = &login
			}
			if i%5 == 0 {
				u.Status, u.IsActive = "inactive", false
			}
			if _, err := db.NewInsert().Model(&u).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			all = append(all, u)
		}
		if err := s.Users.RecountUsers(ctx); err != nil {
			t.Fatal(err)
		}
		for _, search := range []string{"example.org", "rare.test", "user1", "user25", "nobody", ""} {
			for _, sort := range []string{"post_count", "created_at", "last_login_at", "username"} {
				for _, f := range []models.UserListFilter{
					{Search: search, Sort: sort, Desc: true, Limit: 10},
					{Search: search, Sort: sort, Limit: 7, Offset: 14},
					{Search: search, Sort: sort, Desc: true, Limit: 50, Offset: 190},
					{Search: search, Sort: sort, Status: "inactive", Limit: 5, Offset: 3},
				} {
					checkListPage(t, s, all, f)
				}
			}
		}
	})
}

func checkListPage(t *testing.T, s *models.Store, all []models.User, f models.UserListFilter) {
	t.Helper()
	rows, total, err := s.Users.ListUsers(context.Background(), f)
	if err != nil {
		t.Fatalf("%+v: %v", f, err)
	}
	want := expectedMatches(all, f)
	end := min(f.Offset+f.Limit, len(want))
	page := []string{}
	if f.Offset < end {
		for _, u := range want[f.Offset:end] {
			page = append(page, u.Username)
		}
	}
	got := []string{}
	for _, u := range rows {
		got = append(got, u.Username)
	}
	if !slices.Equal(got, page) || total != len(want) {
		t.Errorf("%+v:\n got %v total %d\nwant %v total %d", f, got, total, page, len(want))
	}
}

// expectedMatches sorts every user matching f as the list does.
func expectedMatches(all []models.User, f models.UserListFilter) []models.User {
	var out []models.User
	for _, u := range all {
		if (strings.Contains(u.Username, f.Search) || strings.Contains(u.Email, f.Search)) && (f.Status == "" || u.Status == f.Status) {
			out = append(out, u)
		}
	}
	key := func(a, b models.User) int {
		switch f.Sort {
		case "post_count":
			return cmp.Compare(a.PostCount, b.PostCount)
		case "created_at":
			return a.CreatedAt.Compare(b.CreatedAt)
		case "username":
			return cmp.Compare(a.Username, b.Username)
		}
		switch { // last_login_at: never counts as the longest ago
		case a.LastLoginAt == nil && b.LastLoginAt == nil:
			return 0
		case a.LastLoginAt == nil:
			return -1
		case b.LastLoginAt == nil:
			return 1
		}
		return a.LastLoginAt.Compare(*b.LastLoginAt)
	}
	slices.SortFunc(out, func(a, b models.User) int {
		c := cmp.Or(key(a, b), cmp.Compare(a.ID, b.ID))
		if f.Desc {
			return -c
		}
		return c
	})
	return out
}
