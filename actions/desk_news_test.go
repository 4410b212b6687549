package actions_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestDeskNewsAreTheActions: the live desk's news is told by the actions,
// as they queue webhooks: a report, a claim, a decision naming its
// moderator and the post's title, an undo; a release of a claim nobody
// held and a refused report tell nothing. On PostgreSQL the news reaches
// another connection, as it would another instance.
func TestDeskNewsAreTheActions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := models.NewStore(db)
		acts := actions.New(store, policy.Policy{Now: time.Now}, []byte("test secret"), nil)
		user := func(email string, roles ...string) *access.Principal {
			u, err := store.Users.CreateUser(ctx, models.NewUser{Email: email, Roles: roles})
			if err != nil {
				t.Fatal(err)
			}
			return &access.Principal{UserID: u.ID, Username: u.Username, Roles: append([]string{access.RoleUser}, roles...),
				Permissions: access.RolePermissions(append([]string{access.RoleUser}, roles...)), Via: access.ViaSession, ConfirmedAt: time.Now()}
		}
		author, reporter, mod := user("author@example.com"), user("rep@example.com"), user("ana@example.com", access.RoleModerator)
		post, err := acts.CreatePost(ctx, author, models.PostInput{Title: "Spam everywhere", Content: "buy now", Published: true})
		if err != nil {
			t.Fatal(err)
		}
		news := dbtest.ModerationNews(t, store, db)

		if _, err := acts.ReportPost(ctx, author, post.ID, "spam", ""); err == nil {
			t.Fatal("the author reported their own post")
		}
		if _, err := acts.ReportPost(ctx, reporter, post.ID, "spam", ""); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.NextNews(t, news); n.Kind != models.NewsReport || n.PostID != post.ID {
			t.Fatalf("after a report: %+v, want the report (and nothing of the refused one)", n)
		}
		if _, err := acts.ClaimPost(ctx, mod, post.ID); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.NextNews(t, news); n.Kind != models.NewsClaim || n.By != mod.Username || n.ByID != mod.UserID || n.Until == nil {
			t.Fatalf("after a claim: %+v", n)
		}
		if _, err := acts.ModeratePost(ctx, mod, post.ID, actions.Moderation{Action: "hide"}); err != nil {
			t.Fatal(err)
		}
		n := dbtest.NextNews(t, news)
		if n.Kind != models.NewsDecision || n.PostID != post.ID || n.Action != "hide" || n.By != mod.Username || n.Title != "Spam everywhere" {
			t.Fatalf("after a decision: %+v", n)
		}
		if released, err := acts.ReleasePost(ctx, mod, post.ID); err != nil || released {
			t.Fatalf("release after the decision ended the claim: %v, %v; want nothing to release", released, err)
		}
		if _, _, err := acts.UndoModeration(ctx, mod, post.ID); err != nil {
			t.Fatal(err)
		}
		if n := dbtest.NextNews(t, news); n.Kind != models.NewsDecision || n.Action != "undo" || n.Title != "Spam everywhere" {
			t.Fatalf("after the undo: %+v (the empty release told something?)", n)
		}
	})
}
