package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func countModel(t *testing.T, db *bun.DB, model any) int {
	t.Helper()
	n, err := db.NewSelect().Model(model).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func newToken(jti string, userID int64) *models.APIToken {
	return &models.APIToken{JTI: jti, UserID: userID, Name: "t", Permissions: "admin:read", ExpiresAt: time.Now().Add(time.Hour)}
}

// TestWorkCommitsChangeWithItsEntry checks that a request's changes and its
// audit entry land together at Finish, with the status the caller reports,
// and that OnBegin's hook runs once, as the first change begins.
func TestWorkCommitsChangeWithItsEntry(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		purged := 0
		s.Changed = func() { purged++ }
		u, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		w := s.NewWork(&audit.Draft{Action: "token.create", AdminID: &u.ID})
		begun := 0
		w.OnBegin(func() { begun++ })
		ctx := models.WithWork(context.Background(), w)
		if w.Pending() || begun != 0 {
			t.Fatalf("pending before any change (begun %d times)", begun)
		}
		if err := s.Change(ctx, func(ctx context.Context) error { return s.Auth.RecordAPIToken(ctx, newToken("a", u.ID)) }); err != nil {
			t.Fatal(err)
		}
		if err := s.Change(ctx, func(ctx context.Context) error { return s.Auth.RecordAPIToken(ctx, newToken("b", u.ID)) }); err != nil {
			t.Fatal(err)
		}
		if !w.Pending() || begun != 1 {
			t.Fatalf("changes pending %v, begun %d times; want pending, begun once", w.Pending(), begun)
		}
		if _, err := s.Auth.APITokenByJTI(ctx, "b"); err != nil {
			t.Errorf("the request does not read its own write: %v", err)
		}
		if got := countModel(t, db, (*models.APIToken)(nil)); got != 0 {
			t.Errorf("%d tokens visible outside the request before Finish", got)
		}
		written, err := w.Finish(ctx, true, 201)
		if err != nil || !written {
			t.Fatalf("finish: written %v, %v", written, err)
		}
		var entries []models.AuditEntry
		if err := db.NewSelect().Model(&entries).Scan(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := countModel(t, db, (*models.APIToken)(nil)); n != 2 || len(entries) != 1 || entries[0].Status != 201 || purged != 1 {
			t.Errorf("got %d tokens, entries %+v, %d purges; want 2 tokens, one entry with status 201, one purge", n, entries, purged)
		}
	})
}

// TestWorkRollsBack checks that a failed request, or a failed change,
// leaves nothing behind.
func TestWorkRollsBack(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		record := func(ctx context.Context, jti string) error {
			return s.Change(ctx, func(ctx context.Context) error { return s.Auth.RecordAPIToken(ctx, newToken(jti, u.ID)) })
		}

		w := s.NewWork(&audit.Draft{Action: "token.create"})
		ctx := models.WithWork(context.Background(), w)
		if err := record(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if written, err := w.Finish(ctx, false, 500); written || err != nil {
			t.Errorf("failed request: written %v, %v", written, err)
		}

		w = s.NewWork(&audit.Draft{Action: "token.create"})
		ctx = models.WithWork(context.Background(), w)
		if err := record(ctx, "b"); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		if err := s.Change(ctx, func(context.Context) error { return boom }); !errors.Is(err, boom) {
			t.Fatalf("got %v, want boom", err)
		}
		if w.Pending() {
			t.Error("a failed change left the request's changes pending")
		}
		if written, err := w.Finish(ctx, true, 200); written || err != nil {
			t.Errorf("nothing left to commit: written %v, %v", written, err)
		}
		if n := countModel(t, db, (*models.APIToken)(nil)) + countModel(t, db, (*models.AuditEntry)(nil)); n != 0 {
			t.Errorf("%d rows left behind, want 0", n)
		}
	})
}

// TestChangeOutsideWork checks that commands and jobs, which have no
// request, commit each change at once.
func TestChangeOutsideWork(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		ctx := context.Background()
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Change(ctx, func(ctx context.Context) error {
			if err := s.Auth.RecordAPIToken(ctx, newToken("a", u.ID)); err != nil {
				return err
			}
			return s.Change(ctx, func(ctx context.Context) error { return s.Auth.RecordAPIToken(ctx, newToken("b", u.ID)) })
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := countModel(t, db, (*models.APIToken)(nil)); n != 2 {
			t.Errorf("%d tokens, want 2", n)
		}
		boom := errors.New("boom")
		err = s.Change(ctx, func(ctx context.Context) error {
			if err := s.Auth.RecordAPIToken(ctx, newToken("c", u.ID)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) || countModel(t, db, (*models.APIToken)(nil)) != 2 {
			t.Errorf("failed change: %v, and it left a row behind", err)
		}
	})
}
