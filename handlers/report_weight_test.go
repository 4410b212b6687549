package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// season makes the user's account age old, as if it had signed up then.
func season(t *testing.T, app *apptest.App, userID int64, age time.Duration) {
	t.Helper()
	_, err := app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("created_at = ?", time.Now().UTC().Add(-age)).
		Where("id = ?", userID).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
}

// TestFreshReportersCannotHidePost: ten accounts made today report a
// post: it stays published and visible to everyone, and waits in the
// moderation queue. Reporters whose accounts are two months old and whose
// past reports moderators upheld (through the moderation route) take it
// offline: three of them weigh 4.5, short of the threshold of 5, and the
// fourth flags it. Before, any five accounts flagged any post at once,
// so one IPv6 /64 hid posts anonymously within seconds.
func TestFreshReportersCannotHidePost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		_, adaH := userWith(t, app, "ada@example.com")
		post := writePost(t, app, adaH, `{"title":"Contested","content":"x","published":true}`)
		status := func() string {
			t.Helper()
			p, err := app.Store.Posts.PostRecordByID(context.Background(), mustID(t, post.ID))
			if err != nil {
				t.Fatal(err)
			}
			return p.Status
		}
		for i := range 10 {
			_, h := userWith(t, app, fmt.Sprintf("sock%d@example.com", i))
			if res := report(t, app, h, post.ID, "spam"); res.Code != http.StatusCreated {
				t.Fatalf("report %d: %d %s", i+1, res.Code, res.Body)
			}
		}
		if got := status(); got != models.PostPublished {
			t.Fatalf("after ten fresh accounts' reports the post is %s, want published", got)
		}
		if res := apptest.Do(t, app, "GET", "/api/posts/"+post.ID, nil); res.Code != http.StatusOK {
			t.Errorf("an anonymous reader of the reported post: %d, want 200", res.Code)
		}
		if got := listV1Posts(t, app, admin, "needsReview=true").titles(); !slices.Equal(got, []string{"Contested"}) {
			t.Errorf("awaiting a decision: %v, want the reported post", got)
		}

		// Four seasoned reporters earn a record: moderators uphold two
		// reports of each.
		var sharp []http.Header
		for i := range 4 {
			u, h := userWith(t, app, fmt.Sprintf("sharp%d@example.com", i))
			season(t, app, u.ID, 60*24*time.Hour)
			sharp = append(sharp, h)
		}
		for i := range 2 {
			spam := writePost(t, app, adaH, fmt.Sprintf(`{"title":"Cheap pills %d","content":"x","published":true}`, i))
			for _, h := range sharp {
				if res := report(t, app, h, spam.ID, "spam"); res.Code != http.StatusCreated {
					t.Fatalf("report of spam %d: %d %s", i, res.Code, res.Body)
				}
			}
			if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/posts/"+spam.ID+"/moderate", admin, `{"action":"hide","reason":"spam"}`); res.Code != 200 {
				t.Fatalf("hide spam %d: %d %s", i, res.Code, res.Body)
			}
		}
		for i, h := range sharp {
			if res := report(t, app, h, post.ID, "spam"); res.Code != http.StatusCreated {
				t.Fatalf("seasoned report %d: %d %s", i+1, res.Code, res.Body)
			}
			want := models.PostPublished
			if i == len(sharp)-1 {
				want = models.PostFlagged
			}
			if got := status(); got != want {
				t.Fatalf("after %d seasoned reports the post is %s, want %s", i+1, got, want)
			}
		}
		if res := apptest.Do(t, app, "GET", "/api/posts/"+post.ID, nil); res.Code != http.StatusNotFound {
			t.Errorf("an anonymous reader of the flagged post: %d, want 404", res.Code)
		}
	})
}

// TestOftenWrongReportersCannotHidePost: five reporters whose accounts are
// two months old would flag a post between them if they had no record
// (each weighs 1). These five have a record: moderators dismissed both of
// each one's past reports (through the moderation route), so each weighs
// 2·1/4 = 0.5 and their five reports, 2.5 together, leave the post
// published and visible, waiting in the moderation queue. Were past
// accuracy ignored, the fifth report would flag it.
func TestOftenWrongReportersCannotHidePost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		_, adaH := userWith(t, app, "ada@example.com")
		var wrong []http.Header
		for i := range 5 {
			u, h := userWith(t, app, fmt.Sprintf("wrong%d@example.com", i))
			season(t, app, u.ID, 60*24*time.Hour)
			wrong = append(wrong, h)
		}
		for i := range 2 {
			fine := writePost(t, app, adaH, fmt.Sprintf(`{"title":"Harmless %d","content":"x","published":true}`, i))
			for _, h := range wrong {
				if res := report(t, app, h, fine.ID, "spam"); res.Code != http.StatusCreated {
					t.Fatalf("report of harmless post %d: %d %s", i, res.Code, res.Body)
				}
			}
			if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/posts/"+fine.ID+"/moderate", admin, `{"action":"dismiss","reason":"not spam"}`); res.Code != 200 {
				t.Fatalf("dismiss reports of post %d: %d %s", i, res.Code, res.Body)
			}
		}

		post := writePost(t, app, adaH, `{"title":"Contested","content":"x","published":true}`)
		for i, h := range wrong {
			if res := report(t, app, h, post.ID, "spam"); res.Code != http.StatusCreated {
				t.Fatalf("report %d: %d %s", i+1, res.Code, res.Body)
			}
		}
		p, err := app.Store.Posts.PostRecordByID(context.Background(), mustID(t, post.ID))
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != models.PostPublished {
			t.Fatalf("after five often-wrong reporters' reports the post is %s, want published", p.Status)
		}
		if res := apptest.Do(t, app, "GET", "/api/posts/"+post.ID, nil); res.Code != http.StatusOK {
			t.Errorf("an anonymous reader of the reported post: %d, want 200", res.Code)
		}
		if got := listV1Posts(t, app, admin, "needsReview=true").titles(); !slices.Equal(got, []string{"Contested"}) {
			t.Errorf("awaiting a decision: %v, want the reported post", got)
		}
	})
}
