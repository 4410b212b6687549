package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestSweepRunsOnStart starts the real job queue on each database and waits
// for the periodic sweep to delete an expired session and lock.
func TestSweepRunsOnStart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		store.Sessions().CommitCtx(ctx, "old", []byte("x"), time.Now().Add(-time.Minute))
		store.Sessions().CommitCtx(ctx, "live", []byte("x"), time.Now().Add(time.Hour))
		u, _ := store.CreateUser(ctx, models.NewUser{Email: "a@example.com"})
		db.NewInsert().Model(&models.Lock{ResourceType: "user", ResourceID: "1", LockedBy: u.ID,
			LockedAt: time.Now().Add(-time.Hour), ExpiresAt: time.Now().Add(-time.Minute)}).Exec(ctx)

		r, err := jobs.New(db.DB, models.Dialect(db), jobs.Deps{Sweeper: store, Metrics: metrics.New(nil), Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		events, cancel := r.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		defer cancel()
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer r.Stop(ctx)
		select {
		case ev := <-events:
			if ev.Kind != river.EventKindJobCompleted || ev.Job.Kind != "sweep" {
				t.Fatalf("event %s for %s", ev.Kind, ev.Job.Kind)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the sweep did not run within 20 s of start")
		}
		if n, _ := db.NewSelect().Model((*models.Session)(nil)).Count(ctx); n != 1 {
			t.Errorf("%d sessions left, want the live one", n)
		}
		if n, _ := db.NewSelect().Model((*models.Lock)(nil)).Count(ctx); n != 0 {
			t.Errorf("%d locks left, want 0", n)
		}
	})
}
