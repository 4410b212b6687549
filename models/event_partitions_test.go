package models_test

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

const day = 24 * time.Hour

// partitionOf names the partition holding the event id (PostgreSQL).
func partitionOf(t *testing.T, db bun.IDB, id string) string {
	t.Helper()
	var name string
	if err := db.NewRaw(`SELECT tableoid::regclass::text FROM analytics_events WHERE id = ?`, id).Scan(context.Background(), &name); err != nil {
		t.Fatalf("partition of %s: %v", id, err)
	}
	return name
}

// eventPartitions lists the partitions of analytics_events (PostgreSQL).
func eventPartitions(t *testing.T, db bun.IDB) []string {
	t.Helper()
	var names []string
	err := db.NewRaw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'analytics_events'::regclass ORDER BY 1`).Scan(context.Background(), &names)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// eventCounters reads the hourly counters of stored events.
func eventCounters(t *testing.T, db bun.IDB) map[string]int64 {
	t.Helper()
	var rows []struct {
		H string
		N int64
	}
	err := db.NewRaw(`SELECT CAST(hour AS TEXT) AS h, n FROM hourly_counts WHERE metric = 'events' AND n <> 0`).Scan(context.Background(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.H] = r.N
	}
	return out
}

// checkCountersFresh fails unless the hourly event counters equal a fresh
// count of the rows.
func checkCountersFresh(t *testing.T, s *models.Store) {
	t.Helper()
	kept := eventCounters(t, s.DB)
	if err := s.Analytics.RecountEventCounts(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fresh := eventCounters(t, s.DB); !maps.Equal(kept, fresh) {
		t.Errorf("hourly event counters %v, a fresh count %v", kept, fresh)
	}
}

// TestEventPartitionsMadeAhead: the months of the retention window and
// three ahead get their partitions, once, even from instances asking
// together; an event of a month without one is stored (in the default
// partition) and moves into its month's partition when it is made. SQLite
// keeps one table.
func TestEventPartitionsMadeAhead(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2031, 6, 15, 12, 0, 0, 0, time.UTC)
		early := newEvent(t, nil, "click", "s", time.Date(2031, 4, 2, 8, 0, 0, 0, time.UTC))
		if err := s.Analytics.InsertEvents(ctx, []models.AnalyticsEvent{early}); err != nil {
			t.Fatalf("an event of a month without a partition: %v", err)
		}
		made, err := s.Analytics.EnsureEventPartitions(ctx, now, 90*day)
		if models.Dialect(db) == config.DialectSQLite {
			if err != nil || made != 0 || countEvents(t, db) != 1 {
				t.Errorf("on SQLite: made %d, %v, %d events", made, err, countEvents(t, db))
			}
			return
		}
		if p := partitionOf(t, db, early.ID); err != nil || made != 7 || p != "analytics_events_2031_04" {
			t.Fatalf("made %d partitions, %v, the early event in %s; want March to September 2031, and April's", made, err, p)
		}
		for _, m := range []string{"2031_03", "2031_06", "2031_09"} {
			if !slices.Contains(eventPartitions(t, db), "analytics_events_"+m) {
				t.Errorf("no partition for %s among %v", m, eventPartitions(t, db))
			}
		}
		if slices.Contains(eventPartitions(t, db), "analytics_events_2031_10") {
			t.Error("a partition four months ahead")
		}
		if made, err := s.Analytics.EnsureEventPartitions(ctx, now, 90*day); err != nil || made != 0 {
			t.Errorf("again: made %d, %v", made, err)
		}
		// Instances run the job together: each month is made once.
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 4 {
			wg.Go(func() {
				made, err := s.Analytics.EnsureEventPartitions(ctx, now.AddDate(1, 0, 0), 90*day)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += made
				mu.Unlock()
			})
		}
		wg.Wait()
		if total != 7 {
			t.Errorf("four instances made %d partitions, want 7", total)
		}
		checkCountersFresh(t, s)
	})
}

// TestInsertEventsAcrossMonthBoundary: one write holding events on both
// sides of a month's end, and one of a month without a partition, stores
// each in its month; retried, it stores nothing twice; the hourly counters
// count each once.
func TestInsertEventsAcrossMonthBoundary(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		if _, err := s.Analytics.EnsureEventPartitions(ctx, time.Date(2030, 11, 15, 0, 0, 0, 0, time.UTC), 0); err != nil {
			t.Fatal(err)
		}
		end := time.Date(2030, 12, 1, 0, 0, 0, 0, time.UTC)
		events := []models.AnalyticsEvent{
			newEvent(t, nil, "click", "s", end.Add(-time.Microsecond)),
			newEvent(t, nil, "click", "s", end),
			newEvent(t, nil, "click", "s", time.Date(2035, 1, 1, 0, 0, 0, 0, time.UTC)),
		}
		for range 2 { // the second time as a retry of a write that did commit
			if err := s.Analytics.InsertEvents(ctx, events); err != nil {
				t.Fatal(err)
			}
		}
		if n := countEvents(t, db); n != 3 {
			t.Fatalf("%d events stored, want 3", n)
		}
		if models.Dialect(db) == config.DialectPostgres {
			for i, want := range []string{"analytics_events_2030_11", "analytics_events_2030_12", "analytics_events_default"} {
				if got := partitionOf(t, db, events[i].ID); got != want {
					t.Errorf("event at %s in %s, want %s", events[i].OccurredAt, got, want)
				}
			}
		}
		if c := eventCounters(t, db); len(c) != 3 {
			t.Errorf("hourly counters %v, want three hours of one event", c)
		}
		checkCountersFresh(t, s)
	})
}

// TestDeleteOldEventsDropsWholeMonths: retention drops the partition of a
// month wholly past it, deletes by row the older rows of the month it
// falls in and of the default partition, and keeps every event from the
// cutoff on (exactly: occurred before the cutoff goes, at or after stays);
// the figures read from counters for the kept time do not change, and
// the counters equal the rows.
func TestDeleteOldEventsDropsWholeMonths(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2030, 11, 22, 12, 0, 0, 0, time.UTC)
		cutoff := now.Add(-90 * day) // 2030-08-24 12:00
		if _, err := s.Analytics.EnsureEventPartitions(ctx, time.Date(2030, 7, 10, 0, 0, 0, 0, time.UTC), 0); err != nil {
			t.Fatal(err)
		}
		var old, kept []models.AnalyticsEvent
		at := func(list *[]models.AnalyticsEvent, times ...time.Time) {
			for _, tm := range times {
				*list = append(*list, newEvent(t, nil, "click", "s", tm))
			}
		}
		july := time.Date(2030, 7, 1, 0, 0, 0, 0, time.UTC)
		at(&old, july, july.Add(14*day), july.AddDate(0, 1, 0).Add(-time.Microsecond), // the whole of July
			july.AddDate(0, 1, 0), cutoff.Add(-time.Hour), cutoff.Add(-time.Microsecond), // August, before the cutoff
			time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)) // a month without a partition
		at(&kept, cutoff, cutoff.Add(time.Hour), time.Date(2030, 9, 5, 0, 0, 0, 0, time.UTC), now.Add(-time.Hour))
		if err := s.Analytics.InsertEvents(ctx, append(slices.Clone(old), kept...)); err != nil {
			t.Fatal(err)
		}
		window := models.AnalyticsWindow{Start: cutoff, End: now, Hourly: true}
		before, err := s.Analytics.AnalyticsSeries(ctx, window, models.SeriesWants{Events: true})
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.Analytics.DeleteOldEvents(ctx, cutoff, 2)
		if err != nil || n != int64(len(old)) {
			t.Fatalf("deleted %d, %v; want %d", n, err, len(old))
		}
		if missing, err := s.Analytics.MissingEvents(ctx, idsOf(kept)); err != nil || len(missing) != 0 || countEvents(t, db) != int64(len(kept)) {
			t.Errorf("kept events were deleted: missing %v (%v), %d left", missing, err, countEvents(t, db))
		}
		after, err := s.Analytics.AnalyticsSeries(ctx, window, models.SeriesWants{Events: true})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, p := range after {
			sum += p.Events
		}
		if !slices.Equal(before, after) || sum != len(kept) {
			t.Errorf("the hourly series of the kept time changed (%d events in it, want %d)", sum, len(kept))
		}
		if models.Dialect(db) == config.DialectPostgres {
			parts := eventPartitions(t, db)
			if slices.Contains(parts, "analytics_events_2030_07") || !slices.Contains(parts, "analytics_events_2030_08") {
				t.Errorf("partitions after retention %v: want July dropped, August kept", parts)
			}
		}
		checkCountersFresh(t, s)
		if n, err := s.Analytics.DeleteOldEvents(ctx, cutoff, 2); err != nil || n != 0 {
			t.Errorf("second sweep deleted %d, %v", n, err)
		}
	})
}

// TestEventPartitionMigration: the step that partitions analytics_events
// keeps a populated table's rows, each in its month's partition (old
// months too), its hourly counters, and the triggers that keep them.
func TestEventPartitionMigration(t *testing.T) {
	ctx := context.Background()
	db, _ := dbtest.OpenEmpty(t, config.DialectPostgres)
	migrateBefore(t, db, "20261127100000")
	now := time.Now().UTC()
	times := []time.Time{now.AddDate(0, -7, 0), now.AddDate(0, -2, 0), now.AddDate(0, -2, 0).Add(time.Hour), now.Add(-time.Minute)}
	var ids []string
	for _, at := range times {
		e := newEvent(t, nil, "page_view", "s", at)
		_, err := db.NewRaw(`INSERT INTO analytics_events (id, event_type, event_data, session_id, occurred_at, received_at)
			VALUES (?, 'page_view', '{}', 's', ?, ?)`, e.ID, at, at).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	counters := eventCounters(t, db)
	if len(counters) != 4 {
		t.Fatalf("setup: hourly counters %v", counters)
	}
	if _, err := models.Migrate(ctx, db, discard()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	var kind string
	if err := db.NewRaw(`SELECT relkind FROM pg_class WHERE oid = 'analytics_events'::regclass`).Scan(ctx, &kind); err != nil || kind != "p" {
		t.Fatalf("analytics_events is of kind %q (%v), want partitioned", kind, err)
	}
	if n := countEvents(t, db); n != 4 {
		t.Errorf("%d events after the migration, want 4", n)
	}
	for i, id := range ids {
		want := "analytics_events_" + times[i].Format("2006_01")
		if got := partitionOf(t, db, id); got != want {
			t.Errorf("event at %s in %s, want %s", times[i], got, want)
		}
	}
	if got := eventCounters(t, db); !maps.Equal(got, counters) {
		t.Errorf("hourly counters %v after the migration, want %v", got, counters)
	}
	s := models.NewStore(db)
	if err := s.Analytics.InsertEvents(ctx, []models.AnalyticsEvent{newEvent(t, nil, "click", "s", now)}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Analytics.DeleteOldEvents(ctx, now.Add(-90*day), 10); err != nil || n != 1 {
		t.Errorf("retention deleted %d, %v; want the seven-month-old event", n, err)
	}
	checkCountersFresh(t, s)
	var sum int64
	for _, n := range eventCounters(t, db) {
		sum += n
	}
	if sum != 4 {
		t.Errorf("the counters hold %d events, want 4 (the trigger counts on the partitioned table)", sum)
	}
}
