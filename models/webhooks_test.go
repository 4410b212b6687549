package models_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestWebhookSecretsSealedAtStart: a secret stored in the clear before
// sealing came is sealed by SealWebhookSecrets and still opens to the same
// bytes; a second run finds nothing to do. Both databases.
func TestWebhookSecretsSealedAtStart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		clear := bytes.Repeat([]byte{7}, 32)
		now := time.Now()
		w := &models.Webhook{URL: "https://hooks.example.com/", Events: []string{"user.banned"}, Secret: clear,
			Active: true, CreatedAt: now, UpdatedAt: now}
		if _, err := db.NewInsert().Model(w).Returning("id").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		s.Secrets = auth.NewSecretBox(strings.Repeat("j", 32))
		if n, err := s.Hooks.SealWebhookSecrets(ctx); err != nil || n != 1 {
			t.Fatalf("sealed %d (%v), want 1", n, err)
		}
		var stored []byte
		db.NewSelect().Model((*models.Webhook)(nil)).Column("secret").Where("id = ?", w.ID).Scan(ctx, &stored)
		if bytes.Contains(stored, clear) {
			t.Error("the secret is still stored in the clear")
		}
		got, err := s.Hooks.WebhookByID(ctx, w.ID)
		if err != nil || !bytes.Equal(got.Secret, clear) {
			t.Errorf("opened %x (%v), want %x", got.Secret, err, clear)
		}
		if n, err := s.Hooks.SealWebhookSecrets(ctx); err != nil || n != 0 {
			t.Errorf("second run sealed %d (%v), want 0", n, err)
		}
	})
}
