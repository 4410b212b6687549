package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestPeriodicJobsRunOnStart starts the real job queue on each database and
// waits for the sweep (expired session and lock deleted) and the analytics
// roll-up (today counted, an event past retention deleted, on PostgreSQL
// the events' partition three months ahead made).
func TestPeriodicJobsRunOnStart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		for id, expires := range map[string]time.Time{"old": time.Now().Add(-time.Hour), "live": time.Now().Add(time.Hour)} {
			if err := store.Auth.Sessions(0, nil).CommitCtx(ctx, id, []byte("x"), expires); err != nil {
				t.Fatalf("session %s: %v", id, err)
			}
		}
		u, err := store.Users.CreateUser(ctx, models.NewUser{Email: "a@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.NewInsert().Model(&models.Lock{ResourceType: "user", ResourceID: "1", LockedBy: u.ID,
			LockedAt: time.Now().Add(-time.Hour), ExpiresAt: time.Now().Add(-time.Minute)}).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}

		now := time.Now().UTC()
		expired := now.Add(-time.Minute)
		if _, err := db.NewInsert().Model(&models.Ban{UserID: u.ID, Reason: "spam", CreatedAt: now.Add(-time.Hour), ExpiresAt: &expired}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewUpdate().Model((*models.User)(nil)).Set("status = ?", models.UserBanned).Where("id = ?", u.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for _, at := range []time.Time{now.Add(-100 * 24 * time.Hour), now.Add(-time.Minute)} {
			ev := &models.AnalyticsEvent{ID: uuid.NewString(), EventType: "page_view", EventData: map[string]any{"path": "/"},
				OccurredAt: at, ReceivedAt: at}
			if _, err := db.NewInsert().Model(ev).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		// The setup is checked too: a sweep that found nothing to do must
		// not pass for one that worked.
		if s, l, e := count(t, db, (*models.Session)(nil)), count(t, db, (*models.Lock)(nil)), count(t, db, (*models.AnalyticsEvent)(nil)); s != 2 || l != 1 || e != 2 {
			t.Fatalf("setup stored %d sessions, %d locks, %d events; want 2, 1, 2", s, l, e)
		}

		if usersAnalyzed(t, db) {
			t.Fatal("the new database's users table has planner statistics before any sweep")
		}

		// The partition of three months ahead is made by the job.
		y, m, _ := now.Date()
		ahead := "analytics_events_" + time.Date(y, m+3, 1, 0, 0, 0, 0, time.UTC).Format("2006_01")
		pg := models.Dialect(db) == "postgres"
		if pg {
			if _, err := db.ExecContext(ctx, "DROP TABLE "+ahead); err != nil {
				t.Fatal(err)
			}
		}

		r, err := jobs.New(db.DB, models.Dialect(db), jobs.Deps{Sweeper: store.Upkeep(), Analytics: store.Analytics, Broadcasts: actions.BroadcastJob{Store: store}, Metrics: metrics.New(nil), Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		events, cancel := r.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		defer cancel()
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := r.Stop(ctx); err != nil {
				t.Errorf("stop the job queue: %v", err)
			}
		}()
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
		if pg {
			var made bool
			if err := db.NewRaw("SELECT to_regclass(?) IS NOT NULL", ahead).Scan(ctx, &made); err != nil || !made {
				t.Errorf("the job made no partition %s (%v)", ahead, err)
			}
		}
		if n := count(t, db, (*models.AnalyticsEvent)(nil)); n != 1 {
			t.Errorf("%d events left, want the recent one (the 100-day-old one is past retention)", n)
		}
		var rolled int64
		if err := db.NewSelect().Model((*models.AnalyticsDailyEvents)(nil)).ColumnExpr("coalesce(sum(events), 0)").Scan(ctx, &rolled); err != nil {
			t.Fatal(err)
		}
		if rolled != 1 {
			t.Errorf("rolled up %d events, want 1", rolled)
		}
		if n := count(t, db, (*models.Session)(nil)); n != 1 {
			t.Errorf("%d sessions left, want the live one", n)
		}
		if n := count(t, db, (*models.Lock)(nil)); n != 0 {
			t.Errorf("%d locks left, want 0", n)
		}
		var lifted models.User
		if err := db.NewSelect().Model(&lifted).Where("id = ?", u.ID).Scan(ctx); err != nil || lifted.Status != models.UserActive {
			t.Errorf("the user of a ban that ran out is %q in its row, %v; want active", lifted.Status, err)
		}
		if !usersAnalyzed(t, db) {
			t.Error("the sweep left the users table without planner statistics")
		}
	})
}

// usersAnalyzed says whether the users table has planner statistics: a
// new database has none until something analyzes it.
func usersAnalyzed(t *testing.T, db *bun.DB) bool {
	t.Helper()
	q := "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'users' AND schemaname = current_schema() AND last_analyze IS NOT NULL"
	if models.Dialect(db) == "sqlite" {
		// sqlite_stat1 exists only once something has been analyzed.
		q = "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
		if n := rowCount(t, db, q); n == 0 {
			return false
		}
		q = "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'users'"
	}
	return rowCount(t, db, q) > 0
}

func rowCount(t *testing.T, db *bun.DB, q string) int {
	t.Helper()
	var n int
	if err := db.NewRaw(q).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// count returns the number of rows in model's table.
func count(t *testing.T, db *bun.DB, model any) int64 {
	t.Helper()
	n, err := db.NewSelect().Model(model).Count(context.Background())
	if err != nil {
		t.Fatalf("count %T: %v", model, err)
	}
	return n
}

// TestAlignedSchedule: runs come due at whole multiples of the period,
// whatever time it is asked at, so a restart changes nothing.
func TestAlignedSchedule(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 34, 56, 0, time.UTC)
	for every, want := range map[time.Duration]time.Time{
		24 * time.Hour: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC),
		6 * time.Hour:  time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC),
	} {
		s := jobs.AlignedSchedule(every)
		if got := s.Next(at); !got.Equal(want) {
			t.Errorf("every %v from %v: %v, want %v", every, at, got, want)
		}
		if got := s.Next(want); !got.Equal(want.Add(every)) {
			t.Errorf("every %v from a due time: %v", every, got)
		}
	}
}
