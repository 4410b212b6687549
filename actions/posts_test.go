package actions_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// decision names what an action answered, for a table to compare.
func decision(err error) string {
	var fe *policy.ForbiddenError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &fe):
		return "needs " + fe.Need
	case errors.Is(err, policy.ErrNotOwner):
		return "not owner"
	case errors.Is(err, policy.ErrNeedsSecondFactor):
		return "2fa"
	case errors.Is(err, policy.ErrNeedsConfirmation):
		return "confirm"
	}
	return err.Error()
}

// TestPostActionsPolicy drives the post actions directly, as every door
// does, with a table of callers against someone else's post (the author's
// own in the first row): only the author rewrites or deletes its own;
// deleting someone else's needs admin:delete, whether through the general
// API's delete or a moderation decision; moderation needs posts:moderate;
// a staff session under REQUIRE_STAFF_2FA needs two-factor sign-in for
// any staff power, and a bulk decision a fresh confirmation, which bearer
// tokens are past.
func TestPostActionsPolicy(t *testing.T) {
	ctx := context.Background()
	store := models.NewStore(dbtest.Open(t, config.DialectSQLite))
	now := time.Now()
	acts := actions.New(store, policy.Policy{RequireStaff2FA: true, Now: func() time.Time { return now }}, []byte("test secret"), nil)
	user := func(email string, roles ...string) *models.User {
		u, err := store.Users.CreateUser(ctx, models.NewUser{Email: email, Roles: roles})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	session := func(u *models.User, roles ...string) *access.Principal {
		return &access.Principal{UserID: u.ID, Roles: roles, Permissions: access.RolePermissions(roles), Via: access.ViaSession, TwoFactor: true, ConfirmedAt: now}
	}
	ada, bob := user("ada@example.com"), user("bob@example.com")
	mod, admin := user("mod@example.com", access.RoleModerator), user("admin@example.com", access.RoleAdmin)
	noFactor := session(admin, access.RoleAdmin)
	noFactor.TwoFactor = false
	stale := session(admin, access.RoleAdmin)
	stale.ConfirmedAt = now.Add(-11 * time.Minute)
	token := &access.Principal{UserID: admin.ID, Roles: []string{access.RoleAdmin}, Permissions: access.Permissions{access.PermAdminDelete}, Via: access.ViaToken}

	title := "Rewritten"
	ops := []struct {
		name string
		do   func(who *access.Principal, id int64) error
	}{
		{"edit", func(who *access.Principal, id int64) error {
			_, err := acts.EditPost(ctx, who, actions.PostEdit{PostID: id, Title: &title})
			return err
		}},
		{"delete", func(who *access.Principal, id int64) error { return acts.DeletePost(ctx, who, id) }},
		{"hide", func(who *access.Principal, id int64) error {
			_, err := acts.ModeratePost(ctx, who, id, actions.Moderation{Action: "hide"})
			return err
		}},
		{"moderation delete", func(who *access.Principal, id int64) error {
			_, err := acts.ModeratePost(ctx, who, id, actions.Moderation{Action: "delete"})
			return err
		}},
		{"bulk hide", func(who *access.Principal, id int64) error {
			_, err := acts.BulkModerate(ctx, who, []int64{id}, actions.Moderation{Action: "hide"})
			return err
		}},
	}
	tests := []struct {
		name string
		who  *access.Principal
		want [5]string // edit, delete, hide, moderation delete, bulk hide
	}{
		{"the author", session(ada), [5]string{"ok", "ok", "needs posts:moderate", "needs posts:moderate", "needs posts:moderate"}},
		{"another user", session(bob), [5]string{"not owner", "needs admin:delete", "needs posts:moderate", "needs admin:delete", "needs posts:moderate"}},
		{"a moderator", session(mod, access.RoleModerator), [5]string{"not owner", "needs admin:delete", "ok", "needs admin:delete", "ok"}},
		{"an admin", session(admin, access.RoleAdmin), [5]string{"not owner", "ok", "ok", "ok", "ok"}},
		{"an admin without two-factor sign-in", noFactor, [5]string{"not owner", "2fa", "2fa", "2fa", "2fa"}},
		{"an admin who confirmed 11 minutes ago", stale, [5]string{"not owner", "ok", "ok", "ok", "confirm"}},
		{"a token with admin:delete only", token, [5]string{"not owner", "ok", "needs posts:moderate", "needs posts:moderate", "needs posts:moderate"}},
	}
	for _, tt := range tests {
		for i, op := range ops {
			var p *models.PostRecord
			err := store.Change(ctx, func(ctx context.Context) (err error) {
				p, err = store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: ada.ID, Title: "Ada's", Content: "x", Published: true})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := decision(op.do(tt.who, p.ID)); got != tt.want[i] {
				t.Errorf("%s, %s: %s, want %s", tt.name, op.name, got, tt.want[i])
			}
		}
	}
}
