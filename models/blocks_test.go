package models_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestBlocks: a kind and value are blocked once; the rules leave out
// expired blocks, which the sweep deletes once they have been listed for
// ExpiredBlockKept; a delete returns the block.
func TestBlocks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		var clock atomic.Int64
		clock.Store(time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC).UnixNano())
		s.Now = func() time.Time { return time.Unix(0, clock.Load()).UTC() }
		create := func(b *models.Block) error {
			return s.Change(ctx, func(ctx context.Context) error { return s.Blocklist.CreateBlock(ctx, b) })
		}
		soon := s.Now().Add(time.Hour)
		forever := &models.Block{Kind: blocks.KindIP, Value: "203.0.113.0/24", Reason: "spam"}
		brief := &models.Block{Kind: blocks.KindEmailDomain, Value: "example.com", ExpiresAt: &soon}
		for _, b := range []*models.Block{forever, brief} {
			if err := create(b); err != nil || b.ID == 0 {
				t.Fatalf("create %s: id %d, %v", b.Value, b.ID, err)
			}
		}
		var dup *models.DuplicateBlockError
		err := create(&models.Block{Kind: blocks.KindIP, Value: "203.0.113.0/24"})
		if !errors.As(err, &dup) || dup.ID != forever.ID || !errors.Is(err, models.ErrConflict) {
			t.Errorf("duplicate: %v", err)
		}
		if err := create(&models.Block{Kind: blocks.KindEmailDomain, Value: "203.0.113.0/24"}); err != nil {
			t.Errorf("the same value of another kind: %v", err)
		}
		rules, err := s.Blocklist.BlockRules(ctx)
		if err != nil || len(rules) != 3 {
			t.Fatalf("rules: %v, %v", rules, err)
		}
		clock.Add(int64(2 * time.Hour))
		rules, _ = s.Blocklist.BlockRules(ctx)
		if len(rules) != 2 || blocks.NewMatcher(rules).EmailBlocked("a@example.com", s.Now()) {
			t.Errorf("rules after the expiry: %v", rules)
		}
		if n, err := s.Blocklist.DeleteExpiredBlocks(ctx); err != nil || n != 0 {
			t.Errorf("sweep right after the expiry: %d, %v", n, err)
		}
		clock.Add(int64(models.ExpiredBlockKept))
		if n, err := s.Blocklist.DeleteExpiredBlocks(ctx); err != nil || n != 1 {
			t.Errorf("sweep after ExpiredBlockKept: %d, %v", n, err)
		}
		list, total, err := s.Blocklist.Blocks(ctx, blocks.KindIP, 10, 0)
		if err != nil || total != 1 || len(list) != 1 || list[0].Reason != "spam" {
			t.Errorf("ip blocks: %+v, %d, %v", list, total, err)
		}
		var gone *models.Block
		err = s.Change(ctx, func(ctx context.Context) (err error) {
			gone, err = s.Blocklist.DeleteBlock(ctx, forever.ID)
			return err
		})
		if err != nil || gone.Value != "203.0.113.0/24" {
			t.Errorf("delete: %+v, %v", gone, err)
		}
		err = s.Change(ctx, func(ctx context.Context) error { _, err := s.Blocklist.DeleteBlock(ctx, forever.ID); return err })
		if !errors.Is(err, models.ErrNotFound) {
			t.Errorf("delete again: %v", err)
		}
	})
}
