package models_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// newEvent builds an event of user at t in session sid.
func newEvent(t testing.TB, user *int64, typ, sid string, at time.Time) models.AnalyticsEvent {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatal(err)
	}
	return models.AnalyticsEvent{ID: id.String(), EventType: typ, EventData: map[string]any{"path": "/p", "n": 1.5},
		UserID: user, SessionID: sid, IPHash: "0123456789abcdef0123456789abcdef", UserAgent: "test/1.0", PagePath: "/p",
		OccurredAt: at.UTC(), ReceivedAt: at.UTC().Add(time.Second)}
}

func idsOf(events []models.AnalyticsEvent) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.ID
	}
	return out
}

func countEvents(t testing.TB, db bun.IDB) int64 {
	t.Helper()
	n, err := db.NewSelect().Model((*models.AnalyticsEvent)(nil)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestInsertEvents(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 11, 22, 9, 30, 15, 123456000, time.UTC)
		events := []models.AnalyticsEvent{newEvent(t, &u.ID, "page_view", "s1", at), newEvent(t, nil, "click", "s2", at.Add(time.Second))}
		events[0].EventData = map[string]any{"path": "/posts/1", "nested": map[string]any{"ok": true, "list": []any{"a", 2.0}}, "quote": `it's "fine" <b>`}
		if err := s.Analytics.InsertEvents(ctx, events); err != nil {
			t.Fatal(err)
		}
		var got models.AnalyticsEvent
		if err := db.NewSelect().Model(&got).Where("ae.id = ?", events[0].ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		want := events[0]
		if got.EventType != want.EventType || *got.UserID != u.ID || got.SessionID != "s1" || got.IPHash != want.IPHash ||
			got.UserAgent != want.UserAgent || got.PagePath != want.PagePath || !got.OccurredAt.Equal(want.OccurredAt) ||
			!got.ReceivedAt.Equal(want.ReceivedAt) || fmt.Sprint(got.EventData) != fmt.Sprint(want.EventData) {
			t.Errorf("stored\n %+v\nwant\n %+v", got, want)
		}

		// Writing the same events again (a retry whose first commit did
		// happen) succeeds and stores nothing twice.
		again := append(slices.Clone(events), newEvent(t, &u.ID, "scroll", "s1", at))
		if err := s.Analytics.InsertEvents(ctx, again); err != nil {
			t.Fatalf("idempotent retry: %v", err)
		}
		if n := countEvents(t, db); n != 3 {
			t.Errorf("%d events after the retry, want 3", n)
		}
		unknown := uuid.Must(uuid.NewV7()).String()
		missing, err := s.Analytics.MissingEvents(ctx, append(idsOf(again), unknown))
		if err != nil || !slices.Equal(missing, []string{unknown}) {
			t.Errorf("MissingEvents = %v, %v; want only %s", missing, err, unknown)
		}
	})
}

// TestDeletedUsersEventsStay: deleting a user keeps their events, detached.
func TestDeletedUsersEventsStay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ada, bob := createUser(t, s, "ada@example.com"), createUser(t, s, "bob@example.com")
		at := time.Now().UTC()
		events := []models.AnalyticsEvent{newEvent(t, &ada.ID, "click", "s1", at), newEvent(t, &bob.ID, "click", "s2", at)}
		if err := s.Analytics.InsertEvents(ctx, events); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewDelete().Model((*models.User)(nil)).Where("id = ?", ada.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var got []models.AnalyticsEvent
		if err := db.NewSelect().Model(&got).OrderExpr("session_id").Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].UserID != nil || got[1].UserID == nil || *got[1].UserID != bob.ID {
			t.Errorf("after deleting ada: %+v", got)
		}
	})
}

func TestInsertEventsManyAndAtomic(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		at := time.Now().UTC()
		many := make([]models.AnalyticsEvent, 1234)
		for i := range many {
			many[i] = newEvent(t, nil, "click", "s", at)
		}
		if err := s.Analytics.InsertEvents(ctx, many); err != nil {
			t.Fatal(err)
		}
		if n := countEvents(t, db); n != int64(len(many)) {
			t.Errorf("%d stored, want %d", n, len(many))
		}
		// One event the database refuses fails the whole write: on SQLite
		// one naming a user that does not exist (its foreign key), on
		// PostgreSQL (no key there: migration 6) text with a NUL byte.
		bad := []models.AnalyticsEvent{newEvent(t, nil, "click", "s", at), newEvent(t, nil, "click", "s", at)}
		var refused func(error) bool // the refusal meant, not just any error
		if ghost := int64(987654); models.Dialect(db) == "sqlite" {
			bad[1].UserID = &ghost
			refused = func(err error) bool {
				e, ok := errors.AsType[*sqlite.Error](err)
				return ok && e.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
			}
		} else {
			bad[1].UserAgent = "nul\x00byte"
			refused = func(err error) bool {
				e, ok := errors.AsType[*pgconn.PgError](err)
				return ok && e.Code == "22021" // character_not_in_repertoire
			}
		}
		if err := s.Analytics.InsertEvents(ctx, bad); !refused(err) {
			t.Fatalf("a write with a refused row: %v; want the database to refuse that row", err)
		}
		if missing, err := s.Analytics.MissingEvents(ctx, idsOf(bad)); err != nil || len(missing) != 2 {
			t.Errorf("a failed write stored %d of its events (%v)", 2-len(missing), err)
		}
	})
}

func TestAnalyticsIPKey(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
		// Two instances on one database race for the first key of a day.
		a, b := models.NewStore(db), models.NewStore(db)
		keys := make([][]byte, 16)
		var wg sync.WaitGroup
		for i := range keys {
			wg.Go(func() {
				s := a
				if i%2 == 1 {
					s = b
				}
				k, err := s.Analytics.AnalyticsIPKey(ctx, day.Add(time.Duration(i)*time.Hour)) // any time of the day
				if err != nil {
					t.Error(err)
				}
				keys[i] = k
			})
		}
		wg.Wait()
		for i, k := range keys {
			if len(k) != 32 || !bytes.Equal(k, keys[0]) {
				t.Fatalf("key %d = %x, want the same 32 bytes as key 0 (%x)", i, k, keys[0])
			}
		}
		next, err := a.Analytics.AnalyticsIPKey(ctx, day.AddDate(0, 0, 1))
		if err != nil || bytes.Equal(next, keys[0]) {
			t.Errorf("next day's key %x (%v) equals today's", next, err)
		}
	})
}

func TestRollUpAnalytics(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		var users [3]int64
		for i := range users {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("u%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			users[i] = u.ID
		}
		day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
		at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
		a, b, c := &users[0], &users[1], &users[2]
		events := []models.AnalyticsEvent{
			// a, session s1: 10:00–10:20 (1200 s), then a gap of 70 minutes,
			// then 11:30–11:45 (900 s): two sessions.
			newEvent(t, a, "page_view", "s1", at(10, 0)), newEvent(t, a, "click", "s1", at(10, 10)),
			newEvent(t, a, "click", "s1", at(10, 20)), newEvent(t, a, "page_view", "s1", at(11, 30)),
			newEvent(t, a, "scroll", "s1", at(11, 45)),
			// a, another tab: 12:00–12:30 in 30-minute steps (1800 s): one session.
			newEvent(t, a, "page_view", "tab2", at(12, 0)), newEvent(t, a, "page_view", "tab2", at(12, 30)),
			// c uses the same session id as a: a separate visitor, one lone event (0 s).
			newEvent(t, c, "page_view", "s1", at(10, 5)),
			// b: 23:50 today (0 s) and 00:05 tomorrow, which belongs to tomorrow.
			newEvent(t, b, "form_submit", "s9", at(23, 50)), newEvent(t, b, "form_submit", "s9", at(24, 5)),
			// yesterday
			newEvent(t, b, "page_view", "s9", at(-1, 0)),
		}
		if err := s.Analytics.InsertEvents(ctx, events); err != nil {
			t.Fatal(err)
		}
		check := func(wantCounts map[string]int64, wantUsers, wantSessions int, wantSeconds int64, wantHours map[int]int64) {
			t.Helper()
			var hours []models.AnalyticsHourlyEvents
			if err := db.NewSelect().Model(&hours).Where("hour >= ? AND hour < ?", day, day.AddDate(0, 0, 1)).Order("hour").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			gotHours := map[int]int64{}
			for _, h := range hours {
				gotHours[h.Hour.UTC().Hour()] = h.Events
			}
			if fmt.Sprint(gotHours) != fmt.Sprint(wantHours) {
				t.Errorf("hourly events %v, want %v", gotHours, wantHours)
			}
			var counts []models.AnalyticsDailyEvents
			if err := db.NewSelect().Model(&counts).Where("day = ?", day).Order("event_type").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for _, c := range counts {
				got[c.EventType] = c.Events
				if !c.Day.Equal(day) {
					t.Errorf("day read back as %v", c.Day)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(wantCounts) {
				t.Errorf("daily events %v, want %v", got, wantCounts)
			}
			var st models.AnalyticsDailyStats
			if err := db.NewSelect().Model(&st).Where("day = ?", day).Scan(ctx); err != nil {
				t.Fatal(err)
			}
			if st.ActiveUsers != wantUsers || st.Sessions != wantSessions || st.TotalSessionSeconds != wantSeconds {
				t.Errorf("stats %d users, %d sessions, %d s; want %d, %d, %d", st.ActiveUsers, st.Sessions, st.TotalSessionSeconds, wantUsers, wantSessions, wantSeconds)
			}
		}
		for range 2 { // idempotent
			if err := s.Analytics.RollUpAnalytics(ctx, day.Add(13*time.Hour)); err != nil {
				t.Fatal(err)
			}
			check(map[string]int64{"click": 2, "form_submit": 1, "page_view": 5, "scroll": 1}, 3, 5, 1200+900+1800,
				map[int]int64{10: 4, 11: 2, 12: 2, 23: 1})
		}
		// Recomputing after the scroll event is gone drops its type.
		if _, err := db.NewDelete().Model((*models.AnalyticsEvent)(nil)).Where("event_type = 'scroll'").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RollUpAnalytics(ctx, day); err != nil {
			t.Fatal(err)
		}
		check(map[string]int64{"click": 2, "form_submit": 1, "page_view": 5}, 3, 5, 1200+900+1800-900,
			map[int]int64{10: 4, 11: 1, 12: 2, 23: 1})

		// A day without events rolls up to zeros.
		empty := day.AddDate(0, 0, -10)
		if err := s.Analytics.RollUpAnalytics(ctx, empty); err != nil {
			t.Fatal(err)
		}
		var st models.AnalyticsDailyStats
		if err := db.NewSelect().Model(&st).Where("day = ?", empty).Scan(ctx); err != nil || st.Sessions != 0 || st.ActiveUsers != 0 {
			t.Errorf("empty day: %+v, %v", st, err)
		}
	})
}

func TestRollUpAnalyticsConcurrent(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
		at := func(m int) time.Time { return day.Add(10*time.Hour + time.Duration(m)*time.Minute) }
		events := []models.AnalyticsEvent{
			// ada: one session 10:00–10:20 (1200 s).
			newEvent(t, &u.ID, "page_view", "s1", at(0)), newEvent(t, &u.ID, "click", "s1", at(10)),
			newEvent(t, &u.ID, "click", "s1", at(20)),
			// anonymous: 10:00–10:05 (300 s), then a lone event after the gap.
			newEvent(t, nil, "page_view", "s2", at(0)), newEvent(t, nil, "click", "s2", at(5)),
			newEvent(t, nil, "scroll", "s2", at(90)),
			// the next day: not part of this day's totals.
			newEvent(t, &u.ID, "click", "s1", day.Add(25*time.Hour)),
		}
		if err := s.Analytics.InsertEvents(ctx, events); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 { // jobs of several instances
			wg.Go(func() {
				if err := s.Analytics.RollUpAnalytics(ctx, day); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()

		var counts []models.AnalyticsDailyEvents
		if err := db.NewSelect().Model(&counts).Order("event_type").Scan(ctx); err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, c := range counts {
			if !c.Day.Equal(day) {
				t.Errorf("counts for %v; only %v was rolled up", c.Day, day)
			}
			got[c.EventType] += c.Events
		}
		if want := map[string]int64{"click": 3, "page_view": 2, "scroll": 1}; !maps.Equal(got, want) {
			t.Errorf("daily events %v, want %v (the day's 6 events, each counted once)", got, want)
		}
		var stats []models.AnalyticsDailyStats
		if err := db.NewSelect().Model(&stats).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		want := models.AnalyticsDailyStats{Day: day, ActiveUsers: 1, Sessions: 3, TotalSessionSeconds: 1200 + 300}
		if len(stats) != 1 || !stats[0].Day.Equal(want.Day) || stats[0].ActiveUsers != want.ActiveUsers ||
			stats[0].Sessions != want.Sessions || stats[0].TotalSessionSeconds != want.TotalSessionSeconds {
			t.Errorf("daily stats %+v, want [%+v]", stats, want)
		}
	})
}

func TestDeleteOldEvents(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		cutoff := now.Add(-90 * 24 * time.Hour)
		var events []models.AnalyticsEvent
		for i := range 25 {
			events = append(events, newEvent(t, nil, "click", "old", cutoff.Add(-time.Duration(i+1)*time.Hour)))
		}
		var kept []models.AnalyticsEvent
		for i := range 5 {
			kept = append(kept, newEvent(t, nil, "click", "new", cutoff.Add(time.Duration(i)*time.Hour)))
		}
		if err := s.Analytics.InsertEvents(ctx, append(events, kept...)); err != nil {
			t.Fatal(err)
		}
		for _, d := range []time.Time{cutoff.AddDate(0, 0, -1), cutoff, now} {
			if _, err := s.Analytics.AnalyticsIPKey(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.Analytics.DeleteOldEvents(ctx, cutoff, 10)
		if err != nil || n != 25 {
			t.Fatalf("deleted %d, %v; want 25", n, err)
		}
		if missing, err := s.Analytics.MissingEvents(ctx, idsOf(kept)); err != nil || len(missing) != 0 || countEvents(t, db) != 5 {
			t.Errorf("newer events were deleted: missing %v (%v), %d left", missing, err, countEvents(t, db))
		}
		var days []time.Time
		if err := db.NewSelect().Model((*models.AnalyticsIPKey)(nil)).Column("day").Order("day").Scan(ctx, &days); err != nil {
			t.Fatal(err)
		}
		if len(days) != 2 || !days[0].Equal(time.Date(2026, 8, 24, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("keys left for %v; want the cutoff's day and today's", days)
		}
		if n, err := s.Analytics.DeleteOldEvents(ctx, cutoff, 10); err != nil || n != 0 {
			t.Errorf("second sweep deleted %d, %v", n, err)
		}
	})
}

func TestIsTransient(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("no such table"), false},
		{&pgconn.PgError{Code: "23505"}, false},
		{&pgconn.PgError{Code: "22P02"}, false},
		{fmt.Errorf("copy: %w", &pgconn.PgError{Code: "40001"}), true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "57P01"}, true},
		{&pgconn.PgError{Code: "53300"}, true},
		{errors.New("database is locked (5) (SQLITE_BUSY)"), true},
		{fmt.Errorf("write: %w", context.DeadlineExceeded), true},
		{errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"), true},
	}
	for _, tt := range tests {
		if got := models.IsTransient(tt.err); got != tt.want {
			t.Errorf("IsTransient(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
