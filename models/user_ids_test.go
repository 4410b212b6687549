package models_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// idsMigration is the step that made SQLite's user ids never come back.
const idsMigration = "20261207010000"

// TestUserIDsNeverReused: deleting the newest account, or every account,
// never lets the next account have an id that was had before, whatever
// names that id still (a session, an audit entry, a strike).
func TestUserIDsNeverReused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		create := func(name string) int64 {
			t.Helper()
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: name + "@example.com", Username: name})
			if err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		remove := func(id int64) {
			t.Helper()
			if err := s.Change(ctx, func(ctx context.Context) error { return s.Users.DeleteUserAccount(ctx, id) }); err != nil {
				t.Fatal(err)
			}
		}
		ann, ben := create("ann"), create("ben")
		remove(ben)
		cat := create("cat")
		if cat <= ben {
			t.Errorf("after the newest account (%d) went, the next one got id %d", ben, cat)
		}
		remove(cat)
		remove(ann)
		if dan := create("dan"); dan <= cat {
			t.Errorf("after every account went, the next one got id %d, not above %d", dan, cat)
		}
	})
}

// TestUserIDsMigrationKeepsUsers: the step that rebuilds SQLite's users
// table keeps every user, with everything that names them and every
// trigger and index of the table; the next id passes every id that rows
// of deleted users still name, and those users' sessions go. PostgreSQL's
// step moves the identity past those ids the same way.
func TestUserIDsMigrationKeepsUsers(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db, _ := dbtest.OpenEmpty(t, dialect)
			migrateBefore(t, db, idsMigration)
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.NewRaw(q, args...).Exec(ctx); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			day := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
			for i, name := range []string{"ann", "ben", "cat"} {
				exec(`INSERT INTO users (id, username, email, name, status, is_active, created_at, updated_at, last_login_at) VALUES (?, ?, ?, ?, 'active', TRUE, ?, ?, ?)`,
					i+1, name, name+"@example.com", "Name of "+name, day, day, day)
			}
			exec(`INSERT INTO user_roles (user_id, role_id, granted_at) SELECT 1, id, ? FROM roles WHERE name = 'admin'`, day)
			exec(`INSERT INTO posts (author_id, title, content, status, created_at, updated_at) VALUES (2, 'Hello', 'Text', 'published', ?, ?)`, day, day)
			exec(`UPDATE users SET username = 'annie' WHERE id = 1`)
			exec(`DELETE FROM users WHERE id = 3`)
			// Rows a deleted user left: a live session, and an audit entry
			// of user 7, deleted long ago (above every id in use).
			exec(`INSERT INTO sessions (token, data, expiry, user_id) VALUES ('k3', ?, ?, 3)`, []byte{1}, day.Add(365*24*time.Hour))
			exec(`INSERT INTO sessions (token, data, expiry, user_id) VALUES ('k2', ?, ?, 2)`, []byte{1}, day.Add(365*24*time.Hour))
			exec(`INSERT INTO audit_log (created_at, admin_id, admin_username, action, target_type, target_id, status, details, prev_hash, hash)
				VALUES (?, 7, 'gone', 'user.update', 'user', '2', 200, '{}', '', 'h')`, day)
			before := usersSchema(t, db)
			rows := usersRows(t, db)
			// A connection that read the schema before the step must pick
			// ids by the new definition after it, as every pooled one of a
			// running instance would.
			early, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer early.Close()
			if _, err := early.ExecContext(ctx, `SELECT count(*) FROM users`); err != nil {
				t.Fatal(err)
			}

			if _, err := models.Migrate(ctx, db, discard()); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			if models.Dialect(db) == config.DialectSQLite {
				var check string
				if err := db.NewRaw(`PRAGMA integrity_check`).Scan(ctx, &check); err != nil || check != "ok" {
					t.Errorf("integrity check after the step: %q, %v", check, err)
				}
			}
			if after := usersSchema(t, db); !slices.Equal(after, before) {
				t.Errorf("users' indexes and triggers\n after %v\nbefore %v", after, before)
			}
			if after := usersRows(t, db); !slices.Equal(after, rows) {
				t.Errorf("users\n after %v\nbefore %v", after, rows)
			}
			var posts, roles int
			if err := db.NewRaw(`SELECT (SELECT count(*) FROM posts WHERE author_id = 2), (SELECT count(*) FROM user_roles WHERE user_id = 1)`).Scan(ctx, &posts, &roles); err != nil || posts != 1 || roles != 1 {
				t.Errorf("posts %d, roles %d (%v): want the ones of kept users kept", posts, roles, err)
			}
			var sessions []string
			if err := db.NewRaw(`SELECT token FROM sessions ORDER BY token`).Scan(ctx, &sessions); err != nil || !slices.Equal(sessions, []string{"k2"}) {
				t.Errorf("sessions %v (%v), want only the one of a user who is still there", sessions, err)
			}
			var eve int64
			err = early.QueryRowContext(ctx, `INSERT INTO users (username, email, status, is_active, created_at, updated_at)
				VALUES ('eve', 'eve@example.com', 'active', TRUE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP) RETURNING id`).Scan(&eve)
			if err != nil || eve <= 7 {
				t.Errorf("a connection opened before the step gave the next account id %d (%v), which a deleted user's rows still name", eve, err)
			}
			s := models.NewStore(db)
			found, err := s.Search.SearchUsers(ctx, models.SearchQuery{Text: "annie", Limit: 10, AllUsers: true})
			if err != nil || len(found.Hits) != 1 || found.Hits[0].ID != 1 {
				t.Errorf("search for the renamed user: %+v, %v", found, err)
			}
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "dan@example.com", Username: "dan"})
			if err != nil {
				t.Fatal(err)
			}
			if u.ID <= eve {
				t.Errorf("the next account got id %d, not above %d", u.ID, eve)
			}
			var counted int
			if err := db.NewRaw(`SELECT row_count FROM row_counts WHERE table_name = 'users'`).Scan(ctx, &counted); err != nil || counted != 4 {
				t.Errorf("the users' count is %d (%v), want 4: the rebuild counts nobody twice", counted, err)
			}
		})
	}
}

// laterUsersIndexes are the indexes of users that migrations after the
// step add (20261209120000_related_accounts): not the step's to keep.
var laterUsersIndexes = []string{"users_signup_ip_idx", "users_signup_net_idx", "users_email_canonical_idx"}

// usersSchema is the names and definitions of users' indexes and
// triggers (SQLite; PostgreSQL's step leaves the table alone), but
// laterUsersIndexes.
func usersSchema(t *testing.T, db *bun.DB) []string {
	t.Helper()
	if models.Dialect(db) != config.DialectSQLite {
		return nil
	}
	var out []string
	err := db.NewRaw(`SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE tbl_name = 'users' AND type IN ('index', 'trigger') AND sql IS NOT NULL
		AND name NOT IN (?) ORDER BY name`, bun.In(laterUsersIndexes)).Scan(context.Background(), &out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// usersRows is every user row, every column, as text.
func usersRows(t *testing.T, db *bun.DB) []string {
	t.Helper()
	// Rows as maps, not models.User: the step runs on the schema of an
	// earlier migration, and the columns later ones add are left out.
	var users []map[string]any
	if err := db.NewSelect().Table("users").Order("id").Scan(context.Background(), &users); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(users))
	for i, u := range users {
		for _, later := range []string{"silenced_until", "silence_reason", "email_canonical", "signup_ip", "signup_net", "posts_submitted"} {
			delete(u, later)
		}
		b, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}
