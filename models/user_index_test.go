package models_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestUserIndexFollowsOtherInstances: two stores on one database stand
// for two instances. What one changes (a new user, a ban, a role, a
// provider account, a rename, a deletion) shows in the other's next list,
// and so does a transaction that began first but committed last.
func TestUserIndexFollowsOtherInstances(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		one, other := models.NewStore(db), models.NewStore(db)
		ada, err := one.Users.CreateUser(ctx, models.NewUser{Username: "ada", Email: "ada@example.org", Name: "Ada Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		search := func(term, status, role string) []string {
			t.Helper()
			rows, total, err := other.Users.ListUsers(ctx, models.UserListFilter{Search: term, Status: status, Role: role, Sort: "username", Limit: 10})
			if err != nil || total != len(rows) {
				t.Fatalf("list %q: %d rows of %d, %v", term, len(rows), total, err)
			}
			var names []string
			for _, r := range rows {
				names = append(names, r.Username)
			}
			return names
		}
		if got := search("ADA", "", ""); !slices.Equal(got, []string{"ada"}) {
			t.Fatalf("first look: %v", got)
		}
		grace, err := one.Users.CreateUser(ctx, models.NewUser{Username: "grace", Email: "grace@navy.test", Roles: []string{models.RoleModerator}})
		if err != nil {
			t.Fatal(err)
		}
		if got := search("", "", models.RoleModerator); !slices.Equal(got, []string{"grace"}) {
			t.Errorf("a new moderator on the other instance: %v", got)
		}
		if _, err := one.Sanctions.BanUser(ctx, models.BanInput{UserID: ada.ID, AdminID: grace.ID, Reason: "spam", Duration: time.Hour}); err != nil {
			t.Fatal(err)
		}
		if got := search("", models.UserBanned, ""); !slices.Equal(got, []string{"ada"}) {
			t.Errorf("after a ban: banned %v", got)
		}
		one.Now = func() time.Time { return time.Now().UTC().Add(2 * time.Hour) }
		other.Now = one.Now
		if got := search("", models.UserBanned, ""); len(got) != 0 {
			t.Errorf("after the ban ran out: banned %v", got)
		}
		sqlExec(t, db, "INSERT INTO provider_accounts (user_id, provider, provider_user_id, email, email_verified, created_at) VALUES (?, 'github', 'gh1', 'octo@github.test', false, ?)",
			grace.ID, time.Now().UTC())
		rows, err := other.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 10, Search: "octo@"})
		if err != nil || rows.Total != 1 || rows.Rows[0].Username != "grace" {
			t.Errorf("a provider's email in the wide search: %+v, %v", rows, err)
		}
		sqlExec(t, db, "UPDATE users SET username = 'hopper' WHERE id = ?", grace.ID)
		if got := search("hop", "", ""); !slices.Equal(got, []string{"hopper"}) {
			t.Errorf("after a rename: %v", got)
		}

		// A transaction that began first and commits last is still read.
		now := time.Now().UTC()
		slow, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer slow.Rollback() //nolint:errcheck // after Commit it does nothing
		if _, err := slow.ExecContext(ctx, insertUser, "slow", "slow@example.org", now, now); err != nil {
			t.Fatal(err)
		}
		if db.Dialect().Name().String() == "pg" { // SQLite has one writer at a time
			sqlExec(t, db, "UPDATE users SET username = 'quick' WHERE id = ?", grace.ID)
			if got := search("qui", "", ""); !slices.Equal(got, []string{"quick"}) {
				t.Errorf("with the slow one uncommitted: %v", got)
			}
		}
		if err := slow.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := search("slow", "", ""); !slices.Equal(got, []string{"slow"}) {
			t.Errorf("the slow transaction's user, after it committed: %v", got)
		}
		sqlExec(t, db, "DELETE FROM users WHERE username = 'slow'")
		if got := search("slow", "", ""); len(got) != 0 {
			t.Errorf("after a deletion: %v", got)
		}
	})
}

const insertUser = `INSERT INTO users (username, email, status, is_active, profile_public, is_verified, bio, location, post_count, login_count, created_at, updated_at)
	VALUES (?, ?, 'active', true, true, false, '', '', 0, 0, ?, ?)`

func sqlExec(t *testing.T, db bun.IDB, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestUserIndexReloadsAfterBulkWrites: a writer that skips the triggers
// (a superuser's bulk load on PostgreSQL) bumps the epoch through
// RecountUsers or ForgetUserIndexes, and the next list reads everything
// again; the sweep prunes the log.
func TestUserIndexReloadsAfterBulkWrites(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		count := func() int {
			t.Helper()
			_, total, err := s.Users.ListUsers(ctx, models.UserListFilter{Sort: "created_at", Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			return total
		}
		if n := count(); n != 0 {
			t.Fatalf("an empty database lists %d", n)
		}
		now := time.Now().UTC()
		for i := range 3 {
			sqlExec(t, db, insertUser, fmt.Sprint("bulk", i), fmt.Sprintf("bulk%d@example.org", i), now, now)
		}
		sqlExec(t, db, "DELETE FROM user_index_changes")
		if n := count(); n != 0 {
			t.Fatalf("users loaded without the log show before the epoch moves: %d", n)
		}
		if err := models.ForgetUserIndexes(ctx, db); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 3 {
			t.Errorf("after ForgetUserIndexes: %d users, want 3", n)
		}
		sqlExec(t, db, "UPDATE user_index_changes SET at = '2000-01-01 00:00:00'")
		sqlExec(t, db, insertUser, "fresh", "fresh@example.org", now, now)
		pruned, err := s.Users.PruneUserIndexLog(ctx)
		if err != nil || pruned != 0 {
			t.Errorf("pruned %d, %v; the log held nothing old", pruned, err)
		}
		sqlExec(t, db, "UPDATE user_index_changes SET at = '2000-01-01 00:00:00'")
		if pruned, err = s.Users.PruneUserIndexLog(ctx); err != nil || pruned != 1 {
			t.Errorf("pruned %d, %v; want the one old entry", pruned, err)
		}
	})
}

// TestUserIndexUnderConcurrentLists: lists from several goroutines while
// users are made; each list is whole (its total matches what it can
// page), and the list after the last commit counts every user.
func TestUserIndexUnderConcurrentLists(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		const made = 20
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for range 3 {
			wg.Go(func() {
				for range 10 {
					rows, total, err := s.Users.ListUsers(ctx, models.UserListFilter{Search: "racer", Sort: "username", Limit: 100})
					if err == nil && len(rows) != total {
						err = fmt.Errorf("%d rows of %d", len(rows), total)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
		for i := range made {
			if _, err := s.Users.CreateUser(ctx, models.NewUser{Username: fmt.Sprint("racer", i), Email: fmt.Sprintf("racer%d@example.org", i)}); err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if _, total, err := s.Users.ListUsers(ctx, models.UserListFilter{Search: "RACER", Sort: "created_at", Limit: 1}); err != nil || total != made {
			t.Errorf("after the last commit: %d users, %v; want %d", total, err, made)
		}
	})
}
