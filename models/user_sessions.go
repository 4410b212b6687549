package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// UserSession is one of a user's live sessions as a list shows it. ID is
// its public id (SessionID of its token); the token itself never leaves
// this package.
type UserSession struct {
	ID         string
	IP         string
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	Expiry     time.Time
}

// SessionKey is what the sessions table (and a maintenance job's
// arguments) keep of a session token: its SHA-256 in hex. A copy of the
// table signs nobody in; the token lives only in its cookie.
func SessionKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// SessionID is a session's public id: the first 16 bytes of the SHA-256 of
// its token, in hex (the first half of its key). It names the session in
// lists and revocations without being a credential: the token cannot be
// had from it.
func SessionID(token string) string {
	return idOfKey(SessionKey(token))
}

func idOfKey(key string) string {
	if len(key) < 32 {
		return key // not a key: no session id can match it
	}
	return key[:32]
}

// UserSessions lists a user's live sessions, most recently used first.
func (s Auth) UserSessions(ctx context.Context, userID int64) ([]UserSession, error) {
	var rows []Session
	err := s.db(ctx).NewSelect().Model(&rows).Column("token", "ip", "user_agent", "created_at", "last_seen_at", "expiry").
		Where("user_id = ?", userID).Where("expiry > ?", s.now()).
		OrderExpr("last_seen_at DESC, created_at DESC").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list sessions of user %d: %w", userID, err)
	}
	out := make([]UserSession, len(rows))
	for i, r := range rows {
		// A listed session has a user, so it was written since the list
		// columns came, and that write set both times.
		out[i] = UserSession{ID: idOfKey(r.Token), CreatedAt: deref(r.CreatedAt), LastSeenAt: deref(r.LastSeenAt), Expiry: r.Expiry}
		if r.IP != nil {
			out[i].IP = *r.IP
		}
		if r.UserAgent != nil {
			out[i].UserAgent = *r.UserAgent
		}
	}
	return out, nil
}

// EndUserSession ends the user's live session of public id id; an id that
// names no live session of this user is ErrNotFound. A user has a handful
// of sessions, so the ids are worked out here rather than stored.
func (s Auth) EndUserSession(ctx context.Context, userID int64, id string) error {
	var keys []string
	err := s.db(ctx).NewSelect().Model((*Session)(nil)).Column("token").
		Where("user_id = ?", userID).Where("expiry > ?", s.now()).Scan(ctx, &keys)
	if err != nil {
		return fmt.Errorf("find session of user %d: %w", userID, err)
	}
	for _, k := range keys {
		if idOfKey(k) == id {
			_, err := s.endSessions(ctx, "token = ?", k)
			return err
		}
	}
	return fmt.Errorf("session: %w", ErrNotFound)
}

// EndUserSessions ends every live session of the user but the one of token
// keep ("" keeps none), and says how many it ended. Inside a change it
// joins the change's transaction: a ban or a password change ends the
// sessions in the same commit.
func (s Auth) EndUserSessions(ctx context.Context, userID int64, keep string) (int, error) {
	n, err := s.endSessions(ctx, "user_id = ? AND token <> ?", userID, SessionKey(keep))
	if err != nil {
		return 0, fmt.Errorf("end sessions of user %d: %w", userID, err)
	}
	return n, nil
}

// endSessions ends the live sessions where says and says how many it
// ended. This instance forgets them at once and again once the change
// commits (a read between the two may have cached the row as it was);
// other instances hear of it from the database (migration 20261127700000).
func (s *Store) endSessions(ctx context.Context, where string, args ...any) (int, error) {
	keys, err := endSessionsIn(ctx, s.db(ctx), s.now(), where, args...)
	if err != nil {
		return 0, err
	}
	s.SessionCache.Forget(keys...)
	s.afterCommit(ctx, func() { s.SessionCache.Forget(keys...) })
	return len(keys), nil
}

// endSessionsIn ends the live sessions where says, on db, and returns their keys.
func endSessionsIn(ctx context.Context, db bun.IDB, now time.Time, where string, args ...any) ([]string, error) {
	var keys []string
	_, err := db.NewUpdate().Model((*Session)(nil)).Set("expiry = ?", now).
		Where(where, args...).Where("expiry > ?", now).Returning("token").Exec(ctx, &keys)
	return keys, err
}

func deref(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// PasswordChanged is what a password change ended besides the password:
// the user's other sessions and every API token.
type PasswordChanged struct {
	EndedSessions, RevokedTokens int
}

// ChangePassword sets the user's password hash, ends every session of the
// user's but the one of token keep ("" keeps none) and revokes every API
// token of the user's, in one transaction: whoever knew the old password
// may have opened a session or minted a token with it.
func (s Auth) ChangePassword(ctx context.Context, userID int64, hash, keep string) (PasswordChanged, error) {
	var out PasswordChanged
	err := s.Change(ctx, func(ctx context.Context) error {
		res, err := s.db(ctx).NewUpdate().Model((*User)(nil)).Set("password_hash = ?", hash).
			Set("updated_at = ?", s.now()).Where("id = ?", userID).Exec(ctx)
		if err := oneRow(res, err, "user"); err != nil {
			return err
		}
		if out.EndedSessions, err = s.EndUserSessions(ctx, userID, keep); err != nil {
			return err
		}
		out.RevokedTokens, err = s.RevokeUserAPITokens(ctx, userID)
		return err
	})
	return out, err
}
