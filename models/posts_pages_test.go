package models_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// deepPosts is more posts than the admin posts list walks to, so that its
// last pages are planned from the counters or read from the far end.
const deepPosts = 14_000

// TestPostsListDeepPages: a deep page of the admin posts list holds the
// posts an OFFSET over all of them would, on each side of every hour and
// day the page may start in (posts exactly on the hour, several at the same
// instant, hours and days with none), newest and oldest first; pages of
// the other orders and filters read from the far end hold the same posts
// as walking there; past the last post a page is empty and the total
// exact; and after deletions, new posts, reports and edits the pages
// follow. On PostgreSQL pages by last update, by report count and by
// title start from their counts too, and are checked on each side of
// every bucket; the title marks' counts survive retitling and splits.
func TestPostsListDeepPages(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		insertSpreadPosts(t, db, 0, deepPosts)
		splitTitleMarks(t, s, db)
		checkDeepPages(t, s, db)

		if _, err := db.NewDelete().Model((*models.Post)(nil)).Where("id % 7 = 3").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		insertSpreadPosts(t, db, deepPosts, 900)
		checkDeepPages(t, s, db)

		// Moderation moves posts between statuses; an edit of the
		// creation time moves them between days.
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("status = ?", models.PostHidden).Where("id % 40 = 4").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("created_at = ?", time.Date(2026, 2, 20, 5, 0, 0, 0, time.UTC)).Where("id % 50 = 7").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Analytics.RecountDailyCounts(ctx); err != nil { // the hourly counts do not follow creation times moved
			t.Fatal(err)
		}
		checkDeepPages(t, s, db)

		// Reports move posts between report counts, edits between hours
		// of last update.
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("report_count = report_count + 3").Where("id % 9 = 2").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("updated_at = ?", time.Date(2026, 3, 4, 7, 30, 0, 0, time.UTC)).Where("id % 11 = 5").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		// Retitled posts move between title buckets; many alike fill one,
		// which the sweep then splits.
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("title = 'zz ' || title").Where("id % 3 <> 0").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		checkDeepPages(t, s, db)
		checkTitleMarksCount(t, s, db)
		splitTitleMarks(t, s, db)
		checkDeepPages(t, s, db)
		checkTitleMarksCount(t, s, db)
	})
}

// splitTitleMarks splits the large title buckets and, on PostgreSQL,
// requires that it added marks.
func splitTitleMarks(t *testing.T, s *models.Store, db *bun.DB) {
	t.Helper()
	added, err := s.Posts.SplitTitleMarks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if models.Dialect(db) == "postgres" && added == 0 {
		t.Fatal("no title mark added: no bucket past the largest size")
	}
}

// checkTitleMarksCount fails when a recount would change a count of the
// title marks' buckets or of a status's posts in a bucket of any order:
// the triggers (or a split) lost or doubled a post.
func checkTitleMarksCount(t *testing.T, s *models.Store, db *bun.DB) {
	t.Helper()
	if models.Dialect(db) != "postgres" {
		return
	}
	counts := func() map[string]int64 {
		var rows []struct {
			K string
			N int64
		}
		err := db.NewRaw(`SELECT 'all ' || title || '/' || id AS k, n FROM post_title_marks
			UNION ALL SELECT status || ' ' || title || '/' || id, n FROM post_status_title_marks WHERE n <> 0
			UNION ALL SELECT status || ' ' || hour, n FROM post_status_updated_hours WHERE n <> 0
			UNION ALL SELECT status || ' ' || report_count || '/' || run, n FROM post_status_report_runs WHERE n <> 0`).
			Scan(context.Background(), &rows)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, r := range rows {
			out[r.K] = r.N
		}
		return out
	}
	kept := counts()
	if err := s.Posts.RecountPosts(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fresh := counts(); !maps.Equal(kept, fresh) {
		for k, n := range fresh {
			if kept[k] != n {
				t.Errorf("%s: kept %d, recounted %d", k, kept[k], n)
			}
		}
		for k, n := range kept {
			if _, ok := fresh[k]; !ok {
				t.Errorf("%s: kept %d, recounted none", k, n)
			}
		}
	}
}

// titleOffsets are the offsets on each side of every title mark, in the
// order f asks for (PostgreSQL only: SQLite has no marks).
func titleOffsets(t *testing.T, db *bun.DB, f models.PostListFilter, total int) []int {
	t.Helper()
	if models.Dialect(db) != "postgres" {
		return nil
	}
	var before []int
	err := db.NewRaw(`SELECT (SELECT count(*) FROM posts AS p WHERE (p.title, p.id) < (m.title, m.id) AND (? = '' OR p.status = ?))
		FROM post_title_marks AS m`, f.Status, f.Status).Scan(context.Background(), &before)
	if err != nil {
		t.Fatal(err)
	}
	var offsets []int
	for _, b := range before {
		if f.Desc {
			b = total - b
		}
		offsets = append(offsets, b-1, b)
	}
	return offsets
}

// insertSpreadPosts inserts n posts over five days and a gap: clustered
// in some hours, none in others, some exactly on the hour, some sharing
// an instant.
func insertSpreadPosts(t *testing.T, db *bun.DB, from, n int) {
	t.Helper()
	ctx := context.Background()
	author := models.User{Username: fmt.Sprintf("deep%d", from), Email: fmt.Sprintf("deep%d@example.org", from), Status: "active", IsActive: true}
	if _, err := db.NewInsert().Model(&author).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	statuses := map[int]string{0: models.PostDraft, 1: models.PostHidden, 2: models.PostFlagged}
	batch := make([]models.Post, 0, 500)
	for i := from; i < from+n; i++ {
		at := base.Add(time.Duration(i*7919%(5*86400)) * time.Second).Add(time.Duration(i%1000) * time.Microsecond)
		switch {
		case i%97 == 0:
			at = at.Truncate(time.Hour)
		case i%13 == 0:
			at = base.Add(40 * time.Hour)
		case i%11 == 0:
			at = base.AddDate(0, 0, 9).Add(time.Duration(i%5) * time.Minute)
		}
		batch = append(batch, models.Post{AuthorID: author.ID, Title: fmt.Sprintf("post %d", i*31%977), Content: "-",
			Status: cmp.Or(statuses[i%20], models.PostPublished), ReportCount: i % 4, CreatedAt: at, UpdatedAt: at.Add(time.Duration(i%3) * time.Hour)})
		if len(batch) == cap(batch) || i == from+n-1 {
			if _, err := db.NewInsert().Model(&batch).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// checkDeepPages compares pages of the list with pages of a plain walk.
func checkDeepPages(t *testing.T, s *models.Store, db *bun.DB) {
	t.Helper()
	all, err := db.NewSelect().Model((*models.Post)(nil)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	published, err := db.NewSelect().Model((*models.Post)(nil)).Where("status = ?", models.PostPublished).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total := int(all)
	for _, f := range []models.PostListFilter{
		{Sort: "created_at", Desc: true}, {Sort: "created_at"},
		{Sort: "created_at", Desc: true, Status: models.PostPublished}, {Sort: "created_at", Status: models.PostPublished},
		{Sort: "updated_at", Desc: true}, {Sort: "updated_at"}, {Sort: "report_count", Desc: true}, {Sort: "report_count"},
		{Sort: "title"}, {Sort: "title", Desc: true},
		{Sort: "updated_at", Desc: true, Status: models.PostPublished}, {Sort: "updated_at", Status: models.PostPublished},
		{Sort: "report_count", Desc: true, Status: models.PostPublished}, {Sort: "report_count", Status: models.PostPublished},
		{Sort: "title", Status: models.PostPublished}, {Sort: "title", Desc: true, Status: models.PostPublished},
	} {
		total := total
		if f.Status != "" {
			total = int(published)
		}
		if total <= 10_500 {
			t.Fatalf("%d posts for %+v: too few to reach past the walk", total, f)
		}
		all := walkedPosts(t, db, f, total)
		var offsets []int
		// Every bucket edge past 10,000, and the first few past the walk.
		shallow := 0
		for i := 1_001; f.Sort != "title" && i < len(all); i++ {
			if bucketOf(f.Sort, all[i]) != bucketOf(f.Sort, all[i-1]) && (i > 10_000 || shallow < 4) {
				offsets = append(offsets, i-1, i)
				shallow++
			}
		}
		for _, o := range titleOffsets(t, db, f, total) {
			if f.Sort == "title" && (o > 10_000 || o > 1_000 && shallow < 8) {
				offsets = append(offsets, o)
				shallow++
			}
		}
		offsets = append(offsets, 1_001, 10_001, total-3, total-1, total, total+5)
		for _, o := range offsets {
			f.Offset, f.Limit = o, 3
			checkDeepPage(t, s, f, all, total)
		}
	}
	for _, f := range []models.PostListFilter{
		{Sort: "title", Status: models.PostDraft}, {Sort: "updated_at", Status: models.PostPublished},
		{Sort: "created_at", Status: models.PostPublished}, {Sort: "created_at", Desc: true, Status: models.PostDraft},
	} {
		count, err := db.NewSelect().Model((*models.Post)(nil)).Apply(func(q *bun.SelectQuery) *bun.SelectQuery {
			if f.Status != "" {
				q = q.Where("status = ?", f.Status)
			}
			return q
		}).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := int(count)
		all := walkedPosts(t, db, f, n)
		for _, o := range []int{1_001, 10_001, n / 2, n/2 + 1, n - 50, n - 3, n - 1, n, n + 1} {
			if o <= 1_000 {
				continue
			}
			f.Offset, f.Limit = o, 50
			checkDeepPage(t, s, f, all, n)
		}
	}
}

func checkDeepPage(t *testing.T, s *models.Store, f models.PostListFilter, all []models.Post, total int) {
	t.Helper()
	found, err := s.Posts.ListPostsAdmin(context.Background(), f)
	if err != nil {
		t.Fatalf("%+v: %v", f, err)
	}
	rows, n := found.Rows, found.Total
	var want, got []int64
	for _, p := range all[min(f.Offset, len(all)):min(f.Offset+f.Limit, len(all))] {
		want = append(want, p.ID)
	}
	for _, p := range rows {
		got = append(got, p.ID)
	}
	if !slices.Equal(got, want) || n != total {
		t.Errorf("%+v: got %v of %d, want %v of %d", f, got, n, want, total)
	}
}

// bucketOf is the bucket of the counts a page of order sort may start in
// that p falls in: its hour of creation or of last update, or its report
// count and run of 1,024 ids.
func bucketOf(sort string, p models.Post) string {
	switch sort {
	case "updated_at":
		return p.UpdatedAt.UTC().Truncate(time.Hour).String()
	case "report_count":
		return fmt.Sprint(p.ReportCount, p.ID/1024)
	}
	return p.CreatedAt.UTC().Truncate(time.Hour).String()
}

// walkedPosts reads every post f matches in f's order, by OFFSET.
func walkedPosts(t *testing.T, db *bun.DB, f models.PostListFilter, total int) []models.Post {
	t.Helper()
	dir := " ASC"
	if f.Desc {
		dir = " DESC"
	}
	var all []models.Post
	q := db.NewSelect().Model(&all).Column("id", "created_at", "updated_at", "report_count").OrderExpr("p." + f.Sort + dir).OrderExpr("p.id" + dir)
	if f.Status != "" {
		q = q.Where("p.status = ?", f.Status)
	}
	if err := q.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(all) != total {
		t.Fatalf("%+v: walked %d posts of %d", f, len(all), total)
	}
	return all
}
