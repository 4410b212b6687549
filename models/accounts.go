package models

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// OAuthIdentity is who an external provider says signed in.
type OAuthIdentity struct {
	Provider       string // provider id: github, google, gitlab, discord
	ProviderUserID string
	Email          string
	// EmailVerified says the provider vouches for Email; only then may the
	// identity reach an existing account by email, or open a new one.
	EmailVerified bool
	Name          string
	// Username is the provider's handle (a GitHub login), preferred over Name
	// and Email when a new user needs a username.
	Username  string
	AvatarURL string
	// NoNewAccount refuses to open a new account for the identity
	// (ErrNewAccountRefused): the registration rules or a block do not let
	// a provider open one. Existing accounts still sign in.
	NoNewAccount bool
	// IP is the client's address, kept as a new account's sign-up
	// address.
	IP string
}

// ErrNewAccountRefused is LinkOAuthUser refusing to open an account for an
// identity marked NoNewAccount.
var ErrNewAccountRefused = errors.New("no new account for this email")

// ErrEmailNotVerified is matched by *UnverifiedEmailError.
var ErrEmailNotVerified = errors.New("email not verified")

// UnverifiedEmailError refuses an external sign-in that would reach or open
// an account by an email the provider does not vouch for: an unverified
// address must not take over a member's account, nor claim an address ahead
// of its owner (account pre-hijacking). Taken says an account with the email
// exists.
type UnverifiedEmailError struct {
	Provider string
	Email    string
	Taken    bool
}

func (e *UnverifiedEmailError) Error() string {
	return fmt.Sprintf("%s email %q is not verified (account exists: %t)", e.Provider, e.Email, e.Taken)
}

func (e *UnverifiedEmailError) Unwrap() error { return ErrEmailNotVerified }

// ErrUserNotActive is matched by *InactiveUserError.
var ErrUserNotActive = errors.New("user not active")

// InactiveUserError refuses signing in a banned or deactivated user.
type InactiveUserError struct {
	UserID int64
	Status string
}

func (e *InactiveUserError) Error() string {
	return fmt.Sprintf("user %d is %s", e.UserID, e.Status)
}

func (e *InactiveUserError) Unwrap() error { return ErrUserNotActive }

// ErrAccountInUse is matched by *AccountInUseError.
var ErrAccountInUse = errors.New("an account with this email is in use")

// AccountInUseError refuses an external sign-in whose verified email is an
// existing account's that someone already uses: it has a password, a
// second factor or any sign-in history. A provider vouching for a mailbox
// is no way past the account's own password and code, and whoever holds
// the account must not lose it to someone else's first OAuth sign-in: its
// owner signs in as usual and links the provider from the account page.
type AccountInUseError struct {
	Provider string
	UserID   int64
}

func (e *AccountInUseError) Error() string {
	return fmt.Sprintf("%s sign-in reached user %d, which is in use", e.Provider, e.UserID)
}

func (e *AccountInUseError) Unwrap() error { return ErrAccountInUse }

// LinkOAuthUser finds or makes the Plaza user behind an external identity,
// in one transaction:
//  1. an account already linked to (provider, provider user id) is that
//     user; the link's email, verification and last use are refreshed;
//  2. else a user with the same email is linked, if the provider verified
//     the email and nobody uses the account yet (no password, no second
//     factor, no sign-in history: an invitation never taken up); the
//     account's email then counts as verified. An account in use is
//     *AccountInUseError, and nothing of it changes;
//  3. else a new user (role user) is created with the link, if the email is
//     verified; its username comes from the provider's handle, name or email,
//     made unique with a numeric suffix.
//
// An unverified email in steps 2 and 3 is *UnverifiedEmailError; a banned or
// deactivated user is *InactiveUserError. Refusals write nothing. The link's
// last_used_at is set to now.
//
// Two sign-ins of one new identity at once (a double-clicked consent)
// both miss the link; the one that commits second finds its link or its
// user's email taken (ErrConflict) and tries again, which finds them.
func (s Users) LinkOAuthUser(ctx context.Context, id OAuthIdentity) (u *User, err error) {
	for range 3 {
		if u, err = s.linkOAuthUser(ctx, id); !errors.Is(err, ErrConflict) {
			break
		}
	}
	return u, err
}

func (s *Store) linkOAuthUser(ctx context.Context, id OAuthIdentity) (*User, error) {
	now := s.now()
	email := NormalizeEmail(id.Email)
	var user *User
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		pa := new(ProviderAccount)
		err := tx.NewSelect().Model(pa).
			Where("pa.provider = ? AND pa.provider_user_id = ?", id.Provider, id.ProviderUserID).Scan(ctx)
		switch {
		case err == nil:
			if user, err = userForSignIn(ctx, tx, pa.UserID, now); err != nil {
				return err
			}
			return touchLink(ctx, tx, pa.ID, email, id.EmailVerified, now)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}

		u := new(User)
		err = selectUsers(tx.NewSelect().Model(u), now).Where("lower(u.email) = ?", email).Scan(ctx)
		switch {
		case email == "" || !id.EmailVerified:
			taken := err == nil
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			return &UnverifiedEmailError{Provider: id.Provider, Email: email, Taken: taken}
		case err == nil:
			if err := claimUnused(ctx, tx, u, id, now); err != nil {
				return err
			}
		case errors.Is(err, sql.ErrNoRows) && id.NoNewAccount:
			return ErrNewAccountRefused
		case errors.Is(err, sql.ErrNoRows):
			if u, err = createOAuthUser(ctx, tx, id, email, now); err != nil {
				return err
			}
		default:
			return err
		}
		if err := insertLink(ctx, tx, u.ID, id, email, now); err != nil {
			return err
		}
		user = u
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("link %s user: %w", id.Provider, err)
	}
	return user, nil
}

// claimUnused lets a provider's verified email reach u only when nobody
// uses u yet (inUse), and marks its email verified. A concurrent sign-in of
// the same identity that committed since this one looked for its link is
// ErrConflict, so the retry finds that link instead of refusing.
func claimUnused(ctx context.Context, tx bun.Tx, u *User, id OAuthIdentity, now time.Time) error {
	if u.Status != UserActive {
		return &InactiveUserError{UserID: u.ID, Status: u.Status}
	}
	used, err := inUse(ctx, tx, u)
	if err != nil {
		return err
	}
	if used {
		linked, err := tx.NewSelect().Model((*ProviderAccount)(nil)).
			Where("provider = ? AND provider_user_id = ?", id.Provider, id.ProviderUserID).Exists(ctx)
		if err != nil {
			return err
		}
		if linked {
			return fmt.Errorf("%s account %s linked meanwhile: %w", id.Provider, id.ProviderUserID, ErrConflict)
		}
		return &AccountInUseError{Provider: id.Provider, UserID: u.ID}
	}
	if u.EmailVerified != nil {
		return nil
	}
	u.EmailVerified, u.UpdatedAt = &now, now
	_, err = tx.NewUpdate().Model(u).Column("email_verified", "updated_at").WherePK().Exec(ctx)
	return err
}

// inUse reports whether someone uses u: it has a password, a second factor
// (enabled or being set up), a linked provider, or any sign-in history (a
// recorded sign-in or a session).
func inUse(ctx context.Context, db bun.IDB, u *User) (bool, error) {
	if u.PasswordHash != nil || u.LastLoginAt != nil || u.LoginCount > 0 {
		return true, nil
	}
	for _, q := range []*bun.SelectQuery{
		db.NewSelect().Model((*TwoFactor)(nil)).Where("user_id = ?", u.ID),
		db.NewSelect().Model((*RecoveryCode)(nil)).Where("user_id = ?", u.ID),
		db.NewSelect().Model((*ProviderAccount)(nil)).Where("user_id = ?", u.ID),
		db.NewSelect().Model((*Login)(nil)).Where("user_id = ?", u.ID),
		db.NewSelect().Model((*Session)(nil)).Where("user_id = ?", u.ID),
	} {
		if found, err := q.Exists(ctx); err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// touchLink refreshes a used link's email, verification and last use.
func touchLink(ctx context.Context, db bun.IDB, linkID int64, email string, verified bool, now time.Time) error {
	_, err := db.NewUpdate().Model((*ProviderAccount)(nil)).
		Set("email = ?", nullString(email)).Set("email_verified = ?", verified).Set("last_used_at = ?", now).
		Where("id = ?", linkID).Exec(ctx)
	return err
}

// insertLink links the identity to user userID; a link that landed
// meanwhile is ErrConflict.
func insertLink(ctx context.Context, db bun.IDB, userID int64, id OAuthIdentity, email string, now time.Time) error {
	link := &ProviderAccount{UserID: userID, Provider: id.Provider, ProviderUserID: id.ProviderUserID,
		Email: nullString(email), EmailVerified: id.EmailVerified, CreatedAt: now, LastUsedAt: &now}
	if _, err := db.NewInsert().Model(link).Returning("id").Exec(ctx); err != nil {
		if IsUniqueViolation(err) {
			return fmt.Errorf("%s account %s: %w", id.Provider, id.ProviderUserID, ErrConflict)
		}
		return err
	}
	return nil
}

// userForSignIn loads a user that may sign in.
func userForSignIn(ctx context.Context, db bun.IDB, id int64, now time.Time) (*User, error) {
	u := new(User)
	if err := selectUsers(db.NewSelect().Model(u), now).Where("u.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "user")
	}
	if u.Status != UserActive {
		return nil, &InactiveUserError{UserID: u.ID, Status: u.Status}
	}
	return u, nil
}

// createOAuthUser inserts a user (role user) for a verified external identity.
func createOAuthUser(ctx context.Context, db bun.IDB, id OAuthIdentity, email string, now time.Time) (*User, error) {
	u := &User{Email: email, Status: UserActive, IsActive: true, ProfilePublic: true,
		EmailVerified: &now, CreatedAt: now, UpdatedAt: now, SignupIP: id.IP}
	if name := strings.TrimSpace(id.Name); name != "" {
		u.Name = &name
	}
	if img := strings.TrimSpace(id.AvatarURL); img != "" {
		u.Image = &img
	}
	inserted, err := insertUser(ctx, db, u, usernameBase(id, email))
	if err != nil {
		return nil, err
	}
	if !inserted { // an account with the email landed meanwhile: the next try links it
		return nil, fmt.Errorf("user %s: %w", email, ErrConflict)
	}
	if err := grantRoles(ctx, db, u.ID, []string{RoleUser}, now); err != nil {
		return nil, err
	}
	return u, nil
}

// maxUsernameBase leaves room for a suffix in a readable username.
const maxUsernameBase = 30

// usernameBase picks the provider's handle, else the name, else the email's
// local part, reduced to the characters usernames allow.
func usernameBase(id OAuthIdentity, email string) string {
	base := "user"
	for _, cand := range []string{id.Username, id.Name, email} {
		if b := UsernameFromEmail(cand); b != "user" {
			base = b
			break
		}
	}
	if len(base) > maxUsernameBase {
		base = base[:maxUsernameBase]
	}
	return base
}

// maxInsertTries bounds insertUser's tries. Each failed try found its
// username or email taken by a writer that committed meanwhile, so the
// next try sees it; past nextFreeTries the suffix is random, so running
// out takes an email taken again and again, or a random suffix met twice.
const maxInsertTries = 20

// nextFreeTries is how many of insertUser's tries take the next free
// suffix; later ones take a random one.
const nextFreeTries = 3

// insertUser inserts u under the first username derived from base
// (freeUsername) that is still free when the row lands. Another writer
// may take that username between the look and the insert: the insert then
// fails on the unique index (on PostgreSQL after waiting for that writer to
// commit) and the next try looks again. Each try runs in a savepoint of
// db, which must be a transaction, so that a failed try leaves the
// transaction usable and holds no lock: not ON CONFLICT DO NOTHING, whose
// skipped insert still runs the statement triggers that lock the
// counters (row_counts, daily_counts), and two sign-ups each holding them
// while waiting for the other's username deadlock. It reports false,
// inserting nothing, when u's email is taken; ErrConflict only after
// maxInsertTries.
func insertUser(ctx context.Context, db bun.IDB, u *User, base string) (bool, error) {
	for try := range maxInsertTries {
		name, err := freeUsername(ctx, db, base)
		if err != nil {
			return false, err
		}
		if try >= nextFreeTries {
			// Many writers of one name at once all take the next free
			// suffix and all but one lose again; a random suffix does not.
			name = randomUsername(base)
		}
		u.Username = name
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := tx.NewInsert().Model(u.derive()).Returning("id").Exec(ctx)
			return err
		})
		if !IsUniqueViolation(err) {
			return err == nil, err
		}
		taken, err := db.NewSelect().Model((*User)(nil)).Where("lower(u.email) = ?", u.Email).Exists(ctx)
		if err != nil || taken {
			return false, err
		}
	}
	return false, fmt.Errorf("user %s: no free username from %s: %w", u.Email, base, ErrConflict)
}

// freeUsername returns base, or base with the smallest numeric suffix that
// no user holds (ignoring case), falling back to a random suffix.
func freeUsername(ctx context.Context, db bun.IDB, base string) (string, error) {
	for i := 1; i <= 50; i++ {
		cand := base
		if i > 1 {
			cand = base + strconv.Itoa(i)
		}
		taken, err := db.NewSelect().Model((*User)(nil)).Where("lower(u.username) = ?", cand).Exists(ctx)
		if err != nil {
			return "", err
		}
		if !taken {
			return cand, nil
		}
	}
	return randomUsername(base), nil
}

// randomUsername is base with a random suffix.
func randomUsername(base string) string {
	return base + "-" + strings.ToLower(rand.Text()[:8])
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
