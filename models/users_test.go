package models_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestCreateUser(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: " Ada@Example.COM ", Name: "Ada", PasswordHash: "h", Roles: []string{"admin", "super_admin"}, IsVerified: true})
		if err != nil {
			t.Fatal(err)
		}
		if u.ID == 0 || u.Email != "ada@example.com" || u.Username != "ada" || u.Status != models.UserActive || !u.IsActive || u.EmailVerified == nil {
			t.Errorf("created %+v", u)
		}
		got, err := s.Users.UserByEmail(ctx, "ADA@example.com")
		if err != nil || got.ID != u.ID || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Errorf("UserByEmail = %+v, %v; want id %d created %v", got, err, u.ID, u.CreatedAt)
		}
		roles, err := s.Users.UserRoles(ctx, u.ID)
		if err != nil || !slices.Equal(roles, []string{"super_admin", "admin", "user"}) {
			t.Errorf("roles = %v, %v", roles, err)
		}
		_, err = s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com", Username: "other"})
		if !errors.Is(err, models.ErrConflict) {
			t.Errorf("duplicate email: got %v, want ErrConflict", err)
		}
		_, err = s.Users.CreateUser(ctx, models.NewUser{Email: "ada2@example.com", Username: "ADA"})
		if !errors.Is(err, models.ErrConflict) {
			t.Errorf("username differing only in case: got %v, want ErrConflict", err)
		}
		if _, err := s.Users.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown email: got %v, want ErrNotFound", err)
		}
	})
}

func TestCreateUserUnknownRoleWritesNothing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		_, err := s.Users.CreateUser(ctx, models.NewUser{Email: "x@example.com", Roles: []string{"emperor"}})
		if !errors.Is(err, models.ErrNotFound) || !strings.Contains(err.Error(), "unknown role") {
			t.Fatalf("create with role emperor: %v; want an unknown role (ErrNotFound)", err)
		}
		if n, err := s.Users.CountUsers(ctx); err != nil || n != 0 {
			t.Errorf("%d users after a failed create (%v), want 0", n, err)
		}
	})
}

func TestActiveMatchesStatus(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		u, err := models.NewStore(db).Users.CreateUser(ctx, models.NewUser{Email: "x@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.NewUpdate().Model((*models.User)(nil)).Set("status = ?", models.UserInactive).Where("id = ?", u.ID).Exec(ctx)
		if !isCheckViolation(err, "users_is_active_matches_status") {
			t.Errorf("status inactive with is_active true: %v; want the CHECK constraint users_is_active_matches_status to refuse it", err)
		}
		// The same update with is_active to match is allowed: the refusal
		// above is the constraint's, not the statement's.
		_, err = db.NewUpdate().Model((*models.User)(nil)).Set("status = ?", models.UserInactive).Set("is_active = ?", false).Where("id = ?", u.ID).Exec(ctx)
		if err != nil {
			t.Errorf("status inactive with is_active false: %v", err)
		}
	})
}

func TestEnsureSetting(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		calls := 0
		gen := func() (string, error) { calls++; return "v" + string(rune('0'+calls)), nil }
		first, err := s.Settings.EnsureSetting(ctx, "jwt_secret", gen)
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.Settings.EnsureSetting(ctx, "jwt_secret", gen)
		if err != nil || first != "v1" || second != "v1" || calls != 1 {
			t.Errorf("got %q then %q after %d generations; want v1 twice, generated once", first, second, calls)
		}
	})
}
