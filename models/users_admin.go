package models

import (
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"
)

// UserAdminChange is an admin's partial update of a user; nil fields stay.
type UserAdminChange struct {
	// Status is active or inactive; either ends a ban in force (a ban is
	// made through BanUser, which records its reason).
	Status *string
	// Roles replace the user's roles ("user" is always kept).
	Roles      []string
	IsVerified *bool
	// Notes are the admin-only notes; empty clears them.
	Notes *string
}

// UpdateUserAsAdmin applies ch to user id on behalf of admin adminID. Call
// it inside a change.
func (s *Store) UpdateUserAsAdmin(ctx context.Context, id, adminID int64, ch UserAdminChange) error {
	db, now := s.db(ctx), s.now()
	q := db.NewUpdate().Model((*User)(nil)).Set("updated_at = ?", now).Where("id = ?", id)
	if ch.Status != nil {
		if err := endBans(ctx, db, id, adminID, now); err != nil {
			return err
		}
		q = q.Set("status = ?", *ch.Status).Set("is_active = ?", *ch.Status != UserInactive)
	}
	if ch.IsVerified != nil {
		q = q.Set("is_verified = ?", *ch.IsVerified)
	}
	if ch.Notes != nil {
		q = q.Set("admin_notes = ?", nullString(*ch.Notes))
	}
	res, err := q.Exec(ctx)
	if err := oneRow(res, err, "user"); err != nil {
		return err
	}
	if ch.Roles != nil {
		return s.setRoles(ctx, id, adminID, ch.Roles)
	}
	return nil
}

// setRoles makes user id hold exactly roles, and "user".
func (s *Store) setRoles(ctx context.Context, id, adminID int64, roles []string) error {
	db := s.db(ctx)
	if !slices.Contains(roles, RoleUser) {
		roles = append(slices.Clone(roles), RoleUser)
	}
	_, err := db.NewDelete().TableExpr("user_roles").Where("user_id = ?", id).
		Where("role_id NOT IN (SELECT r.id FROM roles AS r WHERE r.name IN (?))", bun.In(roles)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set roles of user %d: %w", id, err)
	}
	_, err = db.NewRaw(`INSERT INTO user_roles (user_id, role_id, granted_at, granted_by)
		SELECT ?, r.id, ?, ? FROM roles AS r WHERE r.name IN (?)
		AND NOT EXISTS (SELECT 1 FROM user_roles AS ur WHERE ur.user_id = ? AND ur.role_id = r.id)`,
		id, s.now(), adminID, bun.In(roles), id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set roles of user %d: %w", id, err)
	}
	return nil
}

// ListedUserByID reads one user as the versioned admin list shows it; an
// unknown id is ErrNotFound.
func (s *Store) ListedUserByID(ctx context.Context, id int64) (*ListedUser, error) {
	db := s.db(ctx)
	out := new(ListedUser)
	err := selectUsers(db.NewSelect().Model(out), s.now()).ColumnExpr("(?) AS top_role", topRole(db)).
		Where("u.id = ?", id).Scan(ctx)
	return out, notFound(err, "user")
}

// HideUserPosts hides user id's published and flagged posts, with a
// moderation record for each (action hide, the given reason), set-based so
// that a prolific author's ban stays two statements. It returns how many
// it hid. Call it inside a change.
func (s *Store) HideUserPosts(ctx context.Context, id, adminID int64, reason string) (int, error) {
	db, now := s.db(ctx), s.now()
	shown := []string{PostPublished, PostFlagged}
	_, err := db.NewRaw(`INSERT INTO moderation_actions (post_id, post_title, admin_id, action, reason, notes, from_status, to_status, created_at)
		SELECT p.id, p.title, ?, 'hide', ?, 'hidden with the author''s ban', p.status, ?, ? FROM posts AS p
		WHERE p.author_id = ? AND p.status IN (?)`, adminID, reason, PostHidden, now, id, bun.In(shown)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("record hiding of user %d's posts: %w", id, err)
	}
	res, err := db.NewUpdate().Model((*Post)(nil)).Set("status = ?", PostHidden).Set("updated_at = ?", now).
		Where("author_id = ? AND status IN (?)", id, bun.In(shown)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("hide user %d's posts: %w", id, err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
