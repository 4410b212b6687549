package actions_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestInvitationValid: the question the registration-mode check asks
// (does this registration carry a valid invitation?) is yes for a fresh
// invitation and its address, no for none, an unknown token, another
// address, and one revoked; making one asks the policy (a member is
// refused, a moderator is not).
func TestInvitationValid(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		acts := actions.New(store, policy.Policy{Now: time.Now}, []byte("secret"), nil)
		composer, err := mail.NewComposer(mail.Community{Name: "Plaza", URL: "https://plaza.example"})
		if err != nil {
			t.Fatal(err)
		}
		acts.Mail = composer
		mod, err := store.Users.CreateUser(ctx, models.NewUser{Email: "mod@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		as := func(role string) *access.Principal {
			return &access.Principal{UserID: mod.ID, Via: access.ViaSession, Roles: []string{role}, Permissions: access.RolePermissions([]string{role})}
		}
		var fe *policy.ForbiddenError
		if _, err := acts.CreateInvitation(ctx, as(access.RoleUser), actions.InvitationInput{}); !errors.As(err, &fe) {
			t.Errorf("a member makes an invitation: %v", err)
		}
		n, err := acts.CreateInvitation(ctx, as(access.RoleModerator), actions.InvitationInput{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		if n.URL != "https://plaza.example/signup?invite="+n.Token || n.Invitation.MaxUses != 1 {
			t.Errorf("made %+v, link %s", n.Invitation, n.URL)
		}
		for _, tt := range []struct {
			reg  models.NewRegistration
			want bool
		}{
			{models.NewRegistration{Email: "ada@example.com", Invitation: n.Token}, true},
			{models.NewRegistration{Email: "ADA@example.com", Invitation: " " + n.Token + " "}, true},
			{models.NewRegistration{Email: "ada@example.com"}, false},
			{models.NewRegistration{Email: "ada@example.com", Invitation: "NOSUCHTOKEN"}, false},
			{models.NewRegistration{Email: "bob@example.com", Invitation: n.Token}, false},
		} {
			if got, err := actions.InvitationValid(acts, ctx, tt.reg); got != tt.want || err != nil {
				t.Errorf("%+v: %v %v, want %v", tt.reg, got, err, tt.want)
			}
		}
		if _, err := acts.RevokeInvitation(ctx, as(access.RoleModerator), n.Invitation.ID); err != nil {
			t.Fatal(err)
		}
		if got, err := actions.InvitationValid(acts, ctx, models.NewRegistration{Email: "ada@example.com", Invitation: n.Token}); got || err != nil {
			t.Errorf("a revoked invitation: %v %v", got, err)
		}
	})
}
