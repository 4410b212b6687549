package models_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestStatsFromCountersMatchTheRows: after users, posts and events are
// written, changed and deleted around an hour's and a day's boundary, the
// stats and the analytics read from counters equal what the rows count,
// at moments before and after the boundaries.
func TestStatsFromCountersMatchTheRows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		midnight := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
		// Rows on both sides of midnight and of 10:00, to the second; each
		// check comes half a second after the rows before it were written,
		// as the clock moves on.
		times := []time.Duration{-26 * time.Hour, -90 * time.Minute, -time.Second, 0, 59 * time.Minute, 9*time.Hour + 59*time.Minute + 59*time.Second,
			10 * time.Hour, 10*time.Hour + 30*time.Minute, 10*time.Hour + 59*time.Minute}
		checks := []time.Duration{-time.Second, 1, 10*time.Hour + 20*time.Minute, 10*time.Hour + 59*time.Minute + 59*time.Second}
		statuses := []string{models.UserActive, models.UserInactive, models.UserBanned, models.UserActive, models.UserBanned}
		postStatuses := []string{models.PostPublished, models.PostDraft, models.PostHidden, models.PostFlagged}
		var users []models.User
		var posts []models.Post
		var events []models.AnalyticsEvent
		next := 0
		for phase, check := range checks {
			now := midnight.Add(check + 500*time.Millisecond)
			s.Now = func() time.Time { return now }
			for ; next < len(times) && !midnight.Add(times[next]).After(now); next++ {
				at := midnight.Add(times[next])
				u := models.User{Username: fmt.Sprint("u", next), Email: fmt.Sprint("u", next, "@example.com"),
					Status: statuses[next%len(statuses)], IsActive: statuses[next%len(statuses)] != models.UserInactive, CreatedAt: at, UpdatedAt: at, LastLoginAt: &at}
				if _, err := db.NewInsert().Model(&u).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				users = append(users, u)
				batch := []models.Post{{Title: fmt.Sprint("p", next), AuthorID: u.ID, Status: postStatuses[next%4], CreatedAt: at, UpdatedAt: at},
					{Title: fmt.Sprint("q", next), AuthorID: users[0].ID, Status: postStatuses[(next+1)%4], CreatedAt: at, UpdatedAt: at}}
				if _, err := db.NewInsert().Model(&batch).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				posts = append(posts, batch...)
				var evs []models.AnalyticsEvent
				for i := range 1 + next%3 {
					evs = append(evs, models.AnalyticsEvent{ID: uuid.NewString(), EventType: "page_view", EventData: map[string]any{},
						SessionID: "s", PagePath: "/", OccurredAt: at, ReceivedAt: at.Add(time.Duration(i) * time.Millisecond)})
				}
				if err := s.Analytics.InsertEvents(ctx, evs); err != nil {
					t.Fatal(err)
				}
				if err := s.Analytics.InsertEvents(ctx, evs[:1]); err != nil { // a retried write stores nothing twice
					t.Fatal(err)
				}
				events = append(events, evs...)
			}
			changeSome(t, db, phase, now, users, posts, events)
			for d := midnight.AddDate(0, 0, -3); d.Before(now); d = d.AddDate(0, 0, 1) {
				if err := s.Analytics.RollUpAnalytics(ctx, d); err != nil {
					t.Fatal(err)
				}
			}
			checkStats(t, s, db, now)
			for _, w := range []models.AnalyticsWindow{
				{Start: now.Add(-24 * time.Hour), End: now, Hourly: true, ToNow: true},
				{Start: now.Add(-7 * 24 * time.Hour), End: now, ToNow: true},
				{Start: midnight.Add(-20*time.Hour - 17*time.Minute), End: midnight.Add(-15 * time.Minute), Hourly: true},
				{Start: midnight.Add(-50*time.Hour - 17*time.Minute), End: midnight.Add(-15 * time.Minute)},
			} {
				checkWindow(t, s, db, w)
			}
		}
		if next != len(times) {
			t.Fatalf("wrote %d of %d rows", next, len(times))
		}
	})
}

// changeSome changes statuses and sign-ins, and deletes a user (with
// their posts), a post and an event, as phase says.
func changeSome(t *testing.T, db *bun.DB, phase int, now time.Time, users []models.User, posts []models.Post, events []models.AnalyticsEvent) {
	t.Helper()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	last := len(users) - 1
	switch phase {
	case 0:
		exec("UPDATE users SET status = 'inactive', is_active = false WHERE id = ?", users[0].ID)
		exec("UPDATE posts SET status = 'hidden' WHERE id IN (?, ?)", posts[0].ID, posts[1].ID)
		exec("INSERT INTO bans (user_id, reason, notes, created_at) VALUES (?, 'spam', '', ?)", users[2].ID, now)
	case 1:
		exec("UPDATE users SET status = 'active', is_active = true WHERE id = ?", users[1].ID)
		exec("UPDATE users SET last_login_at = ? WHERE id = ?", now.Add(-100*time.Millisecond), users[0].ID)
		exec("DELETE FROM posts WHERE id = ?", posts[2].ID)
		exec("DELETE FROM analytics_events WHERE id = ?", events[1].ID)
	case 2:
		// A ban that has run out by the next check, before the sweep: the
		// user counts as active again.
		exec("UPDATE users SET status = 'banned', is_active = true WHERE id = ?", users[last].ID)
		exec("INSERT INTO bans (user_id, reason, notes, created_at, expires_at) VALUES (?, 'spam', '', ?, ?)", users[last].ID, now, now.Add(time.Minute))
		exec("UPDATE posts SET status = 'draft' WHERE id = ?", posts[len(posts)-1].ID)
		exec("DELETE FROM users WHERE id = ?", users[4].ID)
	default:
		exec("UPDATE users SET last_login_at = ? WHERE id = ?", now.Add(-100*time.Millisecond), users[3].ID)
		exec("DELETE FROM analytics_events WHERE id = ?", events[len(events)-1].ID)
	}
}

// rawCount counts the rows of a query's FROM and WHERE.
func rawCount(t *testing.T, db *bun.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func checkStats(t *testing.T, s *models.Store, db *bun.DB, now time.Time) {
	t.Helper()
	st, err := s.Analytics.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	midnight := now.UTC().Truncate(24 * time.Hour)
	lapsed := rawCount(t, db, `users AS u WHERE u.status = 'banned' AND EXISTS (SELECT 1 FROM bans AS b WHERE b.user_id = u.id AND b.ended_at IS NULL AND b.expires_at <= ?)
		AND NOT EXISTS (SELECT 1 FROM bans AS b WHERE b.user_id = u.id AND b.ended_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > ?))`, now, now)
	banned := rawCount(t, db, "users WHERE status = 'banned'") - lapsed
	want := models.Stats{
		Users: rawCount(t, db, "users"), BannedUsers: banned,
		ActiveUsers:   rawCount(t, db, "users WHERE status = 'active'") + lapsed,
		NewUsersToday: rawCount(t, db, "users WHERE created_at >= ? AND created_at < ?", midnight, now),
		OpenReports:   rawCount(t, db, "post_reports WHERE status = 'open'"),
		EventsToday:   rawCount(t, db, "analytics_events WHERE occurred_at >= ?", midnight),
	}
	got := *st
	got.PostsByStatus, got.DatabaseBytes = nil, 0
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("at %s: stats %+v, rows %+v", now, got, want)
	}
	for _, status := range []string{models.PostPublished, models.PostDraft, models.PostHidden, models.PostFlagged} {
		if n := rawCount(t, db, "posts WHERE status = ?", status); st.PostsByStatus[status] != n {
			t.Errorf("at %s: %s posts %d, rows %d", now, status, st.PostsByStatus[status], n)
		}
	}
}

// checkWindow compares w's users, content and series figures with the rows.
func checkWindow(t *testing.T, s *models.Store, db *bun.DB, w models.AnalyticsWindow) {
	t.Helper()
	ctx := context.Background()
	in := func(table, col string, from, to time.Time) int {
		return rawCount(t, db, fmt.Sprintf("%s WHERE %s >= ? AND %s < ?", table, col, col), from, to)
	}
	u, err := s.Analytics.UserAnalytics(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	prev := w.Start.Add(-w.End.Sub(w.Start))
	want := models.UserFigures{Total: rawCount(t, db, "users"), Active: in("users", "last_login_at", w.Start, w.End),
		New: in("users", "created_at", w.Start, w.End), NewBefore: in("users", "created_at", prev, w.Start)}
	if *u != want {
		t.Errorf("%v: users %+v, rows %+v", w, *u, want)
	}
	c, err := s.Analytics.ContentAnalytics(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	if n := in("posts", "created_at", w.Start, w.End); c.NewPosts != n || c.TotalPosts != rawCount(t, db, "posts") {
		t.Errorf("%v: new posts %d of %d, rows %d of %d", w, c.NewPosts, c.TotalPosts, n, rawCount(t, db, "posts"))
	}
	points, err := s.Analytics.AnalyticsSeries(ctx, w, models.SeriesWants{Users: true, Posts: true, Events: true})
	if err != nil {
		t.Fatal(err)
	}
	step := 24 * time.Hour
	if w.Hourly {
		step = time.Hour
	}
	for _, p := range points {
		from, to := maxTime(p.At, w.Start), minTime(p.At.Add(step), w.End)
		if p.NewUsers != in("users", "created_at", from, to) || p.NewPosts != in("posts", "created_at", from, to) ||
			p.Events != in("analytics_events", "occurred_at", p.At, p.At.Add(step)) { // events cover whole buckets
			t.Errorf("%v: bucket %s: %d users, %d posts, %d events; rows %d, %d, %d", w, p.At, p.NewUsers, p.NewPosts, p.Events,
				in("users", "created_at", from, to), in("posts", "created_at", from, to), in("analytics_events", "occurred_at", p.At, p.At.Add(step)))
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
