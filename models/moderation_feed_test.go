package models_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// newsOf hears the moderation news of the store's database: on SQLite the
// store's own, after each commit; on PostgreSQL through a listener of its
// own connection, as another instance would, ready when newsOf returns.
func newsOf(t *testing.T, s *models.Store, db *bun.DB) <-chan models.ModerationNews {
	t.Helper()
	news := make(chan models.ModerationNews, 16)
	if s.Dialect() != config.DialectPostgres {
		s.Heard = func(n models.ModerationNews) { news <- n }
		return news
	}
	dbURL, err := config.ParseDatabaseURL(dbtest.URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		models.ListenModeration(ctx, dbURL.DSN, discard(), func(on bool) {
			if on {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
		}, func(n models.ModerationNews) { news <- n })
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the moderation listener did not start")
	}
	return news
}

func nextNews(t *testing.T, news <-chan models.ModerationNews) models.ModerationNews {
	t.Helper()
	select {
	case n := <-news:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no moderation news")
		return models.ModerationNews{}
	}
}

// TestModerationNews: a report filed and a decision recorded are news,
// once committed and never when rolled back; a decision names its
// moderator and the post's title and ends the post's claim. On PostgreSQL
// the news reaches another connection, as it would another instance.
func TestModerationNews(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		ctx := context.Background()
		author, err := s.CreateUser(ctx, models.NewUser{Email: "author@example.com", Username: "author"})
		if err != nil {
			t.Fatal(err)
		}
		reporter, err := s.CreateUser(ctx, models.NewUser{Email: "rep@example.com", Username: "rep"})
		if err != nil {
			t.Fatal(err)
		}
		mod, err := s.CreateUser(ctx, models.NewUser{Email: "ana@example.com", Username: "ana", Roles: []string{models.RoleModerator}})
		if err != nil {
			t.Fatal(err)
		}
		p := newPost(t, s, author.ID, "Spam everywhere")
		news := newsOf(t, s, db)

		undone := errors.New("undone")
		err = s.Change(ctx, func(ctx context.Context) error {
			if _, _, err := s.ReportPost(ctx, p.ID, reporter.ID, "spam", ""); err != nil {
				return err
			}
			return undone
		})
		if !errors.Is(err, undone) {
			t.Fatalf("rolled-back report: %v", err)
		}
		err = s.Change(ctx, func(ctx context.Context) error {
			_, _, err := s.ReportPost(ctx, p.ID, reporter.ID, "spam", "")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := nextNews(t, news); n.Kind != models.NewsReport || n.PostID != p.ID {
			t.Fatalf("after a report: %+v, want the report (and nothing of the rolled-back one)", n)
		}
		if n, err := s.QueueCount(ctx); err != nil || n != 1 {
			t.Fatalf("queue count %d, %v; want 1", n, err)
		}

		err = s.Change(ctx, func(ctx context.Context) error {
			if _, err := s.ClaimPost(ctx, p.ID, mod.ID); err != nil {
				return err
			}
			_, err := s.ModeratePost(ctx, models.Moderation{PostID: p.ID, AdminID: mod.ID, Action: "hide"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := nextNews(t, news); n.Kind != models.NewsClaim || n.By != "ana" || n.Until == nil {
			t.Fatalf("after a claim: %+v", n)
		}
		n := nextNews(t, news)
		if n.Kind != models.NewsDecision || n.PostID != p.ID || n.Action != "hide" || n.By != "ana" || n.ByID != mod.ID || n.Title != "Spam everywhere" {
			t.Fatalf("after a decision: %+v", n)
		}
		claims, err := s.PostClaims(ctx, []int64{p.ID})
		if err != nil || len(claims) != 0 {
			t.Fatalf("claims after the decision: %v, %v; want none", claims, err)
		}
		if n, err := s.QueueCount(ctx); err != nil || n != 0 {
			t.Fatalf("queue count %d, %v; want 0", n, err)
		}
	})
}

// TestClaims: a claim holds against others until it expires, its holder
// renews it (keeping when it began), releasing ends it, and someone
// else's release leaves it.
func TestClaims(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		now := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return now }
		ctx := context.Background()
		ana, err := s.CreateUser(ctx, models.NewUser{Email: "ana@example.com", Username: "ana"})
		if err != nil {
			t.Fatal(err)
		}
		bo, err := s.CreateUser(ctx, models.NewUser{Email: "bo@example.com", Username: "bo"})
		if err != nil {
			t.Fatal(err)
		}
		p := newPost(t, s, ana.ID, "Claimed")
		claim := func(user int64) (*models.Claim, error) {
			var c *models.Claim
			err := s.Change(ctx, func(ctx context.Context) (err error) {
				c, err = s.ClaimPost(ctx, p.ID, user)
				return err
			})
			return c, err
		}
		release := func(user int64) bool {
			var released bool
			err := s.Change(ctx, func(ctx context.Context) (err error) {
				released, err = s.ReleaseClaim(ctx, p.ID, user)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return released
		}
		holder := func() string {
			cs, err := s.PostClaims(ctx, []int64{p.ID})
			if err != nil {
				t.Fatal(err)
			}
			return cs[p.ID].Username
		}

		c, err := claim(ana.ID)
		if err != nil || c.Username != "ana" || !c.ExpiresAt.Equal(now.Add(models.ClaimLease)) {
			t.Fatalf("ana's claim: %+v, %v", c, err)
		}
		var locked *models.LockedError
		if _, err := claim(bo.ID); !errors.As(err, &locked) || locked.By != "ana" {
			t.Fatalf("bo claims ana's post: %v, want locked by ana", err)
		}
		if release(bo.ID) || holder() != "ana" {
			t.Fatal("bo's release ended ana's claim")
		}
		now = now.Add(time.Minute)
		if c, err := claim(ana.ID); err != nil || !c.ClaimedAt.Equal(now.Add(-time.Minute)) || !c.ExpiresAt.Equal(now.Add(models.ClaimLease)) {
			t.Fatalf("ana renews: %+v, %v", c, err)
		}
		now = now.Add(models.ClaimLease)
		if holder() != "" {
			t.Fatal("an expired claim is still shown")
		}
		if c, err := claim(bo.ID); err != nil || c.Username != "bo" || !c.ClaimedAt.Equal(now) {
			t.Fatalf("bo claims after ana's expired: %+v, %v", c, err)
		}
		if !release(bo.ID) || holder() != "" {
			t.Fatal("bo's release left the claim")
		}
		if release(bo.ID) {
			t.Fatal("a second release found a claim")
		}
	})
}
