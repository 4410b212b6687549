package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// BenchmarkPurge purges a spam wave of 300 accounts with 600 posts (two
// each) and a live session each, blocking one range and one domain, on
// each database: the purge action whole (plan, policy for every account,
// the set-wise writes, the blocks). Between runs the purge is undone,
// timed apart as undo-ms. The target is under 2 s a purge
// (docs/performance.md, "Purging a spam wave").
//
// Run: REQUIRE_POSTGRES=1 go test -run '^$' -bench Purge -benchtime 5x ./bench
func BenchmarkPurge(b *testing.B) {
	for _, dialect := range dbtest.Dialects {
		b.Run(dialect, func(b *testing.B) { benchPurge(b, models.NewStore(dbtest.Open(b, dialect))) })
	}
}

func benchPurge(b *testing.B, store *models.Store) {
	ctx := context.Background()
	const accounts = 300
	users := make([]models.User, accounts)
	now := time.Now().UTC()
	for i := range users {
		users[i] = models.User{Username: fmt.Sprintf("wave%03d", i), Email: fmt.Sprintf("wave%03d@wave%d.example", i, i%2),
			Status: models.UserActive, IsActive: true, CreatedAt: now, UpdatedAt: now,
			SignupIP: fmt.Sprintf("2001:db8:%d::%x", i%3, i+1), SignupNet: fmt.Sprintf("2001:db8:%d::/64", i%3)}
	}
	if _, err := store.DB.NewInsert().Model(&users).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, accounts)
	var posts []models.Post
	var sessions []models.Session
	for i, u := range users {
		ids[i] = u.ID
		for j := range 2 {
			posts = append(posts, models.Post{AuthorID: u.ID, Title: fmt.Sprintf("spam %d-%d", i, j), Content: "-", Status: models.PostPublished,
				CreatedAt: now, UpdatedAt: now})
		}
	}
	if _, err := store.DB.NewInsert().Model(&posts).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	acts := actions.New(store, policy.Policy{Now: time.Now}, []byte("bench secret bench secret bench secret"), nil)
	who := actions.Operator()
	in := actions.PurgeInput{UserIDs: ids, Reason: "Spam wave", Ranges: []string{"2001:db8:0::/64"}, Domains: []string{"wave0.example"}}
	var undo time.Duration
	for b.Loop() {
		b.StopTimer()
		sessions = sessions[:0]
		for i, id := range ids {
			uid := id
			sessions = append(sessions, models.Session{Token: fmt.Sprintf("bench-%d-%d", b.N, i), Data: []byte{}, Expiry: time.Now().Add(time.Hour), UserID: &uid})
		}
		if _, err := store.DB.NewInsert().Model(&sessions).On("CONFLICT (token) DO UPDATE").Set("expiry = EXCLUDED.expiry").Exec(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := acts.Purge(ctx, who, in)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if len(res.Purged.Accounts) != accounts || res.Purged.Posts != 2*accounts || res.Purged.Sessions != accounts {
			b.Fatalf("purged %d accounts, %d posts, %d sessions", len(res.Purged.Accounts), res.Purged.Posts, res.Purged.Sessions)
		}
		start := time.Now()
		u, err := acts.UndoPurge(ctx, who, res.Purged.Purge.ID, nil)
		if err != nil || len(u.Restored) != accounts || u.Posts != 2*accounts {
			b.Fatalf("undo: %v", err)
		}
		undo += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/purge")
	b.ReportMetric(float64(undo.Milliseconds())/float64(b.N), "undo-ms")
}
