package seed_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/seed"
)

func TestDemo(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		admin, err := s.Users.CreateUser(ctx, models.NewUser{Email: "admin@localhost", PasswordHash: "hash", Roles: []string{models.RoleSuperAdmin}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := seed.Demo(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		inRange := func(what string, n, lo, hi int) {
			t.Helper()
			if n < lo || n > hi {
				t.Errorf("%s: %d, want %d..%d", what, n, lo, hi)
			}
		}
		inRange("result users", res.Users, 35, 45)
		inRange("result posts", res.Posts, 50, 70)
		inRange("users", countRows(t, db, "SELECT count(*) FROM users")-1, 35, 45)
		inRange("posts", countRows(t, db, "SELECT count(*) FROM posts"), 50, 70)
		if n := countRows(t, db, "SELECT count(*) FROM post_reports"); n != res.Reports {
			t.Errorf("%d reports, result says %d", n, res.Reports)
		}
		inRange("posts with open reports", countRows(t, db,
			"SELECT count(DISTINCT post_id) FROM post_reports WHERE status = 'open'"), 6, 10)
		inRange("report reasons", countRows(t, db, "SELECT count(DISTINCT reason) FROM post_reports"), 3, 10)
		for _, status := range []string{models.PostFlagged, models.PostHidden, models.PostDraft} {
			inRange(status+" posts", countRows(t, db, "SELECT count(*) FROM posts WHERE status = ?", status), 1, 10)
		}
		inRange("moderators", countRows(t, db, `SELECT count(*) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
			WHERE r.name = 'moderator'`), 1, 1)
		inRange("banned users", countRows(t, db, "SELECT count(*) FROM users WHERE status = 'banned'"), 1, 3)
		inRange("inactive users", countRows(t, db, "SELECT count(*) FROM users WHERE status = 'inactive'"), 1, 3)
		inRange("admins", countRows(t, db, `SELECT count(*) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
			WHERE r.name IN ('admin', 'super_admin')`), 1, 1)
		inRange("tags", countRows(t, db, "SELECT count(*) FROM post_tags"), 40, 200)
		inRange("notifications", countRows(t, db, "SELECT count(*) FROM notifications"), 3, 20)
		inRange("events", countRows(t, db, "SELECT count(*) FROM analytics_events"), 100, 1000)
		if n := countRows(t, db, "SELECT count(*) FROM users WHERE password_hash IS NOT NULL AND id <> ?", admin.ID); n != 0 {
			t.Errorf("%d demo users have a password", n)
		}
		checkInvariants(t, db)
		relatedShops(t, s)

		var flags []models.FeatureFlag
		if err := db.NewSelect().Model(&flags).Order("name").Scan(ctx); err != nil {
			t.Fatal(err)
		}
		want := map[string][2]int{"new_editor": {1, 50}, "dark_mode": {1, 100}, "beta_search": {0, 0}}
		for _, f := range flags {
			if w, ok := want[f.Name]; ok {
				if (w[0] == 1) != f.Enabled || w[1] != f.RolloutPercentage {
					t.Errorf("flag %s: enabled %v at %d%%", f.Name, f.Enabled, f.RolloutPercentage)
				}
				delete(want, f.Name)
			}
		}
		if len(want) > 0 {
			t.Errorf("missing flags %v", want)
		}

		// A second run finds the demo there and changes nothing.
		if _, err := seed.Demo(ctx, s); !errors.Is(err, models.ErrConflict) {
			t.Errorf("second demo: %v, want ErrConflict", err)
		}
		inRange("users after a second demo", countRows(t, db, "SELECT count(*) FROM users")-1, 35, 45)
	})
}

// TestDemoDeterministic: the demo looks the same on every first start.
func TestDemoDeterministic(t *testing.T) {
	ctx := context.Background()
	var got [2][]string
	for i := range got {
		db := dbtest.Open(t, config.DialectSQLite)
		s := models.NewStore(db)
		fixed := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return fixed }
		if _, err := seed.Demo(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := db.NewRaw(`SELECT p.title || '|' || u.username || '|' || p.status || '|' || p.created_at FROM posts p
			JOIN users u ON u.id = p.author_id ORDER BY p.id`).Scan(ctx, &got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(got[0]) == 0 || !slices.Equal(got[0], got[1]) {
		t.Errorf("two demos differ:\n%v\n%v", got[0], got[1])
	}
}

// relatedShops: the banned seed shop's related accounts are the other
// shop, from its very address, and a newcomer from its range.
func relatedShops(t *testing.T, s *models.Store) {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := s.DB.NewRaw("SELECT id FROM users WHERE username = 'cheap_seeds_4u'").Scan(ctx, &id); err != nil {
		t.Fatal(err)
	}
	r, err := s.Users.RelatedAccounts(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, a := range r.Accounts {
		got[a.Username] = a.Reasons
	}
	if len(got) != 2 || !slices.Equal(got["quickdeals_shop"], []string{models.RelatedAddress}) || !slices.Equal(got["viktor.s"], []string{models.RelatedRange}) {
		t.Errorf("the shop's related accounts: %v, want quickdeals_shop by address and viktor.s by range", got)
	}
}
