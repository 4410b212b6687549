package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrLinkedElsewhere is linking a provider account that another Plaza
// account holds already.
var ErrLinkedElsewhere = errors.New("the provider account is linked to another account")

// ErrLastWayIn is removing the only way an account without a password
// signs in.
var ErrLastWayIn = errors.New("the account's last way to sign in")

// ProviderLinks lists the provider accounts linked to user userID, oldest
// first.
func (s Auth) ProviderLinks(ctx context.Context, userID int64) ([]ProviderAccount, error) {
	var rows []ProviderAccount
	err := s.db(ctx).NewSelect().Model(&rows).Where("pa.user_id = ?", userID).Order("pa.created_at", "pa.id").Scan(ctx)
	return rows, err
}

// LinkProvider links the external identity id to user userID, whose owner
// has just signed in to it: its email need not match the account's. An
// identity linked to the user already is refreshed; one linked to
// another user is ErrLinkedElsewhere. Runs in the caller's change.
func (s Auth) LinkProvider(ctx context.Context, userID int64, id OAuthIdentity) error {
	return s.Change(ctx, func(ctx context.Context) error {
		db, now, email := s.db(ctx), s.now(), NormalizeEmail(id.Email)
		pa := new(ProviderAccount)
		err := db.NewSelect().Model(pa).
			Where("pa.provider = ? AND pa.provider_user_id = ?", id.Provider, id.ProviderUserID).Limit(1).Scan(ctx)
		switch {
		case err == nil && pa.UserID != userID:
			return fmt.Errorf("%s account %s: %w", id.Provider, id.ProviderUserID, ErrLinkedElsewhere)
		case err == nil:
			return touchLink(ctx, db, pa.ID, email, id.EmailVerified, now)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		err = insertLink(ctx, db, userID, id, email, now)
		if errors.Is(err, ErrConflict) { // linked by someone at the same moment
			return fmt.Errorf("%s account %s: %w", id.Provider, id.ProviderUserID, ErrLinkedElsewhere)
		}
		return err
	})
}

// UnlinkProvider removes the links of user userID to provider and reports
// how many went; removing the last link of an account without a password
// is ErrLastWayIn. Runs in the caller's change.
func (s Auth) UnlinkProvider(ctx context.Context, userID int64, provider string) (int, error) {
	var n int
	err := s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		u := new(User)
		q := db.NewSelect().Model(u).Column("password_hash").Where("u.id = ?", userID)
		if s.Dialect() == "postgres" {
			q = q.For("UPDATE") // two removals at once must not both see a link left
		} // a SQLite write transaction holds the database already
		if err := q.Scan(ctx); err != nil {
			return notFound(err, "user")
		}
		res, err := db.NewDelete().Model((*ProviderAccount)(nil)).Where("user_id = ? AND provider = ?", userID, provider).Exec(ctx)
		if err != nil {
			return err
		}
		if removed, _ := res.RowsAffected(); removed > 0 {
			n = int(removed)
		}
		left, err := db.NewSelect().Model((*ProviderAccount)(nil)).Where("user_id = ?", userID).Count(ctx)
		if err == nil && n > 0 && left == 0 && u.PasswordHash == nil {
			return ErrLastWayIn
		}
		return err
	})
	return n, err
}
