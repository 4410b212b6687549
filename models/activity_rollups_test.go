package models_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestActivityRollUpsMatchTheRows: the user-activity report's page and
// totals read from the rolled-up days are what the rows say (the CSV's
// query), before any roll-up, after them, for windows with partial days
// at both ends, for a day rolled up before it ended and written to after,
// and after the retention delete.
func TestActivityRollUpsMatchTheRows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2026, 5, 20, 15, 30, 0, 0, time.UTC)
		s.Now = func() time.Time { return now }
		var users []int64
		for i := range 12 {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("u%d@example.com", i), Username: fmt.Sprintf("u%d", i)})
			if err != nil {
				t.Fatal(err)
			}
			users = append(users, u.ID)
		}
		// Each user acts on some of the last ten days, at hours that fall on
		// both sides of the windows' edges.
		for i, u := range users {
			for d := i % 3; d < 10; d += 2 + i%4 {
				at := now.AddDate(0, 0, -d).Add(-time.Duration(i*2+1) * time.Hour)
				insertActivity(t, db, u, i+d, at)
			}
		}
		windows := [][2]time.Time{
			{now.AddDate(0, 0, -7), now}, // the default's shape: partial days at both ends
			{now.AddDate(0, 0, -9).Truncate(24 * time.Hour), now.Truncate(24 * time.Hour)}, // whole days
			{now.Add(-5 * time.Hour), now}, // within today
			{now.AddDate(0, 0, -1).Truncate(24 * time.Hour), now.Truncate(24 * time.Hour)}, // yesterday alone
		}
		check := func(when string) {
			t.Helper()
			for _, w := range windows {
				checkActivityPages(t, s, w[0], w[1], when)
			}
		}
		check("before any roll-up")
		if n, err := s.Analytics.RollUpPastActivity(ctx, 0); err != nil || n == 0 {
			t.Fatalf("roll up past days: %d, %v", n, err)
		}
		if err := s.Analytics.RollUpActivity(ctx, now); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RollUpRecentHours(ctx); err != nil {
			t.Fatal(err)
		}
		check("after the roll-ups")

		// Today was rolled up before it ended: what happens after still counts.
		insertActivity(t, db, users[0], 1, now.Add(-time.Minute))
		check("after a write to today")

		// A write into a past hour (an event sent late) counts once the job
		// has rolled that hour and its day up again, as it does every run.
		yesterday := now.AddDate(0, 0, -1)
		insertActivity(t, db, users[5], 2, yesterday.Add(-time.Hour))
		if err := s.Analytics.RollUpRecentHours(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RollUpActivity(ctx, yesterday); err != nil {
			t.Fatal(err)
		}
		check("after a write to yesterday and the job's next run")

		// A day rolled up before it ended is not final: it is read from the
		// rows until the job rolls it up again.
		third := now.AddDate(0, 0, -3)
		s.Now = func() time.Time { return third }
		if err := s.Analytics.RollUpActivity(ctx, third); err != nil {
			t.Fatal(err)
		}
		s.Now = func() time.Time { return now }
		insertActivity(t, db, users[7], 4, third.Add(-time.Hour))
		check("after a write to a day rolled up before it ended")
		if n, err := s.Analytics.RollUpPastActivity(ctx, 0); err != nil || n != 1 {
			t.Errorf("days rolled up again: %d, %v", n, err)
		}
		check("after rolling that day up again")

		// The retention delete takes events; the roll-ups follow.
		cutoff := now.AddDate(0, 0, -5)
		if _, err := s.Analytics.DeleteOldEvents(ctx, cutoff, 100); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RollUpActivityWithEventsBefore(ctx, cutoff); err != nil {
			t.Fatal(err)
		}
		check("after the retention delete")
	})
}

// insertActivity gives user a post, a sign-in and n%3+1 events at at.
func insertActivity(t *testing.T, db *bun.DB, user int64, n int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	post := models.Post{Title: fmt.Sprint("post ", n), AuthorID: user, Status: models.PostPublished, CreatedAt: at, UpdatedAt: at}
	if _, err := db.NewInsert().Model(&post).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if n%2 == 0 {
		login := models.Login{UserID: user, Method: "password", CreatedAt: at.Add(time.Minute)}
		if _, err := db.NewInsert().Model(&login).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var events []models.AnalyticsEvent
	for k := range n%3 + 1 {
		events = append(events, newEvent(t, &user, "click", "s", at.Add(time.Duration(k)*time.Second)))
	}
	events = append(events, newEvent(t, nil, "click", "anonymous", at))
	if err := models.NewStore(db).Analytics.InsertEvents(ctx, events); err != nil {
		t.Fatal(err)
	}
}

// checkActivityPages compares the report's pages of [start, end) with the
// rows' report, page by page, and its totals with the rows' sums.
func checkActivityPages(t *testing.T, s *models.Store, start, end time.Time, when string) {
	t.Helper()
	ctx := context.Background()
	var want []models.UserActivity
	var sums models.ActivityTotals
	err := s.Analytics.EachUserActivity(ctx, models.ActivityQuery{Start: start, End: end}, func(r *models.UserActivity) error {
		want = append(want, *r)
		sums.Users, sums.Posts, sums.Logins, sums.Events = sums.Users+1, sums.Posts+r.Posts, sums.Logins+r.Logins, sums.Events+r.Events
		return nil
	})
	if err != nil || len(want) == 0 {
		t.Fatalf("%s: the rows' report of %v–%v: %d rows, %v", when, start, end, len(want), err)
	}
	var got []models.UserActivity
	for offset := 0; offset < len(want)+3; offset += 3 {
		page, totals, err := s.Analytics.UserActivityPage(ctx, models.ActivityQuery{Start: start, End: end, Limit: 3, Offset: offset})
		if err != nil {
			t.Fatal(err)
		}
		if totals != sums {
			t.Errorf("%s, %v–%v: totals %+v, the rows sum to %+v", when, start, end, totals, sums)
		}
		got = append(got, page...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s, %v–%v: pages\n%+v\nthe rows\n%+v", when, start, end, got, want)
	}
}
