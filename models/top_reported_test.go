package models_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestTopReportedPosts: the moderation report's most reported posts of a
// window, found by walking the posts by report count, are those that
// counting every report of the window finds, over several batches and
// with ties.
func TestTopReportedPosts(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		rng := rand.New(rand.NewPCG(7, 11))
		base := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		var reporters []int64
		for i := range 6 {
			u, err := s.Users.CreateUser(ctx, models.NewUser{Email: fmt.Sprintf("r%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			reporters = append(reporters, u.ID)
		}
		posts := make([]models.Post, 450)
		for i := range posts {
			posts[i] = models.Post{Title: fmt.Sprint("p", i), AuthorID: reporters[0], Status: models.PostPublished, CreatedAt: base, UpdatedAt: base}
		}
		if _, err := db.NewInsert().Model(&posts).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var reports []models.PostReport
		for _, p := range posts {
			for _, r := range reporters[:rng.IntN(len(reporters)+1)] {
				at := base.Add(time.Duration(rng.IntN(20*24)) * time.Hour)
				reports = append(reports, models.PostReport{PostID: p.ID, ReporterID: r, Reason: "spam", Status: "resolved", CreatedAt: at, ResolvedAt: &at})
			}
		}
		if _, err := db.NewInsert().Model(&reports).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "UPDATE posts SET report_count = (SELECT count(*) FROM post_reports AS r WHERE r.post_id = posts.id)"); err != nil {
			t.Fatal(err)
		}
		for _, w := range [][2]time.Time{{base.AddDate(0, 0, 5), base.AddDate(0, 0, 12)}, {base, base.AddDate(0, 0, 30)}, {base.AddDate(0, 0, 19), base.AddDate(0, 0, 20)}} {
			got, err := s.Analytics.ModerationReport(ctx, models.ModerationQuery{Start: w[0], End: w[1]})
			if err != nil {
				t.Fatal(err)
			}
			if want := countTopReported(posts, reports, w[0], w[1]); !reflect.DeepEqual(got.TopReported, want) {
				t.Errorf("%v–%v: %+v, counting every report: %+v", w[0], w[1], got.TopReported, want)
			}
		}
	})
}

// countTopReported ranks the posts by their reports in [start, end), then
// by all their reports, then newest first.
func countTopReported(posts []models.Post, reports []models.PostReport, start, end time.Time) []models.ReportedPost {
	all, in := map[int64]int{}, map[int64]int{}
	for _, r := range reports {
		all[r.PostID]++
		if !r.CreatedAt.Before(start) && r.CreatedAt.Before(end) {
			in[r.PostID]++
		}
	}
	out := []models.ReportedPost{}
	for _, p := range posts {
		if in[p.ID] > 0 {
			out = append(out, models.ReportedPost{ID: p.ID, Title: p.Title, Reports: in[p.ID]})
		}
	}
	slices.SortFunc(out, func(a, b models.ReportedPost) int {
		return cmp.Or(cmp.Compare(b.Reports, a.Reports), cmp.Compare(all[b.ID], all[a.ID]), cmp.Compare(b.ID, a.ID))
	})
	return out[:min(len(out), models.TopReportedCount)]
}
