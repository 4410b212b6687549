package models_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/trust"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// postQueries counts the queries that read or write posts.
type postQueries struct{ n atomic.Int64 }

func (q *postQueries) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.Contains(e.Query, "post") {
		q.n.Add(1)
	}
	return ctx
}

func (q *postQueries) AfterQuery(context.Context, *bun.QueryEvent) {}

func newPost(t *testing.T, s *models.Store, author int64, title string, tags ...string) *models.PostRecord {
	t.Helper()
	var p *models.PostRecord
	err := s.Change(context.Background(), func(ctx context.Context) (err error) {
		p, err = s.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: title, Content: "x", Tags: tags, Published: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPostFeedQueries: a page of posts, with authors and tags, is one query
// for the rows and one count, however many posts it holds.
func TestPostFeedQueries(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		u, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 25 {
			newPost(t, s, u.ID, fmt.Sprintf("Post %d", i), fmt.Sprintf("t%d", i), "common")
		}
		counter := &postQueries{}
		hooked := models.NewStore(db.WithQueryHook(counter))
		rows, total, err := hooked.Posts.PostFeed(context.Background(), models.PostFeedFilter{Sort: "created_at", Desc: true, Limit: 20})
		if err != nil || len(rows) != 20 || total != 25 {
			t.Fatalf("feed: %d rows of %d, %v", len(rows), total, err)
		}
		if tags := rows[0].Tags(); len(tags) != 2 || tags[0] != "common" || tags[1] != "t24" || rows[0].AuthorUsername != "ada" {
			t.Errorf("newest post: tags %v, author %q", tags, rows[0].AuthorUsername)
		}
		if n := counter.n.Load(); n != 2 {
			t.Errorf("%d queries for a page of 20 posts, want 2 (rows and count)", n)
		}
	})
}

// TestConcurrentReportsFlagOnce: reports filed at the same moment by
// five seasoned users without a record (weighing 1 each, enough
// together) flag the post once, with one moderation record, and each is
// counted.
func TestConcurrentReportsFlagOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		author, err := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		p := newPost(t, s, author.ID, "Contested")
		reporters := make([]int64, 5)
		for i := range reporters {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("r%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			reporters[i] = u.ID
		}
		_, err = db.NewUpdate().Model((*models.User)(nil)).Set("created_at = ?", time.Now().UTC().Add(-trust.Seasoned)).
			Where("id IN (?)", bun.In(reporters)).Exec(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var flagged atomic.Int64
		errs := make(chan error, len(reporters))
		start := make(chan struct{})
		for _, id := range reporters {
			wg.Go(func() {
				<-start
				errs <- s.Change(ctx, func(ctx context.Context) error {
					_, f, err := s.Posts.ReportPost(ctx, p.ID, id, "spam", "")
					if f {
						flagged.Add(1)
					}
					return err
				})
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Posts.PostRecordByID(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		records, _ := db.NewSelect().Model((*models.ModerationAction)(nil)).Where("post_id = ?", p.ID).Count(ctx)
		if got.Status != models.PostFlagged || got.ReportCount != len(reporters) || flagged.Load() != 1 || records != 1 {
			t.Errorf("status %s, report_count %d, flagged by %d reports, %d records; want flagged, %d, 1, 1",
				got.Status, got.ReportCount, flagged.Load(), records, len(reporters))
		}
	})
}

func TestReportPostRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		author, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com"})
		eve, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "eve@example.com"})
		p := newPost(t, s, author.ID, "Post")
		reportAs := func(user int64) error {
			return s.Change(ctx, func(ctx context.Context) error {
				_, _, err := s.Posts.ReportPost(ctx, p.ID, user, "spam", "")
				return err
			})
		}
		if err := reportAs(eve.ID); err != nil {
			t.Fatal(err)
		}
		if err := reportAs(eve.ID); !errors.Is(err, models.ErrAlreadyReported) {
			t.Errorf("second open report: %v, want ErrAlreadyReported", err)
		}
		db.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", eve.ID).Exec(ctx)
		db.NewUpdate().Model((*models.PostReport)(nil)).Set("status = 'dismissed'").Where("reporter_id = ?", eve.ID).Exec(ctx)
		if err := reportAs(eve.ID); !errors.Is(err, models.ErrUserNotActive) {
			t.Errorf("a banned reporter: %v, want ErrUserNotActive", err)
		}
		err := s.Change(ctx, func(ctx context.Context) error {
			_, _, err := s.Posts.ReportPost(ctx, 999999, author.ID, "spam", "")
			return err
		})
		if !errors.Is(err, models.ErrNotFound) {
			t.Errorf("an unknown post: %v, want ErrNotFound", err)
		}
		got, _ := s.Posts.PostRecordByID(ctx, p.ID)
		if got.ReportCount != 1 {
			t.Errorf("report_count %d after one report and three refusals, want 1", got.ReportCount)
		}
	})
}

// TestOpenReportsAreCounted: a post's count of open reports follows its
// reports through a new report, a resolution and the deletion of a
// reporter's account (the reports go with it), on both databases.
func TestOpenReportsAreCounted(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		author, _ := s.Users.CreateUser(ctx, models.NewUser{Email: "author@example.com"})
		p := newPost(t, s, author.ID, "Reported")
		open := func() int {
			var n int
			if err := db.NewSelect().Model((*models.Post)(nil)).Column("open_reports").Where("id = ?", p.ID).Scan(ctx, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		var reporters []int64
		for i := range 3 {
			u, _ := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("r%d@example.com", i)})
			reporters = append(reporters, u.ID)
			if err := s.Change(ctx, func(ctx context.Context) error {
				_, _, err := s.Posts.ReportPost(ctx, p.ID, u.ID, "spam", "")
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		if n := open(); n != 3 {
			t.Fatalf("%d open reports, want 3", n)
		}
		db.NewUpdate().Model((*models.PostReport)(nil)).Set("status = ?", models.ReportDismissed).Where("reporter_id = ?", reporters[0]).Exec(ctx)
		if n := open(); n != 2 {
			t.Errorf("after a dismissal, %d open, want 2", n)
		}
		if err := s.Change(ctx, func(ctx context.Context) error { return s.Users.DeleteUserAccount(ctx, reporters[1]) }); err != nil {
			t.Fatal(err)
		}
		if n := open(); n != 1 {
			t.Errorf("after a reporter's account went, %d open, want 1", n)
		}
		if err := s.Change(ctx, func(ctx context.Context) error {
			_, err := s.Desk.ModeratePost(ctx, models.Moderation{PostID: p.ID, AdminID: author.ID, Action: "approve"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if n := open(); n != 0 {
			t.Errorf("after approve, %d open, want 0", n)
		}
	})
}
