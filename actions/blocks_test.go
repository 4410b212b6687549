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
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestBlockActions: creating a block needs admin:write and deleting one
// admin:delete, whichever door; staff without two-factor sign-in are
// refused when the instance requires it; the value is kept normalised, a
// bad one or a past expiry is refused on its field, a duplicate names the
// block it repeats; an unknown id is not found.
func TestBlockActions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		acts := actions.New(store, policy.Policy{RequireStaff2FA: true, Now: time.Now}, []byte("secret"), nil)
		writer, err := store.Users.CreateUser(ctx, models.NewUser{Email: "writer@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		session := func(twoFactor bool, perms ...string) *access.Principal {
			return &access.Principal{UserID: writer.ID, Via: access.ViaSession, TwoFactor: twoFactor,
				Permissions: append(access.Permissions{access.PermPostsModerate}, perms...)}
		}
		in := actions.BlockInput{Kind: "ip", Value: "203.0.113.9/24", Reason: "spam"}

		var fe *policy.ForbiddenError
		if _, err := acts.CreateBlock(ctx, session(true), in); !errors.As(err, &fe) || fe.Need != access.PermAdminWrite {
			t.Errorf("a moderator blocks: %v, want a refusal for want of admin:write", err)
		}
		if _, err := acts.CreateBlock(ctx, session(false, access.PermAdminWrite), in); !errors.Is(err, policy.ErrNeedsSecondFactor) {
			t.Errorf("staff without two-factor sign-in blocks: %v, want ErrNeedsSecondFactor", err)
		}
		if rows, total, err := store.Blocklist.Blocks(ctx, "", 10, 0); err != nil || total != 0 {
			t.Fatalf("%d blocks stored after refusals (%v): %+v", total, err, rows)
		}

		admin := session(true, access.PermAdminWrite)
		b, err := acts.CreateBlock(ctx, admin, in)
		if err != nil || b.Value != "203.0.113.0/24" || b.CreatedBy == nil || *b.CreatedBy != writer.ID {
			t.Fatalf("create: %+v, %v", b, err)
		}
		var dup *models.DuplicateBlockError
		if _, err := acts.CreateBlock(ctx, admin, actions.BlockInput{Kind: "ip", Value: "203.0.113.200/24"}); !errors.As(err, &dup) || dup.ID != b.ID {
			t.Errorf("the same range again: %v, want a duplicate of block %d", err, b.ID)
		}
		past := time.Now().Add(-time.Minute)
		for field, bad := range map[string]actions.BlockInput{
			"value":     {Kind: "ip", Value: "example.com"},
			"kind":      {Kind: "asn", Value: "64496"},
			"expiresAt": {Kind: "email_domain", Value: "example.com", ExpiresAt: &past},
		} {
			var ie *actions.InvalidError
			if _, err := acts.CreateBlock(ctx, admin, bad); !errors.As(err, &ie) || ie.Field != field {
				t.Errorf("%+v: %v, want invalid %s", bad, err, field)
			}
		}

		if _, err := acts.DeleteBlock(ctx, admin, b.ID); !errors.As(err, &fe) || fe.Need != access.PermAdminDelete {
			t.Errorf("delete without admin:delete: %v", err)
		}
		gone, err := acts.DeleteBlock(ctx, actions.Operator(), b.ID)
		if err != nil || gone.ID != b.ID {
			t.Fatalf("the operator deletes: %+v, %v", gone, err)
		}
		if _, err := acts.DeleteBlock(ctx, actions.Operator(), b.ID); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("delete again: %v, want not found", err)
		}
	})
}
