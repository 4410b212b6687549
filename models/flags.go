package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// FlagChange is a partial update of a feature flag; nil fields stay (a new
// flag starts disabled at 0% with no description).
type FlagChange struct {
	Enabled           *bool
	RolloutPercentage *int
	Description       *string
}

// FeatureFlags lists every flag by name.
func (s Settings) FeatureFlags(ctx context.Context) ([]FeatureFlag, error) {
	flags := []FeatureFlag{}
	err := s.db(ctx).NewSelect().Model(&flags).OrderExpr("ff.name").Scan(ctx)
	return flags, err
}

// FeatureFlagPage reads a page of the flags, by name, and how many there
// are in all.
func (s Settings) FeatureFlagPage(ctx context.Context, limit, offset int) ([]FeatureFlag, int, error) {
	flags := []FeatureFlag{}
	n, err := s.db(ctx).NewSelect().Model(&flags).OrderExpr("ff.name").Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	return flags, int(n), err
}

// FeatureFlag reads one flag; an unknown name is ErrNotFound.
func (s Settings) FeatureFlag(ctx context.Context, name string) (*FeatureFlag, error) {
	f := new(FeatureFlag)
	err := s.db(ctx).NewSelect().Model(f).Where("ff.name = ?", name).Scan(ctx)
	return f, notFound(err, "feature flag")
}

// PutFeatureFlag applies ch to flag name on behalf of admin (0: no user),
// creating the flag when there is none. It returns the flag before (nil
// when this call created it) and after. Call it inside a change.
//
// Puts of one new name at once create it once: the creation is an insert
// that skips a row another put landed first (on PostgreSQL it waits for
// that put to commit), and the change is applied to the row read locked,
// so the puts apply one after another and exactly one of them reports the
// creation.
func (s Settings) PutFeatureFlag(ctx context.Context, name string, ch FlagChange, admin int64) (before, after *FeatureFlag, err error) {
	db, now := s.db(ctx), s.now()
	f, created, err := s.lockFeatureFlag(ctx, name, now)
	if err != nil {
		return nil, nil, fmt.Errorf("put feature flag %s: %w", name, err)
	}
	if !created {
		b := *f
		before = &b
	}
	if ch.Enabled != nil {
		f.Enabled = *ch.Enabled
	}
	if ch.RolloutPercentage != nil {
		f.RolloutPercentage = *ch.RolloutPercentage
	}
	if ch.Description != nil {
		f.Description = *ch.Description
	}
	f.UpdatedAt, f.UpdatedBy = now, nil
	if admin != 0 { // 0: the command line's operator, no user
		f.UpdatedBy = &admin
	}
	if _, err = db.NewUpdate().Model(f).WherePK().Exec(ctx); err != nil {
		return nil, nil, fmt.Errorf("put feature flag %s: %w", name, err)
	}
	return before, f, nil
}

// lockFeatureFlag reads flag name locked for the rest of the change,
// inserting it (disabled, at 0%, with no description) when there is none;
// created says this call inserted it. A flag deleted between the insert
// that skipped and the read is inserted again on the next try.
func (s *Store) lockFeatureFlag(ctx context.Context, name string, now time.Time) (f *FeatureFlag, created bool, err error) {
	db := s.db(ctx)
	for range 3 {
		fresh := &FeatureFlag{Name: name, CreatedAt: now, UpdatedAt: now}
		res, err := db.NewInsert().Model(fresh).On("CONFLICT (name) DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, false, err
		}
		n, _ := res.RowsAffected()
		f = new(FeatureFlag)
		q := db.NewSelect().Model(f).Where("ff.name = ?", name)
		if Dialect(db) == "postgres" {
			q = q.For("UPDATE")
		}
		err = q.Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		return f, n == 1, err
	}
	return nil, false, fmt.Errorf("feature flag %s deleted while put: %w", name, ErrConflict)
}

// DeleteFeatureFlag removes flag name; an unknown name is ErrNotFound.
// Call it inside a change.
func (s Settings) DeleteFeatureFlag(ctx context.Context, name string) (*FeatureFlag, error) {
	f, err := s.FeatureFlag(ctx, name)
	if err != nil {
		return nil, err
	}
	res, err := s.db(ctx).NewDelete().Model((*FeatureFlag)(nil)).Where("name = ?", name).Exec(ctx)
	return f, oneRow(res, err, "feature flag")
}
