package models_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestModerationNews: news announced in a change goes out once the change
// commits and never when it rolls back; on PostgreSQL it reaches another
// connection, as it would another instance. A decision ends the post's
// claim. (What each action tells is TestDeskNewsAreTheActions.)
func TestModerationNews(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		ctx := context.Background()
		author, err := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com", Username: "author"})
		if err != nil {
			t.Fatal(err)
		}
		mod, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ana@example.com", Username: "ana", Roles: []string{models.RoleModerator}})
		if err != nil {
			t.Fatal(err)
		}
		p := newPost(t, s, author.ID, "Spam everywhere")
		news := dbtest.ModerationNews(t, s, db)

		undone := errors.New("undone")
		err = s.Change(ctx, func(ctx context.Context) error {
			if err := s.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsReport, PostID: p.ID, Title: "rolled back"}); err != nil {
				return err
			}
			return undone
		})
		if !errors.Is(err, undone) {
			t.Fatalf("rolled-back change: %v", err)
		}
		long := strings.Repeat("é", 300)
		err = s.Change(ctx, func(ctx context.Context) error {
			return s.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsReport, PostID: p.ID, Title: long})
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := dbtest.NextNews(t, news); n.Kind != models.NewsReport || n.PostID != p.ID || len([]rune(n.Title)) != 200 {
			t.Fatalf("after a commit: %+v, want the committed news (title cut to 200) and nothing of the rolled-back one", n)
		}

		err = s.Change(ctx, func(ctx context.Context) error {
			if _, err := s.Desk.ClaimPost(ctx, p.ID, mod.ID); err != nil {
				return err
			}
			_, err := s.Desk.ModeratePost(ctx, models.Moderation{PostID: p.ID, AdminID: mod.ID, Action: "hide"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		claims, err := s.Desk.PostClaims(ctx, []int64{p.ID})
		if err != nil || len(claims) != 0 {
			t.Fatalf("claims after the decision: %v, %v; want none", claims, err)
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
		ana, err := s.Users.CreateUser(ctx, models.NewUser{Email: "ana@example.com", Username: "ana"})
		if err != nil {
			t.Fatal(err)
		}
		bo, err := s.Users.CreateUser(ctx, models.NewUser{Email: "bo@example.com", Username: "bo"})
		if err != nil {
			t.Fatal(err)
		}
		p := newPost(t, s, ana.ID, "Claimed")
		claim := func(user int64) (*models.Claim, error) {
			var c *models.Claim
			err := s.Change(ctx, func(ctx context.Context) (err error) {
				c, err = s.Desk.ClaimPost(ctx, p.ID, user)
				return err
			})
			return c, err
		}
		release := func(user int64) bool {
			var released bool
			err := s.Change(ctx, func(ctx context.Context) (err error) {
				released, err = s.Desk.ReleaseClaim(ctx, p.ID, user)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return released
		}
		holder := func() string {
			cs, err := s.Desk.PostClaims(ctx, []int64{p.ID})
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
