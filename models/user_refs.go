package models

import (
	"context"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// UserIDByRef finds the user a person filter names: an id ("37"), an
// email (anything with an @, ignoring case) or a username (ignoring
// case). ErrNotFound when nobody answers to it, including an id no user
// has: a filter on someone who is gone matches nothing.
func (s *Store) UserIDByRef(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	q := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.id").Limit(1)
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil && id > 0 {
		q = q.Where("u.id = ?", id)
	} else if strings.Contains(ref, "@") {
		q = q.Where("lower(u.email) = ?", NormalizeEmail(ref))
	} else {
		q = q.Where("lower(u.username) = ?", strings.ToLower(ref))
	}
	var id int64
	err := q.Scan(ctx, &id)
	return id, notFound(err, "user "+ref)
}

// UsernamesByID is the usernames of the users with these ids, one query
// for a whole page; an id no user has (a deleted account) is absent.
func (s *Store) UsernamesByID(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID       int64
		Username string
	}
	err := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.id", "u.username").
		Where("u.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	for _, r := range rows {
		out[r.ID] = r.Username
	}
	return out, err
}
