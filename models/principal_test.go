package models_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestAccountByID(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ada@example.com", Roles: []string{"admin", "super_admin"}})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.Users.AccountByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		roles := a.Roles()
		slices.Sort(roles)
		if a.Email != "ada@example.com" || !slices.Equal(roles, []string{"admin", "super_admin", "user"}) {
			t.Errorf("account %+v roles %v", a.User, roles)
		}
		if _, err := s.Users.AccountByID(ctx, 9999); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
	})
}

func TestSessionStore(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ss := s.Auth.Sessions(0, nil)
		exp := time.Now().Add(time.Hour)
		if err := ss.CommitCtx(ctx, "tok", []byte("one"), exp); err != nil {
			t.Fatal(err)
		}
		if err := ss.CommitCtx(ctx, "tok", []byte("two"), exp); err != nil {
			t.Fatal(err)
		}
		b, found, err := ss.FindCtx(ctx, "tok")
		if err != nil || !found || string(b) != "two" {
			t.Errorf("find = %q %v %v", b, found, err)
		}
		if err := ss.CommitCtx(ctx, "old", []byte("x"), time.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		if sessionFound(t, ss, "old") {
			t.Error("an expired session was found")
		}
		if n, err := s.Auth.DeleteExpiredSessions(ctx); err != nil || n != 1 {
			t.Errorf("sweep removed %d, %v; want 1", n, err)
		}
		if err := ss.DeleteCtx(ctx, "tok"); err != nil {
			t.Fatal(err)
		}
		if sessionFound(t, ss, "tok") {
			t.Error("a deleted session was found")
		}
	})
}

// TestSessionIdleDeadline: the store keeps a session no longer than the idle
// timeout past its last commit, whatever its absolute expiry.
func TestSessionIdleDeadline(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Now().UTC()
		s.Now = func() time.Time { return now }
		ss := s.Auth.Sessions(time.Hour, nil)
		if err := ss.CommitCtx(ctx, "tok", []byte("x"), now.Add(7*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		now = now.Add(59 * time.Minute)
		if !sessionFound(t, ss, "tok") {
			t.Fatal("gone before the idle timeout")
		}
		if err := ss.CommitCtx(ctx, "tok", []byte("x"), now.Add(7*24*time.Hour)); err != nil { // a request moved the deadline on
			t.Fatal(err)
		}
		now = now.Add(59 * time.Minute)
		if !sessionFound(t, ss, "tok") {
			t.Fatal("the commit did not move the idle deadline")
		}
		now = now.Add(2 * time.Minute)
		if sessionFound(t, ss, "tok") {
			t.Error("found after an hour idle")
		}
		if err := ss.CommitCtx(ctx, "short", []byte("x"), now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		now = now.Add(2 * time.Minute)
		if sessionFound(t, ss, "short") {
			t.Error("found after its absolute expiry")
		}
	})
}

// sessionFound reports whether the session store finds token; an error
// fails the test rather than passing for "not found".
func sessionFound(t *testing.T, ss models.SessionStore, token string) bool {
	t.Helper()
	_, ok, err := ss.FindCtx(context.Background(), token)
	if err != nil {
		t.Fatalf("find session %q: %v", token, err)
	}
	return ok
}

// TestEndedSessionStaysEnded: a request still running on a session when it
// was revoked cannot write it back when it ends.
func TestEndedSessionStaysEnded(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ss := s.Auth.Sessions(time.Hour, func([]byte) models.SessionMeta { return models.SessionMeta{UserID: 7} })
		exp := time.Now().Add(time.Hour)
		for _, tok := range []string{"a", "b"} {
			if err := ss.CommitCtx(ctx, tok, []byte("x"), exp); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.Auth.EndUserSessions(ctx, 7, "b"); err != nil || n != 1 {
			t.Fatalf("end others: %d %v", n, err)
		}
		if err := ss.CommitCtx(ctx, "a", []byte("x"), exp); err != nil { // the late write-back
			t.Fatal(err)
		}
		if sessionFound(t, ss, "a") || !sessionFound(t, ss, "b") {
			t.Error("an ended session came back, or the kept one ended")
		}
		if err := s.Auth.EndUserSession(ctx, 7, models.SessionID("a")); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("ending an ended session: %v, want ErrNotFound", err)
		}
		if err := s.Auth.EndUserSession(ctx, 8, models.SessionID("b")); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("another user's session: %v, want ErrNotFound", err)
		}
	})
}

// TestSessionsStoredByHash: the sessions table holds the SHA-256 of each
// token, never the token, so a copy of the table (a backup, a read-only
// leak) signs nobody in; the store still finds, lists and ends sessions by
// their tokens. Both databases.
func TestSessionsStoredByHash(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ss := s.Auth.Sessions(time.Hour, func([]byte) models.SessionMeta { return models.SessionMeta{UserID: 7} })
		const token = "the-raw-cookie-token"
		if err := ss.CommitCtx(ctx, token, []byte("x"), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var stored []string
		if err := db.NewSelect().Model((*models.Session)(nil)).Column("token").Scan(ctx, &stored); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(token))
		if len(stored) != 1 || stored[0] != hex.EncodeToString(sum[:]) {
			t.Fatalf("stored keys %q, want the token's SHA-256", stored)
		}
		if !sessionFound(t, ss, token) || sessionFound(t, ss, stored[0]) {
			t.Error("the session must be found by its token and never by its stored key")
		}
		list, err := s.Auth.UserSessions(ctx, 7)
		if err != nil || len(list) != 1 || list[0].ID != models.SessionID(token) {
			t.Fatalf("list: %+v %v", list, err)
		}
		if n, err := s.Auth.EndUserSessions(ctx, 7, token); err != nil || n != 0 {
			t.Errorf("ending all but this one ended %d (%v)", n, err)
		}
		if err := ss.DeleteCtx(ctx, token); err != nil || sessionFound(t, ss, token) {
			t.Errorf("delete: %v", err)
		}
	})
}
