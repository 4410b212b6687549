package models

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/emailcanon"
)

// NewUser is what CreateUser needs. PasswordHash is already hashed (the
// auth engine hashes; models never see a password).
type NewUser struct {
	Username     string
	Email        string
	Name         string
	PasswordHash string
	Roles        []string // role names; "user" is always granted
	IsVerified   bool
}

// CreateUser inserts a user with its roles in one transaction. A taken email
// or a taken username given in nu is ErrConflict; a username derived from
// the email takes the next free suffix.
func (s Users) CreateUser(ctx context.Context, nu NewUser) (*User, error) {
	now := s.now()
	u := &User{
		Username:      strings.TrimSpace(nu.Username),
		Email:         NormalizeEmail(nu.Email),
		Status:        UserActive,
		IsActive:      true,
		ProfilePublic: true,
		IsVerified:    nu.IsVerified,
		CreatedAt:     now,
		UpdatedAt:     now,
	}
	if nu.Name != "" {
		u.Name = &nu.Name
	}
	if nu.PasswordHash != "" {
		u.PasswordHash = &nu.PasswordHash
	}
	if nu.IsVerified {
		u.EmailVerified = &now
	}
	err := s.db(ctx).RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if u.Username == "" { // derived: the next free suffix, whoever races it
			inserted, err := insertUser(ctx, tx, u, UsernameFromEmail(u.Email))
			if err == nil && !inserted {
				err = fmt.Errorf("user %s: %w", u.Email, ErrConflict)
			}
			if err != nil {
				return err
			}
		} else if _, err := tx.NewInsert().Model(u.derive()).Returning("id").Exec(ctx); err != nil {
			if IsUniqueViolation(err) {
				return fmt.Errorf("user %s: %w", u.Email, ErrConflict)
			}
			return err
		}
		return grantRoles(ctx, tx, u.ID, append([]string{RoleUser}, nu.Roles...), now)
	})
	if err != nil {
		return nil, fmt.Errorf("create user: %w", err)
	}
	return u, nil
}

func grantRoles(ctx context.Context, db bun.IDB, userID int64, names []string, at time.Time) error {
	var roles []Role
	if err := db.NewSelect().Model(&roles).Where("name IN (?)", bun.List(names)).Scan(ctx); err != nil {
		return err
	}
	if len(roles) != len(uniq(names)) {
		return fmt.Errorf("unknown role in %v: %w", names, ErrNotFound)
	}
	rows := make([]UserRole, len(roles))
	for i, r := range roles {
		rows[i] = UserRole{UserID: userID, RoleID: r.ID, GrantedAt: at}
	}
	_, err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

// CountUsers counts every user.
func (s Users) CountUsers(ctx context.Context) (int, error) {
	n, err := s.db(ctx).NewSelect().Model((*User)(nil)).Count(ctx)
	return int(n), err
}

// UserByEmail finds a user by email, ignoring case.
func (s Users) UserByEmail(ctx context.Context, email string) (*User, error) {
	u := new(User)
	err := selectUsers(s.db(ctx).NewSelect().Model(u), s.now()).Where("lower(u.email) = ?", NormalizeEmail(email)).Scan(ctx)
	return u, notFound(err, "user "+email)
}

// UserRoles lists the names of a user's roles, highest first.
func (s Users) UserRoles(ctx context.Context, userID int64) ([]string, error) {
	var names []string
	err := s.db(ctx).NewSelect().Model((*Role)(nil)).Column("r.name").
		Join("JOIN user_roles AS ur ON ur.role_id = r.id").
		Where("ur.user_id = ?", userID).OrderExpr("r.rank DESC").Scan(ctx, &names)
	return names, err
}

// NormalizeEmail lowercases and trims an email so that lookups and the
// unique index agree.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// derive sets the columns kept from others before u is written: the
// email normalised and the mailbox it reaches, the sign-up address in one
// spelling and its range. Every insert of a user goes through it (or
// writes the same functions' values, as the seeds do), and every change
// of an email through setEmail, so that the copies never disagree with
// their sources.
func (u *User) derive() *User {
	u.Email = NormalizeEmail(u.Email)
	u.EmailCanonical = emailcanon.Canonical(u.Email)
	u.SignupIP = clientnet.Address(u.SignupIP)
	u.SignupNet = clientnet.Range(u.SignupIP)
	return u
}

// setEmail sets email, and the mailbox it reaches, in an update of users.
func setEmail(q *bun.UpdateQuery, email string) *bun.UpdateQuery {
	email = NormalizeEmail(email)
	return q.Set("email = ?", email).Set("email_canonical = ?", emailcanon.Canonical(email))
}

// ChangeEmail gives user id the address email, with the mailbox it reaches
// (email_canonical), and nothing else: whether the new address counts as
// verified is the caller's to set. An email another account holds is
// ErrEmailTaken; an unknown id ErrNotFound.
func (s Users) ChangeEmail(ctx context.Context, id int64, email string) error {
	q := setEmail(s.db(ctx).NewUpdate().Model((*User)(nil)), email).Set("updated_at = ?", s.now()).Where("id = ?", id)
	res, err := q.Exec(ctx)
	if IsUniqueViolation(err) {
		return ErrEmailTaken
	}
	return oneRow(res, err, "user")
}

// UsernameFromEmail derives a username from an email's local part.
func UsernameFromEmail(email string) string {
	local, _, _ := strings.Cut(email, "@")
	var b strings.Builder
	for _, r := range strings.ToLower(local) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "user"
	}
	return b.String()
}

func uniq(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// RecordLogin notes a successful sign-in: the user's last_login_at and
// login_count, and a row in logins for activity reports and related
// accounts (the address in one spelling, and its range), in one
// transaction.
func (s Users) RecordLogin(ctx context.Context, userID int64, method, ip, userAgent string) error {
	now := s.now()
	if a := clientnet.Address(ip); a != "" {
		ip = a
	}
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := tx.NewUpdate().Model((*User)(nil)).
			Set("last_login_at = ?", now).Set("login_count = login_count + 1").
			Where("id = ?", userID).Exec(ctx)
		if err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&Login{UserID: userID, Method: method, IPAddress: ip, IPNet: clientnet.Range(ip), UserAgent: userAgent, CreatedAt: now}).Exec(ctx)
		return err
	})
}
