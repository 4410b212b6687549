package models

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SessionStore keeps scs sessions in the sessions table of either dialect,
// so that every instance sees every session. It implements scs.CtxStore.
type SessionStore struct{ s *Store }

// Sessions returns the scs store over this database.
func (s *Store) Sessions() SessionStore { return SessionStore{s: s} }

// FindCtx returns a session's data when it exists and has not expired.
func (ss SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var data []byte
	err := ss.s.DB.NewSelect().Model((*Session)(nil)).Column("data").
		Where("token = ? AND expiry > ?", token, ss.s.now()).Scan(ctx, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// CommitCtx stores a session, replacing any with the same token.
func (ss SessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	row := &Session{Token: token, Data: data, Expiry: expiry.UTC()}
	_, err := ss.s.DB.NewInsert().Model(row).
		On("CONFLICT (token) DO UPDATE").Set("data = EXCLUDED.data").Set("expiry = EXCLUDED.expiry").
		Exec(ctx)
	return err
}

// DeleteCtx removes a session.
func (ss SessionStore) DeleteCtx(ctx context.Context, token string) error {
	_, err := ss.s.DB.NewDelete().Model((*Session)(nil)).Where("token = ?", token).Exec(ctx)
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
