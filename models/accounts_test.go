package models_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func links(t *testing.T, s *models.Store) []models.ProviderAccount {
	t.Helper()
	var rows []models.ProviderAccount
	if err := s.DB.NewSelect().Model(&rows).Order("pa.id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestLinkOAuthUserCreatesThenFinds(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return t0 }
		id := models.OAuthIdentity{Provider: "github", ProviderUserID: "42", Email: "Ada@Example.com", EmailVerified: true,
			Name: "Ada Lovelace", Username: "AdaL", AvatarURL: "https://img.example/ada.png"}
		u, err := s.Users.LinkOAuthUser(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if u.ID == 0 || u.Email != "ada@example.com" || u.Username != "adal" || u.Name == nil || *u.Name != "Ada Lovelace" ||
			u.Image == nil || u.EmailVerified == nil || u.PasswordHash != nil || u.Status != models.UserActive {
			t.Errorf("created %+v", u)
		}
		if roles, err := s.Users.UserRoles(ctx, u.ID); err != nil || !slices.Equal(roles, []string{"user"}) {
			t.Errorf("roles %v, %v; want [user]", roles, err)
		}
		rows := links(t, s)
		if len(rows) != 1 || rows[0].UserID != u.ID || rows[0].Provider != "github" || rows[0].ProviderUserID != "42" ||
			rows[0].Email == nil || *rows[0].Email != "ada@example.com" || !rows[0].EmailVerified ||
			rows[0].LastUsedAt == nil || !rows[0].LastUsedAt.Equal(t0) {
			t.Errorf("links %+v", rows)
		}

		// The same account again, with a changed email at the provider:
		// the same user, the link refreshed, no new user.
		t1 := t0.Add(time.Hour)
		s.Now = func() time.Time { return t1 }
		id.Email = "ada@new.example"
		again, err := s.Users.LinkOAuthUser(ctx, id)
		if err != nil || again.ID != u.ID {
			t.Fatalf("second sign-in: %+v, %v", again, err)
		}
		rows = links(t, s)
		if len(rows) != 1 || *rows[0].Email != "ada@new.example" || !rows[0].LastUsedAt.Equal(t1) {
			t.Errorf("links after the second sign-in %+v", rows)
		}
		if n, err := s.Users.CountUsers(ctx); err != nil || n != 1 {
			t.Errorf("%d users, %v; want 1", n, err)
		}
	})
}

func TestLinkOAuthUserByVerifiedEmail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ada, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com"}) // invited, never used
		if err != nil {
			t.Fatal(err)
		}
		u, err := s.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "google", ProviderUserID: "g-1", Email: "ADA@example.com", EmailVerified: true})
		if err != nil || u.ID != ada.ID || u.EmailVerified == nil {
			t.Fatalf("got %+v, %v; want user %d with a verified email", u, err, ada.ID)
		}
		if rows := links(t, s); len(rows) != 1 || rows[0].UserID != ada.ID || rows[0].Provider != "google" {
			t.Errorf("links %+v", rows)
		}
		if n, err := s.Users.CountUsers(ctx); err != nil || n != 1 {
			t.Errorf("%d users, %v; want 1", n, err)
		}
	})
}

// TestLinkOAuthUserLeavesAccountsInUse: a verified email reaches no
// account with a password, a second factor or a sign-in behind it.
func TestLinkOAuthUserLeavesAccountsInUse(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		mk := func(email, hash string) *models.User {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: email, PasswordHash: hash})
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		mk("password@example.com", "h")
		if err := s.Auth.StartTwoFactor(ctx, mk("factor@example.com", "").ID, "sealed"); err != nil {
			t.Fatal(err)
		}
		if err := s.Users.RecordLogin(ctx, mk("signedin@example.com", "").ID, "credentials", "127.0.0.1", "test"); err != nil {
			t.Fatal(err)
		}
		for i, email := range []string{"password@example.com", "factor@example.com", "signedin@example.com"} {
			t.Run(email, func(t *testing.T) {
				u, err := s.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "gitlab", ProviderUserID: strconv.Itoa(i), Email: email, EmailVerified: true})
				var ie *models.AccountInUseError
				if u != nil || !errors.As(err, &ie) || ie.Provider != "gitlab" {
					t.Errorf("got %+v, %v; want the account in use", u, err)
				}
				if after, err := s.Users.UserByEmail(ctx, email); err != nil || after.EmailVerified != nil {
					t.Errorf("the account changed: %+v, %v", after, err)
				}
			})
		}
		if rows := links(t, s); len(rows) != 0 {
			t.Errorf("links %+v, want none", rows)
		}
	})
}

func TestLinkOAuthUserRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		if _, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com"}); err != nil {
			t.Fatal(err)
		}
		banned, err := s.Users.CreateUser(ctx, models.NewUser{Email: "bob@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		linked, err := s.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "discord", ProviderUserID: "d-9", Email: "cy@example.com", EmailVerified: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{banned.ID, linked.ID} {
			if _, err := db.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		before := links(t, s)
		tests := []struct {
			name  string
			id    models.OAuthIdentity
			check func(error) bool
		}{
			{"unverified email of an existing user", models.OAuthIdentity{Provider: "discord", ProviderUserID: "d-1", Email: "ada@example.com"},
				func(err error) bool {
					var ue *models.UnverifiedEmailError
					return errors.As(err, &ue) && ue.Taken && errors.Is(err, models.ErrEmailNotVerified)
				}},
			{"unverified email of nobody", models.OAuthIdentity{Provider: "discord", ProviderUserID: "d-2", Email: "new@example.com"},
				func(err error) bool {
					var ue *models.UnverifiedEmailError
					return errors.As(err, &ue) && !ue.Taken
				}},
			{"no email", models.OAuthIdentity{Provider: "github", ProviderUserID: "7", EmailVerified: true},
				func(err error) bool { return errors.Is(err, models.ErrEmailNotVerified) }},
			{"banned user by email", models.OAuthIdentity{Provider: "github", ProviderUserID: "8", Email: "bob@example.com", EmailVerified: true},
				func(err error) bool {
					var ie *models.InactiveUserError
					return errors.As(err, &ie) && ie.Status == "banned" && ie.UserID == banned.ID
				}},
			{"banned user by link", models.OAuthIdentity{Provider: "discord", ProviderUserID: "d-9", Email: "cy@example.com", EmailVerified: true},
				func(err error) bool { return errors.Is(err, models.ErrUserNotActive) }},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u, err := s.Users.LinkOAuthUser(ctx, tt.id)
				if u != nil || !tt.check(err) {
					t.Errorf("got %+v, %v", u, err)
				}
			})
		}
		if n, err := s.Users.CountUsers(ctx); err != nil || n != 3 {
			t.Errorf("%d users after refusals, %v; want 3", n, err)
		}
		if after := links(t, s); len(after) != len(before) || !after[0].LastUsedAt.Equal(*before[0].LastUsedAt) {
			t.Errorf("refusals wrote links: before %+v, after %+v", before, after)
		}
	})
}

func TestLinkOAuthUserUniqueUsername(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		for _, email := range []string{"ada@one.example", "ada2@one.example"} {
			if _, err := s.Users.CreateUser(ctx, models.NewUser{Email: email}); err != nil {
				t.Fatal(err)
			}
		}
		tests := []struct {
			id   models.OAuthIdentity
			want string
		}{
			{models.OAuthIdentity{Provider: "github", ProviderUserID: "1", Email: "x@two.example", EmailVerified: true, Username: "ADA"}, "ada3"},
			{models.OAuthIdentity{Provider: "google", ProviderUserID: "2", Email: "y@two.example", EmailVerified: true, Name: "Grace Hopper"}, "gracehopper"},
			{models.OAuthIdentity{Provider: "google", ProviderUserID: "3", Email: "zed@two.example", EmailVerified: true, Name: "李雷"}, "zed"},
		}
		for _, tt := range tests {
			u, err := s.Users.LinkOAuthUser(ctx, tt.id)
			if err != nil || u.Username != tt.want {
				t.Errorf("%+v: got %+v, %v; want username %s", tt.id, u, err, tt.want)
			}
		}
	})
}
