package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestPeriodicJobsRunOnStart starts the real job queue on each database and
// waits for the sweep (expired session and lock deleted) and the analytics
// roll-up (today counted, an event past retention deleted).
func TestPeriodicJobsRunOnStart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		store.Sessions(0).CommitCtx(ctx, "old", []byte("x"), time.Now().Add(-time.Minute))
		store.Sessions(0).CommitCtx(ctx, "live", []byte("x"), time.Now().Add(time.Hour))
		u, _ := store.CreateUser(ctx, models.NewUser{Email: "a@example.com"})
		db.NewInsert().Model(&models.Lock{ResourceType: "user", ResourceID: "1", LockedBy: u.ID,
			LockedAt: time.Now().Add(-time.Hour), ExpiresAt: time.Now().Add(-time.Minute)}).Exec(ctx)

		now := time.Now().UTC()
		for _, at := range []time.Time{now.Add(-100 * 24 * time.Hour), now.Add(-time.Minute)} {
			ev := &models.AnalyticsEvent{ID: uuid.NewString(), EventType: "page_view", EventData: map[string]any{"path": "/"},
				OccurredAt: at, ReceivedAt: at}
			if _, err := db.NewInsert().Model(ev).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		r, err := jobs.New(db.DB, models.Dialect(db), jobs.Deps{Sweeper: store, Analytics: store, Metrics: metrics.New(nil), Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		events, cancel := r.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		defer cancel()
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer r.Stop(ctx)
		done := map[string]bool{}
		for len(done) < 2 {
			select {
			case ev := <-events:
				if ev.Kind != river.EventKindJobCompleted {
					t.Fatalf("event %s for %s", ev.Kind, ev.Job.Kind)
				}
				done[ev.Job.Kind] = true
			case <-time.After(20 * time.Second):
				t.Fatalf("only %v ran within 20 s of start", done)
			}
		}
		if n, _ := db.NewSelect().Model((*models.AnalyticsEvent)(nil)).Count(ctx); n != 1 {
			t.Errorf("%d events left, want the recent one (the 100-day-old one is past retention)", n)
		}
		var rolled int64
		db.NewSelect().Model((*models.AnalyticsDailyEvents)(nil)).ColumnExpr("coalesce(sum(events), 0)").Scan(ctx, &rolled)
		if rolled != 1 {
			t.Errorf("rolled up %d events, want 1", rolled)
		}
		if n, _ := db.NewSelect().Model((*models.Session)(nil)).Count(ctx); n != 1 {
			t.Errorf("%d sessions left, want the live one", n)
		}
		if n, _ := db.NewSelect().Model((*models.Lock)(nil)).Count(ctx); n != 0 {
			t.Errorf("%d locks left, want 0", n)
		}
	})
}
