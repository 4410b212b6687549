package models_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// searchStore is a Store whose searches walk window ids first, and an
// author for its posts.
func searchStore(t *testing.T, db *bun.DB, window int64) (*models.Store, *models.User) {
	t.Helper()
	s := models.NewStore(db)
	s.SearchWindow = window
	author, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: "author@example.com", Name: "Author"})
	if err != nil {
		t.Fatal(err)
	}
	return s, author
}

// bulkPosts inserts posts by author in one statement, oldest first, and
// returns them with their ids. each decides a post's title, content and
// status from its number.
func bulkPosts(t *testing.T, s *models.Store, author int64, n int, each func(i int) (string, string, string)) []models.Post {
	t.Helper()
	now := s.Timestamp()
	posts := make([]models.Post, n)
	for i := range posts {
		title, content, status := each(i)
		posts[i] = models.Post{AuthorID: author, Title: title, Content: content, Status: status, CreatedAt: now, UpdatedAt: now}
	}
	if _, err := s.DB.NewInsert().Model(&posts).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return posts
}

// TestSearchWindowsFindEveryMatch: with first windows of two ids, a
// PostgreSQL search reaches every match through the index's later windows,
// each exactly once, and ranks them as one list; SQLite's walk agrees.
func TestSearchWindowsFindEveryMatch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s, author := searchStore(t, db, 2)
		posts := bulkPosts(t, s, author.ID, 60, func(i int) (string, string, string) {
			title, content, status := fmt.Sprint("Plain post ", i), "nothing to see", models.PostPublished
			if i%3 == 0 {
				title = fmt.Sprint("Lantern night ", i)
			}
			if i%5 == 0 {
				content = "a lantern glows by the door"
			}
			if i%7 == 0 {
				status = models.PostHidden
			}
			return title, content, status
		})
		var titled, bodied, hidden []int64
		for i, p := range slices.Backward(posts) {
			switch {
			case p.Status == models.PostHidden && (i%3 == 0 || i%5 == 0):
				hidden = append(hidden, p.ID)
			case i%3 == 0:
				titled = append(titled, p.ID)
			case i%5 == 0:
				bodied = append(bodied, p.ID)
			}
		}
		found, err := s.Search.SearchPosts(ctx, models.SearchQuery{Text: "lantern", Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		want := append(slices.Clone(titled), bodied...)
		if found.Total != len(want) || found.Capped || len(found.Hits) != len(want) {
			t.Fatalf("found %d hits of %d (capped %v), want %d", len(found.Hits), found.Total, found.Capped, len(want))
		}
		got := make([]int64, len(found.Hits))
		for i, h := range found.Hits {
			got[i] = h.ID
		}
		if !slices.Equal(sorted(got[:len(titled)]), sorted(titled)) || !slices.Equal(sorted(got[len(titled):]), sorted(bodied)) {
			t.Errorf("hits %v: want the title matches %v first, then the body matches %v", got, titled, bodied)
		}
		page, err := s.Search.SearchPosts(ctx, models.SearchQuery{Text: "lantern", Limit: 5, Offset: 5})
		if err != nil || len(page.Hits) != 5 || page.Hits[0].ID != got[5] || page.Hits[4].ID != got[9] {
			t.Errorf("the second page of five: %+v, %v; want hits %v", page, err, got[5:10])
		}
		all, err := s.Search.SearchPosts(ctx, models.SearchQuery{Text: "lantern", Limit: 100, AllPosts: true})
		if err != nil || all.Total != len(want)+len(hidden) {
			t.Errorf("a moderator's search: %d of %d matches, %v", all.Total, len(want)+len(hidden), err)
		}
	})
}

// TestUserSearchWindowsFindEveryMatch: the same for both user searches,
// over the users' own fields and their provider accounts.
func TestUserSearchWindowsFindEveryMatch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		s.SearchWindow = 2
		var keepers []int64
		for i := range 30 {
			name := fmt.Sprint("Someone ", i)
			if i%4 == 0 {
				name = fmt.Sprint("Lantern Keeper ", i)
			}
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("u%d@example.com", i), Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if i%4 == 0 {
				keepers = append(keepers, u.ID)
			} else if i%9 == 0 {
				email := fmt.Sprintf("lantern%d@example.org", i)
				pa := &models.ProviderAccount{UserID: u.ID, Provider: "github", ProviderUserID: fmt.Sprint(i),
					Email: &email, CreatedAt: s.Timestamp()}
				if _, err := s.DB.NewInsert().Model(pa).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				keepers = append(keepers, u.ID)
			}
		}
		slices.Reverse(keepers)
		hits, err := s.Search.SearchUsers(ctx, models.SearchQuery{Text: "lantern", Limit: 100})
		if err != nil || hits.Total != 8 || len(hits.Hits) != 8 || hits.Capped {
			t.Fatalf("user search: %+v, %v; want the 8 keepers", hits, err)
		}
		page, err := s.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 100, Search: "lantern"})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, r := range page.Rows {
			got = append(got, r.ID)
		}
		if page.Total != len(keepers) || !slices.Equal(got, keepers) {
			t.Errorf("admin search: %v of %d, want %v", got, page.Total, keepers)
		}
	})
}

// TestSearchRanksTheNewestMatches: past SearchCountCap matches, a search
// ranks and counts the newest ones only, so an old post that would rank
// first is not among the hits, and the total says it is capped.
func TestSearchRanksTheNewestMatches(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s, author := searchStore(t, db, 64)
		posts := bulkPosts(t, s, author.ID, models.SearchCountCap+20, func(i int) (string, string, string) {
			if i == 0 {
				return "Lantern lantern lantern", "lantern", models.PostPublished
			}
			return fmt.Sprint("Post ", i), fmt.Sprint("lantern number ", i), models.PostPublished
		})
		found, err := s.Search.SearchPosts(ctx, models.SearchQuery{Text: "lantern", Limit: 100})
		if err != nil || found.Total != models.SearchCountCap || !found.Capped || len(found.Hits) != 100 {
			t.Fatalf("a search past the cap: %d hits of %d (capped %v), %v", len(found.Hits), found.Total, found.Capped, err)
		}
		for _, h := range found.Hits {
			if h.ID <= posts[20].ID {
				t.Fatalf("post %d is older than the newest %d matches", h.ID, models.SearchCountCap)
			}
		}
	})
}

func sorted(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// TestSearchRespellsWhatMatchesNothing: on PostgreSQL, words that match
// nothing are respelled from the words of titles and names, and the
// dictionary learns the words of new posts, renamed posts and renamed
// users in the same transaction as the write.
func TestSearchRespellsWhatMatchesNothing(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	ctx := context.Background()
	s := models.NewStore(db)
	author, err := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com", Name: "Author"})
	if err != nil {
		t.Fatal(err)
	}
	old := newPost(t, s, author.ID, "Plain words")
	fresh := newPost(t, s, author.ID, "Beekeeping basics")
	found, err := s.Search.SearchPosts(ctx, models.SearchQuery{Text: "beekeping", Limit: 10})
	if err != nil || !found.Typo || len(found.Hits) != 1 || found.Hits[0].ID != fresh.ID {
		t.Fatalf("beekeping: %+v, %v; want the new post, respelled", found, err)
	}
	if _, err := db.NewUpdate().Table("posts").Set("title = ?", "Sourdough troubleshooting").Where("id = ?", old.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	found, err = s.Search.SearchPosts(ctx, models.SearchQuery{Text: "troubleshoting", Limit: 10})
	if err != nil || len(found.Hits) != 1 || found.Hits[0].ID != old.ID {
		t.Errorf("troubleshoting after a rename: %+v, %v", found, err)
	}
	found, err = s.Search.SearchPosts(ctx, models.SearchQuery{Text: "qwertyuiop", Limit: 10})
	if err != nil || found.Total != 0 || found.Typo {
		t.Errorf("a word close to none: %+v, %v; want nothing, not respelled", found, err)
	}
	if _, err := db.NewUpdate().Table("users").Set("name = ?", "Hildegard Okonkwo").Where("id = ?", author.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	users, err := s.Search.SearchUsers(ctx, models.SearchQuery{Text: "okonkow", Limit: 10})
	if err != nil || len(users.Hits) != 1 || users.Hits[0].ID != author.ID || users.Respelled != "okonkwo" {
		t.Errorf("okonkow after a rename: %+v, %v", users, err)
	}
}
