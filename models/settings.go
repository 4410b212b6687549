package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// EnsureSetting returns the stored value of key, storing generate()'s value
// first when there is none. Concurrent callers on several instances all get
// the one value that was stored first.
func (s Settings) EnsureSetting(ctx context.Context, key string, generate func() (string, error)) (string, error) {
	var value string
	err := s.DB.NewSelect().Model((*Setting)(nil)).Column("value").Where("key = ?", key).Scan(ctx, &value)
	if err == nil {
		return value, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	generated, err := generate()
	if err != nil {
		return "", fmt.Errorf("generate setting %s: %w", key, err)
	}
	row := &Setting{Key: key, Value: generated, CreatedAt: s.now()}
	if _, err := s.DB.NewInsert().Model(row).On("CONFLICT (key) DO NOTHING").Exec(ctx); err != nil {
		return "", fmt.Errorf("store setting %s: %w", key, err)
	}
	err = s.DB.NewSelect().Model((*Setting)(nil)).Column("value").Where("key = ?", key).Scan(ctx, &value)
	return value, err
}

// Setting reads key's stored value; ok is false when there is none.
func (s Settings) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.db(ctx).NewSelect().Model((*Setting)(nil)).Column("value").Where("key = ?", key).Scan(ctx, &value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// PutSetting stores value under key, replacing any. Call it inside a change.
func (s Settings) PutSetting(ctx context.Context, key, value string) error {
	row := &Setting{Key: key, Value: value, CreatedAt: s.now()}
	_, err := s.db(ctx).NewInsert().Model(row).On("CONFLICT (key) DO UPDATE").Set("value = EXCLUDED.value").Exec(ctx)
	if err != nil {
		return fmt.Errorf("store setting %s: %w", key, err)
	}
	return nil
}
