package models

import (
	"context"
	"errors"
	"fmt"
)

// FlagChange is a partial update of a feature flag; nil fields stay (a new
// flag starts disabled at 0% with no description).
type FlagChange struct {
	Enabled           *bool
	RolloutPercentage *int
	Description       *string
}

// FeatureFlags lists every flag by name.
func (s *Store) FeatureFlags(ctx context.Context) ([]FeatureFlag, error) {
	flags := []FeatureFlag{}
	err := s.db(ctx).NewSelect().Model(&flags).OrderExpr("ff.name").Scan(ctx)
	return flags, err
}

// FeatureFlagPage reads a page of the flags, by name, and how many there
// are in all.
func (s *Store) FeatureFlagPage(ctx context.Context, limit, offset int) ([]FeatureFlag, int, error) {
	flags := []FeatureFlag{}
	n, err := s.db(ctx).NewSelect().Model(&flags).OrderExpr("ff.name").Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	return flags, int(n), err
}

// FeatureFlag reads one flag; an unknown name is ErrNotFound.
func (s *Store) FeatureFlag(ctx context.Context, name string) (*FeatureFlag, error) {
	f := new(FeatureFlag)
	err := s.db(ctx).NewSelect().Model(f).Where("ff.name = ?", name).Scan(ctx)
	return f, notFound(err, "feature flag")
}

// PutFeatureFlag applies ch to flag name on behalf of admin, creating the
// flag when there is none. It returns the flag before (nil when created)
// and after. Call it inside a change.
func (s *Store) PutFeatureFlag(ctx context.Context, name string, ch FlagChange, admin int64) (before, after *FeatureFlag, err error) {
	db, now := s.db(ctx), s.now()
	before, err = s.FeatureFlag(ctx, name)
	if errors.Is(err, ErrNotFound) {
		before, err = nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	f := &FeatureFlag{Name: name, CreatedAt: now}
	if before != nil {
		*f = *before
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
	f.UpdatedAt, f.UpdatedBy = now, &admin
	if before == nil {
		_, err = db.NewInsert().Model(f).Exec(ctx)
	} else {
		_, err = db.NewUpdate().Model(f).WherePK().Exec(ctx)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("put feature flag %s: %w", name, err)
	}
	return before, f, nil
}

// DeleteFeatureFlag removes flag name; an unknown name is ErrNotFound.
// Call it inside a change.
func (s *Store) DeleteFeatureFlag(ctx context.Context, name string) (*FeatureFlag, error) {
	f, err := s.FeatureFlag(ctx, name)
	if err != nil {
		return nil, err
	}
	res, err := s.db(ctx).NewDelete().Model((*FeatureFlag)(nil)).Where("name = ?", name).Exec(ctx)
	return f, oneRow(res, err, "feature flag")
}
