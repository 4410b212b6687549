package models

import (
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"
)

// UserAdminChange is an admin's partial update of a user; nil fields stay.
type UserAdminChange struct {
	// Status is active or inactive. It ends no ban: a ban is made through
	// BanUser and lifted through UnbanUser (the actions' ban and unban),
	// before the status changes.
	Status *string
	// Roles replace the user's roles ("user" is always kept).
	Roles      []string
	IsVerified *bool
	// Notes are the admin-only notes; empty clears them.
	Notes *string
}

// UpdateUserAsAdmin applies ch to user id on behalf of admin adminID. Call
// it inside a change.
func (s Users) UpdateUserAsAdmin(ctx context.Context, id, adminID int64, ch UserAdminChange) error {
	n, err := s.updateUsers(ctx, []int64{id}, adminID, ch)
	if err == nil && n == 0 {
		err = fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return err
}

// BulkUpdateUsers applies ch to every user of ids at once, on behalf of
// admin adminID: a few statements whatever the number of users. Call it
// inside a change; it updates the users that exist and says how many.
func (s Users) BulkUpdateUsers(ctx context.Context, ids []int64, adminID int64, ch UserAdminChange) (int, error) {
	n, err := s.updateUsers(ctx, ids, adminID, ch)
	return int(n), err
}

func (s *Store) updateUsers(ctx context.Context, ids []int64, adminID int64, ch UserAdminChange) (int64, error) {
	db, now := s.db(ctx), s.now()
	q := db.NewUpdate().Model((*User)(nil)).Set("updated_at = ?", now).Where("id IN (?)", bun.In(ids))
	if ch.Status != nil {
		q = q.Set("status = ?", *ch.Status).Set("is_active = ?", *ch.Status != UserInactive)
		if *ch.Status == UserInactive {
			if err := s.endAccess(ctx, ids); err != nil {
				return 0, err
			}
			if err := endLocksOf(ctx, db, "?", bun.In(ids)); err != nil {
				return 0, err
			}
		}
	}
	if ch.IsVerified != nil {
		q = q.Set("is_verified = ?", *ch.IsVerified)
	}
	if ch.Notes != nil {
		q = q.Set("admin_notes = ?", nullString(*ch.Notes))
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("update users: %w", err)
	}
	n, err := res.RowsAffected()
	if err == nil && ch.Roles != nil {
		err = s.setRoles(ctx, ids, adminID, ch.Roles)
	}
	return n, err
}

// endAccess ends every session and revokes every API token of the users of
// ids, in the caller's change: a deactivated account keeps no way in.
func (s *Store) endAccess(ctx context.Context, ids []int64) error {
	if _, err := s.endSessions(ctx, "user_id IN (?)", bun.In(ids)); err != nil {
		return fmt.Errorf("end sessions of deactivated users: %w", err)
	}
	now := s.now()
	_, err := s.db(ctx).NewUpdate().Model((*APIToken)(nil)).Set("revoked_at = ?", now).
		Where("user_id IN (?) AND revoked_at IS NULL AND expires_at > ?", bun.In(ids), now).Exec(ctx)
	if err != nil {
		return fmt.Errorf("revoke tokens of deactivated users: %w", err)
	}
	return nil
}

// setRoles makes each user of ids hold exactly roles, and "user".
func (s *Store) setRoles(ctx context.Context, ids []int64, adminID int64, roles []string) error {
	db := s.db(ctx)
	if !slices.Contains(roles, RoleUser) {
		roles = append(slices.Clone(roles), RoleUser)
	}
	// Whoever loses a role is demoted: their locks end with it.
	err := endLocksOf(ctx, db, `SELECT ur.user_id FROM user_roles AS ur JOIN roles AS r ON r.id = ur.role_id
		WHERE ur.user_id IN (?) AND r.name NOT IN (?)`, bun.In(ids), bun.In(roles))
	if err != nil {
		return err
	}
	_, err = db.NewDelete().TableExpr("user_roles").Where("user_id IN (?)", bun.In(ids)).
		Where("role_id NOT IN (SELECT r.id FROM roles AS r WHERE r.name IN (?))", bun.In(roles)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set roles: %w", err)
	}
	_, err = db.NewRaw(`INSERT INTO user_roles (user_id, role_id, granted_at, granted_by)
		SELECT u.id, r.id, ?, ? FROM users AS u CROSS JOIN roles AS r WHERE u.id IN (?) AND r.name IN (?)
		AND NOT EXISTS (SELECT 1 FROM user_roles AS ur WHERE ur.user_id = u.id AND ur.role_id = r.id)`,
		s.now(), adminID, bun.In(ids), bun.In(roles)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set roles: %w", err)
	}
	return nil
}

// ListedUsersByID reads the users of ids that exist, as the versioned
// admin list shows them, in id order.
func (s Users) ListedUsersByID(ctx context.Context, ids []int64) ([]ListedUser, error) {
	db := s.db(ctx)
	var out []ListedUser
	err := selectUsers(db.NewSelect().Model(&out), s.now()).ColumnExpr("(?) AS top_role", topRole(db)).
		Where("u.id IN (?)", bun.In(ids)).OrderExpr("u.id").Scan(ctx)
	return out, err
}

// ListedUserByID reads one user as the versioned admin list shows it; an
// unknown id is ErrNotFound.
func (s Users) ListedUserByID(ctx context.Context, id int64) (*ListedUser, error) {
	db := s.db(ctx)
	out := new(ListedUser)
	err := selectUsers(db.NewSelect().Model(out), s.now()).ColumnExpr("(?) AS top_role", topRole(db)).
		Where("u.id = ?", id).Scan(ctx)
	return out, notFound(err, "user")
}

// HideUserPosts hides user id's published, flagged and pending posts, with a
// moderation record for each (action hide, the given reason), set-based so
// that a prolific author's ban stays two statements. It returns how many
// it hid. Call it inside a change.
func (s Users) HideUserPosts(ctx context.Context, id, adminID int64, reason string) (int, error) {
	db, now := s.db(ctx), s.now()
	shown := []string{PostPublished, PostFlagged, PostPending}
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
