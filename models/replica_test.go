package models_test

import (
	"context"
	"slices"
	"testing"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestReplicaReads points the replica at a second PostgreSQL database with
// other users: lists read there, while a change's reads, and reads that
// are not lists, read the primary.
func TestReplicaReads(t *testing.T) {
	ctx := context.Background()
	primaryDB, replicaDB := dbtest.Open(t, config.DialectPostgres), dbtest.Open(t, config.DialectPostgres)
	onPrimary, onReplica := models.NewStore(primaryDB), models.NewStore(replicaDB)
	mine, err := onPrimary.Users.CreateUser(ctx, models.NewUser{Username: "primary_only", Email: "primary@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := onReplica.Users.CreateUser(ctx, models.NewUser{Username: "replica_only", Email: "replica@example.com"}); err != nil {
		t.Fatal(err)
	}
	s := models.NewStore(primaryDB)
	s.Replica = replicaDB
	listed := func(ctx context.Context, status string) []string {
		t.Helper()
		return listedNames(t, ctx, s, status)
	}
	if got := listed(ctx, ""); !slices.Equal(got, []string{"replica_only"}) {
		t.Errorf("the list read %v, want the replica's [replica_only]", got)
	}

	w := s.NewWork(nil)
	wctx := models.WithWork(ctx, w)
	if got := listed(wctx, ""); !slices.Equal(got, []string{"replica_only"}) {
		t.Errorf("before the request changed anything, the list read %v, want the replica's", got)
	}
	inactive := models.UserInactive
	err = s.Change(wctx, func(ctx context.Context) error {
		return s.Users.UpdateUserAsAdmin(ctx, mine.ID, mine.ID, models.UserAdminChange{Status: &inactive})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := listed(wctx, models.UserInactive); !slices.Equal(got, []string{"primary_only"}) {
		t.Errorf("after the request's change, the list read %v, want its own write on the primary", got)
	}
	if _, err := w.Finish(wctx, true, 200); err != nil {
		t.Fatal(err)
	}

	u, err := s.Users.ListedUserByID(ctx, mine.ID)
	if err != nil || u.Username != "primary_only" {
		t.Errorf("one user's record read %+v, %v; want the primary's", u, err)
	}
	if got := listed(ctx, models.UserInactive); len(got) != 0 {
		t.Errorf("the replica's list shows %v as inactive; the replica never had the change", got)
	}
	if got := listedNames(t, ctx, onPrimary, ""); !slices.Equal(got, []string{"primary_only"}) {
		t.Errorf("without a replica the list read %v, want the primary's", got)
	}

	// The moderation queue is read from the primary: a post reported there
	// is in it, though the replica has never seen it.
	reporter, err := onPrimary.Users.CreateUser(ctx, models.NewUser{Username: "reporter", Email: "reporter@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	p := newPost(t, onPrimary, reporter.ID, "Reported on the primary")
	err = onPrimary.Change(ctx, func(ctx context.Context) error {
		_, _, err := onPrimary.Posts.ReportPost(ctx, p.ID, reporter.ID, "spam", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	queue, err := s.Posts.ListPostsAdmin(ctx, models.PostListFilter{OpenReports: true, Sort: "created_at", Limit: 50})
	if err != nil || len(queue.Rows) != 1 || queue.Rows[0].ID != p.ID {
		t.Errorf("the open-reports queue read %d posts, %v; want the primary's one", len(queue.Rows), err)
	}
	all, err := s.Posts.ListPostsAdmin(ctx, models.PostListFilter{Sort: "created_at", Limit: 50})
	if err != nil || len(all.Rows) != 0 {
		t.Errorf("the posts list read %d posts, %v; want the replica's none", len(all.Rows), err)
	}

	st, ok := s.Maintenance.ReplicaStatus(ctx)
	if !ok || !st.Reachable || st.Lag != nil {
		t.Errorf("replica status %+v, %v; want reachable, no lag measurable on a database that replays nothing", st, ok)
	}
	if _, ok := onPrimary.Maintenance.ReplicaStatus(ctx); ok {
		t.Error("a store without a replica reported one")
	}
}

// listedNames are the usernames of the first page of s's users list.
func listedNames(t *testing.T, ctx context.Context, s *models.Store, status string) []string {
	t.Helper()
	rows, _, err := s.Users.ListUsers(ctx, models.UserListFilter{Status: status, Sort: "created_at", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Username)
	}
	return names
}
