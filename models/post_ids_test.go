package models_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestPostIDsNeverReused: a post's moderation history and settled reports
// outlive it (they name its id without a foreign key), so the next post
// must never be given a deleted post's id, or it would inherit that
// history. Deleting the newest post, or every post, never lets the next
// one have an id that was had before.
func TestPostIDsNeverReused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		author, err := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com", Username: "author"})
		if err != nil {
			t.Fatal(err)
		}
		create := func(title string) int64 {
			t.Helper()
			var id int64
			err := s.Change(ctx, func(ctx context.Context) error {
				p, err := s.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: title, Content: "x", Published: true})
				if p != nil {
					id = p.ID
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		remove := func(id int64) {
			t.Helper()
			if err := s.Change(ctx, func(ctx context.Context) error { return s.Posts.RemovePost(ctx, id) }); err != nil {
				t.Fatal(err)
			}
		}
		first, second := create("first"), create("second")
		remove(second)
		third := create("third")
		if third <= second {
			t.Errorf("after the newest post (%d) went, the next one got id %d", second, third)
		}
		remove(third)
		remove(first)
		if fourth := create("fourth"); fourth <= third {
			t.Errorf("after every post went, the next one got id %d, not above %d", fourth, third)
		}
	})
}

// laterPostsSchema are the indexes and triggers of posts that migrations
// after the step define again (20261210200000_held_posts: the queue and
// the status counters take pending posts): not the step's to keep.
var laterPostsSchema = []string{"posts_review_idx", "posts_review_insert", "posts_review_delete", "posts_review_update",
	"posts_statuses_insert", "posts_statuses_delete", "posts_statuses_update"}

// postIDsMigration is the step that made SQLite's post ids never come back.
const postIDsMigration = "20261207090000"

// TestPostIDsMigrationKeepsPosts: the step keeps every post and every
// index and trigger of the table, and the next post's id passes every id
// the moderation history still names, on a connection opened before the
// step too.
func TestPostIDsMigrationKeepsPosts(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db, _ := dbtest.OpenEmpty(t, dialect)
			migrateBefore(t, db, postIDsMigration)
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.NewRaw(q, args...).Exec(ctx); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			day := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
			exec(`INSERT INTO users (username, email, status, is_active, created_at, updated_at) VALUES ('ann', 'ann@example.com', 'active', TRUE, ?, ?)`, day, day)
			for _, title := range []string{"One", "Two", "Three"} {
				exec(`INSERT INTO posts (author_id, title, content, status, created_at, updated_at) VALUES (1, ?, 'Text', 'published', ?, ?)`, title, day, day)
			}
			// Post 9, deleted long ago, left its moderation history.
			exec(`INSERT INTO moderation_actions (post_id, action, from_status, to_status, created_at) VALUES (9, 'delete', 'published', 'deleted', ?)`, day)
			exec(`DELETE FROM posts WHERE id = 3`)
			schema := func() []string {
				if models.Dialect(db) != config.DialectSQLite {
					return nil
				}
				var out []string
				if err := db.NewRaw(`SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE tbl_name = 'posts' AND type IN ('index', 'trigger') AND sql IS NOT NULL
					AND name NOT IN (?) ORDER BY name`, bun.In(laterPostsSchema)).Scan(ctx, &out); err != nil {
					t.Fatal(err)
				}
				return out
			}
			titles := func() []string {
				var out []string
				if err := db.NewRaw(`SELECT title FROM posts ORDER BY id`).Scan(ctx, &out); err != nil {
					t.Fatal(err)
				}
				return out
			}
			before, kept := schema(), titles()
			early, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer early.Close()
			if _, err := early.ExecContext(ctx, `SELECT count(*) FROM posts`); err != nil {
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
			if after := schema(); !slices.Equal(after, before) {
				t.Errorf("posts' indexes and triggers\n after %v\nbefore %v", after, before)
			}
			if after := titles(); !slices.Equal(after, kept) {
				t.Errorf("posts after the step %v, before %v", after, kept)
			}
			var next int64
			err = early.QueryRowContext(ctx, `INSERT INTO posts (author_id, title, content, status, created_at, updated_at)
				VALUES (1, 'Four', 'Text', 'published', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP) RETURNING id`).Scan(&next)
			if err != nil || next <= 9 {
				t.Errorf("the next post got id %d (%v), which the moderation history of a deleted post still names", next, err)
			}
		})
	}
}
