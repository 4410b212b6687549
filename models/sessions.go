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
//
// It also enforces the idle timeout, in place of scs's IdleTimeout (which
// rewrites the session on every request): each commit stores the session
// until now+idle at most, so a session not committed for idle is gone; the
// request pipeline commits an active session again once a minute.
type SessionStore struct {
	s    *Store
	idle time.Duration
}

// Sessions returns the scs store over this database; idle is the idle
// timeout (0 for none).
func (s *Store) Sessions(idle time.Duration) SessionStore { return SessionStore{s: s, idle: idle} }

// FindCtx returns a session's data when it exists and has not expired.
func (ss SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var data []byte
	var err error
	if ss.s.Dialect() == config.DialectPostgres {
		// Every cookie request runs this. With bun's inlined values each
		// lookup would be a new statement for pgx to prepare (two round
		// trips and a plan); one text with parameters is prepared once per
		// connection.
		err = ss.s.DB.DB.QueryRowContext(ctx, `SELECT data FROM sessions WHERE token = $1 AND expiry > $2`,
			token, ss.s.now()).Scan(&data)
	} else {
		err = ss.s.DB.NewSelect().Model((*Session)(nil)).Column("data").
			Where("token = ? AND expiry > ?", token, ss.s.now()).Scan(ctx, &data)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// CommitCtx stores a session, replacing any with the same token.
func (ss SessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	if until := ss.s.now().Add(ss.idle); ss.idle > 0 && until.Before(expiry) {
		expiry = until
	}
	row := &Session{Token: token, Data: data, Expiry: expiry.UTC()}
	_, err := ss.s.DB.NewInsert().Model(row).
		On("CONFLICT (token) DO UPDATE").Set("data = EXCLUDED.data").Set("expiry = EXCLUDED.expiry").
		Exec(ctx)
	return err
}

// DeleteCtx removes a session. Inside a change it joins the change's
// transaction: a user deleting its account ends its session in the same
// commit (and on SQLite a second writer would wait on the first).
func (ss SessionStore) DeleteCtx(ctx context.Context, token string) error {
	_, err := ss.s.db(ctx).NewDelete().Model((*Session)(nil)).Where("token = ?", token).Exec(ctx)
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

// DeleteExpiredSessions removes sessions past their expiry, for the periodic sweep.
func (s *Store) DeleteExpiredSessions(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*Session)(nil)).Where("expiry <= ?", s.now()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
