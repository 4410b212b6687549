package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestLocks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return now }
		ada, bob := createUser(t, s, "ada@example.com"), createUser(t, s, "bob@example.com")

		l, err := s.Desk.AcquireLock(ctx, "user", "42", ada.ID)
		if err != nil || !l.LockedAt.Equal(now) || !l.ExpiresAt.Equal(now.Add(models.LockLease)) {
			t.Fatalf("acquire: %+v, %v", l, err)
		}
		_, err = s.Desk.AcquireLock(ctx, "user", "42", bob.ID)
		var le *models.LockedError
		if !errors.As(err, &le) || le.By != "ada" || le.ByUserID != ada.ID || !le.At.Equal(now) {
			t.Fatalf("bob's acquire: %v, want LockedError by ada", err)
		}
		if err := s.Desk.CheckLock(ctx, "user", "42", bob.ID); !errors.Is(err, models.ErrLocked) {
			t.Errorf("bob's write: %v, want ErrLocked", err)
		}
		if err := s.Desk.CheckLock(ctx, "user", "42", ada.ID); err != nil {
			t.Errorf("the holder's own write: %v", err)
		}

		now = now.Add(4 * time.Minute)
		l, err = s.Desk.AcquireLock(ctx, "user", "42", ada.ID)
		if err != nil || !l.LockedAt.Equal(now.Add(-4*time.Minute)) || !l.ExpiresAt.Equal(now.Add(models.LockLease)) {
			t.Errorf("renewal: %+v, %v; want locked_at kept and expiry extended", l, err)
		}
		if err := s.Desk.ReleaseLock(ctx, "user", "42", bob.ID); !errors.Is(err, models.ErrLocked) {
			t.Errorf("bob releasing ada's lock: %v", err)
		}

		now = now.Add(models.LockLease + time.Second)
		if l, err = s.Desk.AcquireLock(ctx, "user", "42", bob.ID); err != nil || l.LockedBy != bob.ID {
			t.Errorf("after expiry bob takes it: %+v, %v", l, err)
		}
		if err := s.Desk.ReleaseLock(ctx, "user", "42", bob.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Desk.CheckLock(ctx, "user", "42", ada.ID); err != nil {
			t.Errorf("after release: %v", err)
		}
	})
}

func TestChangeLocked(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ada, bob := createUser(t, s, "ada@example.com"), createUser(t, s, "bob@example.com")
		if _, err := s.Desk.AcquireLock(ctx, "user", "9", ada.ID); err != nil {
			t.Fatal(err)
		}
		ran := false
		change := func(ctx context.Context) error { ran = true; return nil }
		if err := s.ChangeLocked(ctx, "user", "9", bob.ID, change); !errors.Is(err, models.ErrLocked) || ran {
			t.Errorf("bob's change: %v (ran %v), want ErrLocked without running", err, ran)
		}
		if err := s.ChangeLocked(ctx, "user", "9", ada.ID, change); err != nil || !ran {
			t.Errorf("ada's change: %v (ran %v)", err, ran)
		}
	})
}

func createUser(t *testing.T, s *models.Store, email string) *models.User {
	t.Helper()
	u, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: email})
	if err != nil {
		t.Fatalf("create %s: %v", email, err)
	}
	return u
}
