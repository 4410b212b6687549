package actions_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/netguard"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestSettingsActions: feature flags need admin:super and the reason
// presets admin:write, whichever door; each checks its input once, on its
// field, and nothing is stored after a refusal.
func TestSettingsActions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		acts := actions.New(store, policy.Policy{Now: time.Now}, []byte("secret"), nil)
		admin := &access.Principal{UserID: 1, Via: access.ViaToken, Permissions: access.Permissions{access.PermAdminRead, access.PermAdminWrite}}
		op := actions.Operator()

		var fe *policy.ForbiddenError
		on := true
		if _, err := acts.PutFeatureFlag(ctx, admin, "beta", actions.FlagChange{Enabled: &on}); !errors.As(err, &fe) || fe.Need != access.PermAdminSuper {
			t.Errorf("an admin without admin:super puts a flag: %v", err)
		}
		big, long := 101, strings.Repeat("x", actions.MaxFlagDescription+1)
		for field, name := range map[string]string{"name": "Beta!", "rolloutPercentage": "beta", "description": "beta-2"} {
			ch := actions.FlagChange{}
			switch field {
			case "rolloutPercentage":
				ch.RolloutPercentage = &big
			case "description":
				ch.Description = &long
			}
			var ie *actions.InvalidError
			if _, err := acts.PutFeatureFlag(ctx, op, name, ch); !errors.As(err, &ie) || ie.Field != field {
				t.Errorf("flag %s %+v: %v, want invalid %s", name, ch, err, field)
			}
		}
		if flags, _ := store.Settings.FeatureFlags(ctx); len(flags) != 0 {
			t.Fatalf("flags stored after refusals: %+v", flags)
		}
		desc := "  the new editor  "
		res, err := acts.PutFeatureFlag(ctx, op, "beta", actions.FlagChange{Enabled: &on, Description: &desc})
		if err != nil || res.Before != nil || !res.After.Enabled || res.After.Description != "the new editor" {
			t.Fatalf("the operator creates a flag: %+v, %v", res, err)
		}
		if res, err = acts.PutFeatureFlag(ctx, op, "beta", actions.FlagChange{}); err != nil || res.Before == nil {
			t.Errorf("put again: %+v, %v, want the flag before", res, err)
		}
		if err := acts.DeleteFeatureFlag(ctx, admin, "beta"); !errors.As(err, &fe) {
			t.Errorf("an admin without admin:super deletes a flag: %v", err)
		}
		if err := acts.DeleteFeatureFlag(ctx, op, "beta"); err != nil {
			t.Errorf("delete: %v", err)
		}
		if err := acts.DeleteFeatureFlag(ctx, op, "beta"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("delete again: %v, want not found", err)
		}

		moderator := &access.Principal{UserID: 2, Via: access.ViaToken, Permissions: access.Permissions{access.PermPostsModerate}}
		if _, err := acts.SetModerationReasons(ctx, moderator, []string{"Spam"}); !errors.As(err, &fe) || fe.Need != access.PermAdminWrite {
			t.Errorf("a moderator sets the presets: %v", err)
		}
		tooMany := make([]string, actions.MaxReasons+1)
		for i := range tooMany {
			tooMany[i] = strings.Repeat("r", i+1)
		}
		for _, bad := range [][]string{nil, tooMany, {"Spam", " spam "}, {" "}, {strings.Repeat("x", actions.MaxReasonLength+1)}} {
			var ie *actions.InvalidError
			if _, err := acts.SetModerationReasons(ctx, admin, bad); !errors.As(err, &ie) || ie.Field != "reasons" {
				t.Errorf("%d reasons %.40q: %v, want invalid reasons", len(bad), bad, err)
			}
		}
		if got, err := actions.ModerationReasons(ctx, store.Settings); err != nil || strings.Join(got, ",") != strings.Join(actions.DefaultReasons, ",") {
			t.Fatalf("presets after refusals: %v, %v", got, err)
		}
		if _, err := acts.SetModerationReasons(ctx, admin, []string{" Spam ", "Scam"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := actions.ModerationReasons(ctx, store.Settings); strings.Join(got, ",") != "Spam,Scam" {
			t.Errorf("presets: %v, want them trimmed", got)
		}
	})
}

// TestWebhookActions: a new endpoint is checked on its field (an
// address the policy refuses, an unknown event, a long description) and
// keeps its events once each; an endpoint is its maker's, so only
// admin:super acts on a super admin's.
func TestWebhookActions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		acts := actions.New(store, policy.Policy{Now: time.Now}, []byte("secret"), nil)
		acts.Targets = webhook.NewSender(netguard.New(netguard.Config{}), time.Second, "test")
		super, err := store.Users.CreateUser(ctx, models.NewUser{Email: "super@example.com", Roles: access.ImpliedRoles(access.RoleSuperAdmin)})
		if err != nil {
			t.Fatal(err)
		}
		admin := &access.Principal{UserID: super.ID + 1, Via: access.ViaToken, Permissions: access.Permissions{access.PermAdminWrite, access.PermAdminDelete}}
		owner := &access.Principal{UserID: super.ID, Via: access.ViaToken, Roles: access.ImpliedRoles(access.RoleSuperAdmin),
			Permissions: access.RolePermissions(access.ImpliedRoles(access.RoleSuperAdmin))}
		url, desc := "https://hooks.example.com/x", strings.Repeat("d", actions.MaxWebhookDescription+1)
		private := "http://10.0.0.1/hook"
		for field, in := range map[string]actions.WebhookInput{
			"url":         {URL: &private, Events: []string{webhook.EventUserBanned}},
			"events":      {URL: &url, Events: []string{"user.sneezed"}},
			"description": {URL: &url, Events: []string{webhook.EventUserBanned}, Description: &desc},
		} {
			var ie *actions.InvalidError
			if _, err := acts.CreateWebhook(ctx, admin, in); !errors.As(err, &ie) || ie.Field != field {
				t.Errorf("%s: %v, want invalid %s", field, err, field)
			}
		}
		w, err := acts.CreateWebhook(ctx, owner, actions.WebhookInput{URL: &url,
			Events: []string{webhook.EventUserBanned, webhook.EventUserBanned, webhook.EventPostModerated}})
		if err != nil || len(w.Events) != 2 || !w.Active || len(w.Secret) == 0 || w.CreatedBy == nil || *w.CreatedBy != super.ID {
			t.Fatalf("create: %+v, %v", w, err)
		}
		off := false
		if _, err := acts.UpdateWebhook(ctx, admin, w.ID, actions.WebhookInput{Active: &off}); !errors.Is(err, policy.ErrOutranked) {
			t.Errorf("an admin turns off a super admin's endpoint: %v", err)
		}
		if _, err := acts.RotateWebhookSecret(ctx, admin, w.ID); !errors.Is(err, policy.ErrOutranked) {
			t.Errorf("an admin rotates a super admin's secret: %v", err)
		}
		if err := acts.DeleteWebhook(ctx, admin, w.ID); !errors.Is(err, policy.ErrOutranked) {
			t.Errorf("an admin deletes a super admin's endpoint: %v", err)
		}
		var ie *actions.InvalidError
		if _, err := acts.UpdateWebhook(ctx, owner, w.ID, actions.WebhookInput{}); !errors.As(err, &ie) {
			t.Errorf("an empty change: %v, want invalid", err)
		}
		if _, err := acts.RotateWebhookSecret(ctx, owner, w.ID); err != nil {
			t.Errorf("its maker rotates the secret: %v", err)
		}
		if err := acts.DeleteWebhook(ctx, actions.Operator(), w.ID); err != nil {
			t.Errorf("the operator deletes: %v", err)
		}
	})
}
