package models_test

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// together runs fn n times at once: the goroutines start together from
// one channel. It returns fn's errors in order.
func together(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// racers is how many writers each race test runs at once.
var racers = flag.Int("racers", 30, "how many writers each race test runs at once")

// TestRacingOAuthSignUps: sign-ins of one new identity at once (a
// double-clicked consent) open one account and all land on it; new
// identities whose handles are the same each get a username of their own.
func TestRacingOAuthSignUps(t *testing.T) {
	n := *racers
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		ids := make([]int64, n)
		errs := together(n, func(i int) error {
			u, err := s.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "github", ProviderUserID: "42",
				Email: "octo@example.com", EmailVerified: true, Username: "octocat"})
			if err == nil {
				ids[i] = u.ID
			}
			return err
		})
		for i, err := range errs {
			if err != nil || ids[i] != ids[0] {
				t.Errorf("sign-in %d: user %d, %v; want user %d", i, ids[i], err, ids[0])
			}
		}
		if got := links(t, s); len(got) != 1 {
			t.Errorf("%d links, want 1", len(got))
		}

		names := make([]string, n)
		errs = together(n, func(i int) error {
			u, err := s.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "gitlab", ProviderUserID: fmt.Sprint(i),
				Email: fmt.Sprintf("cat%d@example.com", i), EmailVerified: true, Username: "cat"})
			if err == nil {
				names[i] = u.Username
			}
			return err
		})
		seen := map[string]bool{}
		for i, err := range errs {
			if err != nil || names[i] == "" || seen[names[i]] {
				t.Errorf("sign-up %d: %q, %v; want a username of its own", i, names[i], err)
			}
			seen[names[i]] = true
		}
	})
}

// TestRacingCreateUsers: users created at once whose usernames derive from
// one email local part all get one of their own.
func TestRacingCreateUsers(t *testing.T) {
	n := *racers
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		errs := together(n, func(i int) error {
			_, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: fmt.Sprintf("ada@host%d.example", i)})
			return err
		})
		for i, err := range errs {
			if err != nil {
				t.Errorf("create %d: %v", i, err)
			}
		}
		if got, _ := s.Users.CountUsers(context.Background()); got != n {
			t.Errorf("%d users, want %d", got, n)
		}
	})
}
