package models

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/plazahq/plaza/internal/config"
)

// SessionStore keeps scs sessions in the sessions table of either dialect,
// so that every instance sees every session. It implements scs.CtxStore.
// Rows are keyed by SessionKey(token), never by the token itself: the
// column named token holds the token's SHA-256.
//
// It also enforces the idle timeout, in place of scs's IdleTimeout (which
// rewrites the session on every request): each commit stores the session
// until now+idle at most, so a session not committed for idle is gone; the
// request pipeline commits an active session again once a minute.
//
// A commit also writes what a list of sessions shows (whose session it is,
// from which address and browser, when it was last written back), read
// from the session's data by describe. A session, once ended, cannot come
// back: ending one leaves its row expired (a tombstone the sweep removes a
// while later), and a commit never revives an expired row, so a request
// still running on another instance when its session was revoked cannot
// write it back.
type SessionStore struct {
	s        *Store
	idle     time.Duration
	describe func(data []byte) SessionMeta
}

// SessionMeta is what a session's data tells about it: its user (0 for
// none), the address and browser it was last used from ("" when not
// known; the stored ones stay), and its own idle timeout when its user's
// role asks for one shorter than the store's (0 for none).
type SessionMeta struct {
	UserID    int64
	IP        string
	UserAgent string
	Idle      time.Duration
}

// Sessions returns the scs store over this database; idle is the idle
// timeout (0 for none); describe reads a session's data (nil: nothing).
func (s Auth) Sessions(idle time.Duration, describe func(data []byte) SessionMeta) SessionStore {
	return SessionStore{s: s.Store, idle: idle, describe: describe}
}

// endedKeep is how long an ended session's row is kept before the sweep
// removes it: longer than any request still running on it.
const endedKeep = 10 * time.Minute

// FindCtx returns a session's data when it exists and has not expired.
// With SessionCache on, a session read once is served from memory until
// it changes, ends or the cache's TTL passes.
func (ss SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	key, now := SessionKey(token), ss.s.now()
	cache := ss.s.SessionCache
	if data, ok := cache.Get(key, now); ok {
		return data, true, nil
	}
	gen := cache.Generation()
	var data []byte
	var expiry time.Time
	var err error
	if ss.s.Dialect() == config.DialectPostgres {
		// With bun's inlined values each lookup would be a new statement
		// for pgx to prepare (two round trips and a plan); one text with
		// parameters is prepared once per connection.
		err = ss.s.DB.DB.QueryRowContext(ctx, `SELECT data, expiry FROM sessions WHERE token = $1 AND expiry > $2`,
			key, now).Scan(&data, &expiry)
	} else {
		err = ss.s.DB.NewSelect().Model((*Session)(nil)).Column("data", "expiry").
			Where("token = ? AND expiry > ?", key, now).Scan(ctx, &data, &expiry)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	cache.Put(key, data, gen, now, expiry)
	return data, true, nil
}

// CommitCtx stores a session, replacing any with the same token.
func (ss SessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	var m SessionMeta
	if ss.describe != nil {
		m = ss.describe(data)
	}
	now, idle := ss.s.now(), ss.idle
	if m.Idle > 0 && (idle == 0 || m.Idle < idle) {
		idle = m.Idle // a staff session's own, shorter timeout
	}
	if until := now.Add(idle); idle > 0 && until.Before(expiry) {
		expiry = until
	}
	_, err := ss.s.DB.NewRaw(`INSERT INTO sessions (token, data, expiry, user_id, ip, user_agent, created_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry = excluded.expiry, user_id = excluded.user_id,
			ip = COALESCE(excluded.ip, sessions.ip), user_agent = COALESCE(excluded.user_agent, sessions.user_agent),
			created_at = COALESCE(sessions.created_at, excluded.created_at), last_seen_at = excluded.last_seen_at
		WHERE sessions.expiry > ?`,
		SessionKey(token), data, expiry.UTC(), nullID(m.UserID), nullString(m.IP), nullString(m.UserAgent), now, now, now).Exec(ctx)
	ss.s.SessionCache.Forget(SessionKey(token))
	return err
}

// DeleteCtx ends a session, leaving its row expired so that no commit
// brings it back. Inside a change it joins the change's transaction: a
// user deleting its account ends its session in the same commit (and on
// SQLite a second writer would wait on the first).
func (ss SessionStore) DeleteCtx(ctx context.Context, token string) error {
	_, err := ss.s.endSessions(ctx, "token = ?", SessionKey(token))
	return err
}

// Find, Commit and Delete satisfy scs.Store for callers without a context.
func (ss SessionStore) Find(token string) ([]byte, bool, error) {
	return ss.FindCtx(context.Background(), token)
}

// Commit stores a session.
func (ss SessionStore) Commit(token string, data []byte, expiry time.Time) error {
	return ss.CommitCtx(context.Background(), token, data, expiry)
}

// Delete removes a session.
func (ss SessionStore) Delete(token string) error {
	return ss.DeleteCtx(context.Background(), token)
}

// DeleteExpiredSessions removes sessions that ended more than endedKeep
// ago, for the periodic sweep.
func (s Auth) DeleteExpiredSessions(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*Session)(nil)).Where("expiry <= ?", s.now().Add(-endedKeep)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}
