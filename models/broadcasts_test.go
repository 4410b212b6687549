package models_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestBroadcastDeliveryResumes: a delivery cut off after its first step
// and run again (as River retries a job) reaches every recipient exactly
// once; an account made after the broadcast was sent is not among them;
// running a delivered broadcast again changes nothing, and its sender hears
// of it once.
func TestBroadcastDeliveryResumes(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		runner, err := jobs.New(db.DB, models.Dialect(db), jobs.Deps{Sweeper: s, Analytics: s, Broadcasts: s, Metrics: metrics.New(nil), Log: discard()})
		if err != nil {
			t.Fatal(err)
		}
		s.Queue, s.BroadcastStep = runner, 2
		var users []int64
		for i := range 7 {
			u, err := s.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("u%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			users = append(users, u.ID)
		}
		b := &models.Broadcast{Title: "Hello", Message: "Everyone", Type: "info", Targets: []string{"all"}, CreatedBy: &users[0]}
		if err := s.Change(ctx, func(ctx context.Context) error { return s.SendBroadcast(ctx, b, nil) }); err != nil {
			t.Fatal(err)
		}
		if b.Recipients != 7 || b.Status != models.BroadcastSent {
			t.Fatalf("sent: %+v", b)
		}
		late, err := s.CreateUser(ctx, models.NewUser{Email: "late@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		first, err := s.DeliverBroadcastStep(ctx, b.ID)
		if err != nil || first.Delivered != 2 || first.DeliveredAt != nil {
			t.Fatalf("first step: %+v (%v)", first, err)
		}
		for range 2 {
			if n, err := s.DeliverBroadcast(ctx, b.ID); err != nil || n != 7 {
				t.Fatalf("delivered %d (%v), want 7", n, err)
			}
		}
		counts := map[int64]int{}
		var rows []models.Notification
		if err := db.NewSelect().Model(&rows).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		told := 0
		for _, n := range rows {
			if n.BroadcastID != nil {
				counts[n.UserID]++
			} else if n.Title == "Broadcast delivered" && n.UserID == users[0] {
				told++
			}
		}
		for _, u := range users {
			if counts[u] != 1 {
				t.Errorf("user %d has the broadcast %d times", u, counts[u])
			}
		}
		if counts[late.ID] != 0 || told != 1 {
			t.Errorf("the late account has it %d times; the sender was told %d times", counts[late.ID], told)
		}
	})
}
