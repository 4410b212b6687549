package models_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestSettledReportsOutliveThePost: a decision's outcome reaches
// settled_reports and the reporters' tallies in its transaction; deleting
// the post leaves both, and the resolved figures; an undo reopens exactly
// its reports and takes them out again; a recount for writers that skip
// triggers rebuilds the same record and tallies.
func TestSettledReportsOutliveThePost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		clock := time.Now().UTC().Truncate(time.Second)
		s.Now = func() time.Time { return clock }
		user := func(name string) int64 {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: name + "@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		author, admin, r1, r2 := user("author"), user("admin"), user("r1"), user("r2")
		change := func(fn func(ctx context.Context) error) {
			t.Helper()
			if err := s.Change(ctx, fn); err != nil {
				t.Fatal(err)
			}
		}
		report := func(post, who int64) {
			change(func(ctx context.Context) error {
				_, _, err := s.Posts.ReportPost(ctx, post, who, "spam", fmt.Sprint("comment of ", who))
				return err
			})
		}
		decide := func(post int64, action string) {
			change(func(ctx context.Context) error {
				_, err := s.Desk.ModeratePost(ctx, models.Moderation{PostID: post, AdminID: admin, Action: action})
				return err
			})
		}
		tallies := func() map[int64][2]int {
			var rows []struct{ UserID, Upheld, Rejected int64 }
			if err := db.NewSelect().TableExpr("reporter_stats").Column("user_id", "upheld", "rejected").Scan(ctx, &rows); err != nil {
				t.Fatal(err)
			}
			out := map[int64][2]int{}
			for _, r := range rows {
				if r.Upheld+r.Rejected > 0 {
					out[r.UserID] = [2]int{int(r.Upheld), int(r.Rejected)}
				}
			}
			return out
		}
		settled := func() int {
			n, err := db.NewSelect().TableExpr("settled_reports").Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}

		gone, kept := newPost(t, s, author, "Gone"), newPost(t, s, author, "Kept")
		report(gone.ID, r1)
		report(gone.ID, r2)
		report(kept.ID, r1)
		decide(gone.ID, "delete")
		decide(kept.ID, "dismiss")
		want := map[int64][2]int{r1: {1, 1}, r2: {1, 0}}
		if got := tallies(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tallies %v, want %v", got, want)
		}
		clock = clock.Add(time.Minute)
		rep, err := s.Analytics.ModerationReport(ctx, models.ModerationQuery{Start: clock.Add(-time.Hour), End: clock})
		if err != nil || rep.Resolved != 3 || rep.ByAction["dismiss"] != 1 || rep.ByAction["delete"] != 1 {
			t.Errorf("moderation report: %+v, %v", rep, err)
		}

		// Undo the dismiss: kept's report opens again and leaves the record.
		var undone *models.Undone
		change(func(ctx context.Context) (err error) {
			undone, err = s.Desk.UndoModeration(ctx, kept.ID, admin)
			return err
		})
		if undone.Action != "dismiss" || undone.Reopened != 1 || settled() != 2 {
			t.Errorf("undo %+v, %d settled", undone, settled())
		}
		want = map[int64][2]int{r1: {1, 0}, r2: {1, 0}}
		if got := tallies(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tallies after the undo %v, want %v", got, want)
		}
		err = s.Change(ctx, func(ctx context.Context) error { _, err := s.Desk.UndoModeration(ctx, kept.ID, admin); return err })
		if !errors.Is(err, models.ErrNothingToUndo) {
			t.Errorf("a second undo: %v", err)
		}

		// The context of kept: its open report with the reporter's record.
		pc, err := s.Desk.PostContextByID(ctx, kept.ID)
		if err != nil || len(pc.Reports) != 1 || pc.Reports[0].Comment != fmt.Sprint("comment of ", r1) || pc.Reports[0].Upheld != 1 ||
			pc.Standing.Removed != 1 || pc.Standing.Moderations != 1 {
			t.Errorf("context: %+v %v", pc, err)
		}

		// Writers that skip triggers: the recount rebuilds what they left out.
		for _, q := range []string{"DELETE FROM reporter_stats", "DELETE FROM settled_reports WHERE post_id = " + fmt.Sprint(kept.ID)} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		decide(kept.ID, "hide") // settles r1's report: record and tally by trigger
		if _, err := db.ExecContext(ctx, "DELETE FROM settled_reports WHERE post_id = ?", kept.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RecountDailyCounts(ctx); err != nil {
			t.Fatal(err)
		}
		want = map[int64][2]int{r1: {2, 0}, r2: {1, 0}}
		if got := tallies(); fmt.Sprint(got) != fmt.Sprint(want) || settled() != 3 {
			t.Errorf("after the recount: tallies %v, want %v; %d settled", got, want, settled())
		}
	})
}
