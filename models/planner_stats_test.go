package models_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestRefreshPlannerStats(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		richUsers(t, s, 30)
		n, err := s.Maintenance.RefreshPlannerStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if models.Dialect(db) == "sqlite" {
			if got := statRows(t, db, "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'users'"); got == 0 {
				t.Error("optimize left users without statistics")
			}
			return
		}
		if n == 0 || !usersAnalyzed(t, db) {
			t.Fatalf("a database never analyzed: %d tables analyzed, users among them: %v", n, usersAnalyzed(t, db))
		}
		// Nothing moved since: nothing to do.
		if n, err := s.Maintenance.RefreshPlannerStats(ctx); err != nil || n != 0 {
			t.Errorf("second refresh analyzed %d tables, %v; want 0", n, err)
		}
		for i := range 200 {
			if _, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("more%03d@example.com", i)}); err != nil {
				t.Fatal(err)
			}
		}
		// A backend reports its changes to the statistics a moment after
		// it goes idle, up to a second or so.
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			n, err := s.Maintenance.RefreshPlannerStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("200 new users never made the users statistics stale")
			}
		}
	})
}

func TestAnalyzeAll(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		richUsers(t, models.NewStore(db), 5)
		if err := models.AnalyzeAll(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		if models.Dialect(db) == "sqlite" {
			if statRows(t, db, "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'users'") == 0 {
				t.Error("users has no statistics")
			}
		} else if !usersAnalyzed(t, db) {
			t.Error("users was not analyzed")
		}
	})
}

func statRows(t *testing.T, db *bun.DB, query string) int {
	t.Helper()
	var n int
	if err := db.NewRaw(query).Scan(context.Background(), &n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func usersAnalyzed(t *testing.T, db *bun.DB) bool {
	return statRows(t, db, "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'users' AND last_analyze IS NOT NULL") == 1
}
