package models_test

import (
	"context"
	"io/fs"
	"maps"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/models/migrations"
)

// inboxMigration is the step that turned per-person broadcast rows into
// read marks.
const inboxMigration = "20261126610000"

// migrateBefore applies the migrations older than step, as a database
// that last ran an earlier Plaza would have them.
func migrateBefore(t *testing.T, db *bun.DB, step string) {
	t.Helper()
	ctx := context.Background()
	files, err := migrations.For(models.Dialect(db))
	if err != nil {
		t.Fatal(err)
	}
	older := fstest.MapFS{}
	err = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p >= step {
			return err
		}
		b, err := fs.ReadFile(files, p)
		older[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	set := migrate.NewMigrations()
	if err := set.Discover(older); err != nil {
		t.Fatal(err)
	}
	m := migrate.NewMigrator(db, set, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestBroadcastInboxMigration: broadcasts delivered as a row per
// recipient keep their read state as read marks, and every inbox shows
// them as before, from the broadcasts; their rows go and other
// notifications stay. A scheduled broadcast keeps its time.
func TestBroadcastInboxMigration(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db, _ := dbtest.OpenEmpty(t, dialect)
			migrateBefore(t, db, inboxMigration)
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.NewRaw(q, args...).Exec(ctx); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			day := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
			for i, name := range []string{"ann", "ben", "cat"} {
				exec(`INSERT INTO users (id, username, email, status, is_active, created_at, updated_at) VALUES (?, ?, ?, 'active', TRUE, ?, ?)`,
					i+1, name, name+"@example.com", day, day)
			}
			sent, soon := day.Add(time.Hour), day.Add(30*24*time.Hour)
			exec(`INSERT INTO broadcasts (id, title, message, type, targets, status, sent_at, recipients, created_at, last_user_id, delivered_through, delivered, delivered_at)
				VALUES (1, 'Hello', 'To all', 'info', '["all"]', 'sent', ?, 3, ?, 3, 3, 3, ?)`, sent, sent, sent)
			exec(`INSERT INTO broadcasts (id, title, message, type, targets, status, sent_at, recipients, created_at, last_user_id, delivered_through, delivered)
				VALUES (2, 'Halfway', 'Two of three', 'warning', '["all","user:2"]', 'sent', ?, 3, ?, 3, 2, 2)`, sent, sent)
			exec(`INSERT INTO broadcasts (id, title, message, type, targets, status, scheduled_at, recipients, created_at)
				VALUES (3, 'Soon', 'Later', 'info', '["users"]', 'scheduled', ?, 0, ?)`, soon, sent)
			read := sent.Add(time.Minute)
			for _, row := range []struct {
				user, broadcast int
				read            *time.Time
			}{{1, 1, &read}, {2, 1, nil}, {3, 1, &read}, {1, 2, nil}, {2, 2, &read}} {
				exec(`INSERT INTO notifications (user_id, broadcast_id, title, message, type, created_at, read_at) VALUES (?, ?, '', '', 'info', ?, ?)`,
					row.user, row.broadcast, sent, row.read)
			}
			exec(`INSERT INTO notifications (user_id, title, message, type, created_at) VALUES (2, 'Own', 'Moderation news', 'warning', ?)`, day.Add(2*time.Hour))

			if _, err := models.Migrate(ctx, db, discard()); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			s := models.NewStore(db)
			s.Now = func() time.Time { return day.Add(24 * time.Hour) }
			var marks []models.BroadcastRead
			if err := db.NewSelect().Model(&marks).Order("broadcast_id", "user_id").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			want := [][2]int64{{1, 1}, {1, 3}, {2, 2}}
			if len(marks) != len(want) {
				t.Fatalf("read marks %+v, want %v", marks, want)
			}
			for i, m := range marks {
				if [2]int64{m.BroadcastID, m.UserID} != want[i] || !m.ReadAt.Equal(read) {
					t.Errorf("read mark %+v, want broadcast %d by user %d at %v", m, want[i][0], want[i][1], read)
				}
			}
			if n, err := db.NewSelect().Model((*models.Notification)(nil)).Count(ctx); err != nil || n != 1 {
				t.Errorf("%d notifications left (%v), want the one of its own", n, err)
			}
			for user, want := range map[int64]string{1: "Halfway unread, Hello read", 2: "Own unread, Hello unread, Halfway read", 3: "Halfway unread, Hello read"} {
				_, items, _, _ := inboxOf(t, s, user)
				var got []string
				for _, it := range items {
					state := " unread"
					if it.ReadAt != nil {
						state = " read"
					}
					got = append(got, it.Title+state)
				}
				if strings.Join(got, ", ") != want {
					t.Errorf("user %d's inbox: %s, want %s", user, strings.Join(got, ", "), want)
				}
			}
			rows, _, err := s.Notices.Broadcasts(ctx, 10, 0)
			if err != nil {
				t.Fatal(err)
			}
			reads := map[int64]int{}
			for _, r := range rows {
				reads[r.ID] = r.ReadCount
				if r.ID == 3 && (r.Status != models.BroadcastScheduled || !r.SentAt.Equal(soon)) {
					t.Errorf("the scheduled broadcast: %+v, want scheduled for %v", r.Broadcast, soon)
				}
			}
			if !maps.Equal(reads, map[int64]int{1: 2, 2: 1, 3: 0}) {
				t.Errorf("read counts %v", reads)
			}
		})
	}
}
