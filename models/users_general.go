package models

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
)

// The general API's users (docs/api.md, "Users").

// ErrEmailTaken says a registration's email belongs to an account already.
var ErrEmailTaken = errors.New("email taken")

// Listed reports whether the user's profile is shown to everyone: public
// and not banned. ListProfiles applies the same rule in SQL.
func (u *User) Listed() bool {
	return u.ProfilePublic && u.Status != UserBanned
}

// ProfileFilter selects the users of a GET /api/users page.
type ProfileFilter struct {
	// ViewerID is the caller (0 for anonymous), whose own profile is listed
	// even when it is private.
	ViewerID int64
	// All lists every user, for holders of users:manage.
	All    bool
	Limit  int
	Offset int
}

// ListProfiles returns a page of users, newest first, and how many match:
// one query for the rows and one count.
func (s Users) ListProfiles(ctx context.Context, f ProfileFilter) ([]User, int, error) {
	var rows []User
	now := s.now()
	q := s.db(ctx).NewSelect().Model(&rows).ExcludeColumn("password_hash", "admin_notes")
	if !f.All {
		expr, args := statusNow(now)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("u.profile_public = ? AND "+expr+" <> ?", append(append([]any{true}, args...), UserBanned)...).WhereOr("u.id = ?", f.ViewerID)
		})
	}
	q = q.OrderExpr("u.created_at DESC, u.id DESC").Limit(int64(f.Limit)).Offset(int64(f.Offset))
	n, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("list profiles: %w", err)
	}
	return rows, int(n), nil
}

// NewRegistration is a sign-up: the password already hashed, and the
// address the client signed up from (kept with its range, for related
// accounts).
type NewRegistration struct {
	Name         string
	Email        string
	PasswordHash string
	IP           string
	// Invitation is the token of the invitation link the sign-up came
	// with, if any: the registration action checks it and spends one use
	// (RegisterUser does not read it).
	Invitation string
	// Answer is an applicant's answer to the community's question.
	Answer string
	// Pending opens the account inactive, as an application.
	Pending bool
}

// RegisterUser creates an active user with the role user. A taken email
// is ErrEmailTaken, also when a registration racing this one takes it
// first; a username taken meanwhile moves on to the next free suffix
// (insertUser), so racing sign-ups of one name all succeed.
func (s Users) RegisterUser(ctx context.Context, r NewRegistration) (*User, error) {
	db, email, now := s.db(ctx), NormalizeEmail(r.Email), s.now()
	u := &User{Email: email, Name: &r.Name, PasswordHash: &r.PasswordHash, SignupIP: r.IP,
		Status: UserActive, IsActive: true, ProfilePublic: true, CreatedAt: now, UpdatedAt: now}
	if r.Pending {
		u.Status, u.IsActive = UserInactive, false
	}
	inserted, err := insertUser(ctx, db, u, registrationUsername(r.Name))
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	if !inserted {
		return nil, ErrEmailTaken
	}
	if err := grantRoles(ctx, db, u.ID, []string{RoleUser}, now); err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	return u, nil
}

// registrationUsername derives a username from the display name, never
// from the email: usernames are public and emails are not. A name with
// nothing usable in it gets a random one.
func registrationUsername(name string) string {
	base := UsernameFromEmail(strings.ReplaceAll(name, "@", ""))
	if base == "user" {
		return "user-" + strings.ToLower(rand.Text()[:6])
	}
	return base[:min(len(base), maxUsernameBase)]
}

// ProfileChange is a partial update of a profile; nil fields stay. An
// empty Image removes the picture.
type ProfileChange struct {
	Name          *string
	Bio           *string
	Location      *string
	Image         *string
	ProfilePublic *bool
}

// UpdateProfile applies ch to user id and returns the user as it is now.
func (s Users) UpdateProfile(ctx context.Context, id int64, ch ProfileChange) (*User, error) {
	q := s.db(ctx).NewUpdate().Model((*User)(nil)).Set("updated_at = ?", s.now()).Where("id = ?", id)
	if ch.Name != nil {
		q = q.Set("name = ?", *ch.Name)
	}
	if ch.Bio != nil {
		q = q.Set("bio = ?", *ch.Bio)
	}
	if ch.Location != nil {
		q = q.Set("location = ?", *ch.Location)
	}
	if ch.Image != nil {
		q = q.Set("image = ?", nullString(*ch.Image))
	}
	if ch.ProfilePublic != nil {
		q = q.Set("profile_public = ?", *ch.ProfilePublic)
	}
	if _, err := q.Exec(ctx); err != nil {
		return nil, fmt.Errorf("update profile: %w", err)
	}
	return s.UserByID(ctx, id)
}

// OtherActiveSuperAdmins counts the active super admins other than id. On
// PostgreSQL it first takes a transaction lock, so that two deletions
// running at once cannot each count the other and leave none; SQLite's
// write transactions are exclusive already. Call it inside a change.
func (s Users) OtherActiveSuperAdmins(ctx context.Context, id int64) (int, error) {
	db := s.db(ctx)
	if Dialect(db) == config.DialectPostgres {
		if _, err := db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", superAdminsLockKey); err != nil {
			return 0, fmt.Errorf("lock super admins: %w", err)
		}
	}
	n, err := db.NewSelect().Model((*User)(nil)).
		Join("JOIN user_roles AS ur ON ur.user_id = u.id").
		Join("JOIN roles AS r ON r.id = ur.role_id").
		Where("r.name = ? AND u.status = ? AND u.id <> ?", RoleSuperAdmin, UserActive, id).
		Count(ctx)
	return int(n), err
}

var superAdminsLockKey = advisoryKey("plaza:super_admins")

// DeleteUserAccount deletes a user with everything that is only theirs
// (posts, reports, API tokens, locks: the foreign keys cascade) and ends
// every session of theirs, on every device, in the same change. The posts
// the user reported count one report fewer each, as their reports go too
// (Post.ReportCount). What is kept names an id no account will have again
// (user_refs.go). Call it inside a change.
func (s Users) DeleteUserAccount(ctx context.Context, id int64) error {
	db := s.db(ctx)
	if _, err := s.Auth.EndUserSessions(ctx, id, ""); err != nil {
		return fmt.Errorf("delete user %d: %w", id, err)
	}
	_, err := db.NewUpdate().Model((*Post)(nil)).
		Set("report_count = report_count - (SELECT count(*) FROM post_reports AS pr WHERE pr.post_id = p.id AND pr.reporter_id = ?)", id).
		Where("p.id IN (SELECT post_id FROM post_reports WHERE reporter_id = ?)", id).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete user %d: recount reports: %w", id, err)
	}
	res, err := db.NewDelete().Model((*User)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete user %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return nil
}
