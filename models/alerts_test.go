package models_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestDigestStart: a digest turned on counts from that moment; one
// changed for another digest goes on from where the last ended, even
// before the first was sent; a claim holds only for the setting it was
// found with, and only once.
func TestDigestStart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		now := time.Date(2026, 12, 9, 10, 0, 0, 0, time.UTC)
		s.Now = func() time.Time { return now }
		u, err := s.Users.CreateUser(ctx, models.NewUser{Email: "mod@example.com", Roles: []string{access.RoleModerator}})
		if err != nil {
			t.Fatal(err)
		}
		set := func(reports string) models.AlertPreference {
			t.Helper()
			var p models.AlertPreference
			err := s.Change(ctx, func(ctx context.Context) (err error) {
				p, err = s.Alerts.SetAlertPreference(ctx, models.AlertPreference{UserID: u.ID, Reports: reports})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		if p, err := s.Alerts.AlertPreferenceOf(ctx, u.ID); err != nil || p.Reports != models.AlertsNever || p.Operations {
			t.Fatalf("no choice: %+v %v", p, err)
		}
		if p := set(models.AlertsHourly); p.LastDigestAt != nil || !p.DigestStart().Equal(now) {
			t.Errorf("hourly turned on: %+v, want counting from now", p)
		}
		turnedOn := now
		now = now.Add(10 * time.Minute)
		if p := set(models.AlertsDaily); p.LastDigestAt == nil || !p.DigestStart().Equal(turnedOn) {
			t.Errorf("hourly to daily: %+v, want counting on from %v", p, turnedOn)
		}

		now = now.Add(24 * time.Hour)
		due, err := s.Alerts.DueDigests(ctx, now.Add(-time.Hour), now.Add(-24*time.Hour))
		if err != nil || len(due) != 1 || due[0].Email != u.Email {
			t.Fatalf("due: %+v %v", due, err)
		}
		stale := due[0]
		set(models.AlertsDaily) // the owner saves the page again meanwhile
		var claimed bool
		err = s.Change(ctx, func(ctx context.Context) (err error) {
			claimed, err = s.Alerts.ClaimDigest(ctx, stale, now)
			return err
		})
		if err != nil || claimed {
			t.Errorf("a claim of a setting changed since: %v %v", claimed, err)
		}
		due, _ = s.Alerts.DueDigests(ctx, now.Add(-time.Hour), now.Add(-24*time.Hour))
		for i, want := range []bool{true, false} {
			err = s.Change(ctx, func(ctx context.Context) (err error) {
				claimed, err = s.Alerts.ClaimDigest(ctx, due[0], now)
				return err
			})
			if err != nil || claimed != want {
				t.Errorf("claim %d: %v %v, want %v", i+1, claimed, err, want)
			}
		}

		if p := set(models.AlertsNever); p.LastDigestAt != nil {
			t.Errorf("turned off: %+v", p)
		}
		now = now.Add(time.Hour)
		if p := set(models.AlertsHourly); p.LastDigestAt != nil || !p.DigestStart().Equal(now) {
			t.Errorf("turned on again: %+v, want counting from now, not from the last digest", p)
		}
	})
}
