package models

import (
	"context"
	"fmt"
	"time"
)

// SilenceUser makes user id read-only until until, with reason; a silence
// in force is replaced. It runs inside the caller's change.
func (s Sanctions) SilenceUser(ctx context.Context, id int64, until time.Time, reason string) error {
	res, err := s.db(ctx).NewUpdate().Model((*User)(nil)).Set("silenced_until = ?", until.UTC().Truncate(time.Microsecond)).
		Set("silence_reason = ?", reason).Set("updated_at = ?", s.now()).Where("id = ?", id).Exec(ctx)
	if err := oneRow(res, err, "user"); err != nil {
		return fmt.Errorf("silence user %d: %w", id, err)
	}
	return nil
}

// UnsilenceUser ends user id's silence now. It reports whether one was in
// force; a user no silence holds is left as it is.
func (s Sanctions) UnsilenceUser(ctx context.Context, id int64) (bool, error) {
	now := s.now()
	res, err := s.db(ctx).NewUpdate().Model((*User)(nil)).Set("silenced_until = NULL").Set("silence_reason = ''").
		Set("updated_at = ?", now).Where("id = ?", id).Where("silenced_until > ?", now).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("unsilence user %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
