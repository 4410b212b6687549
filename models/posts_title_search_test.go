package models_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestPostsTitleSearch: a title search of the admin posts list keeps the
// newest models.TitleSearchCap posts whose title holds the term (without
// case, % and _ literal), with the list's other filters, counts them
// exactly up to the cap and says when more matched, and pages them in the
// order asked for, after retitles and deletions too. On PostgreSQL it runs
// again with a short first walk, so that rare terms go through the trigram
// index window by window, and after a recount has mended the titles.
func TestPostsTitleSearch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		insertOddTitles(t, db)
		insertSpreadPosts(t, db, 0, 3_000)
		s := models.NewStore(db)
		checkTitleSearches(t, s, db)
		// Retitles, moderation, reports and deletions reach what a search
		// reads.
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("title = 'Retitled ' || title").Where("id % 5 = 1").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("status = ?, report_count = report_count + 1, updated_at = ?", models.PostHidden, time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)).Where("id % 11 = 3").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewDelete().Model((*models.Post)(nil)).Where("id % 7 = 2").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		checkTitleSearches(t, s, db)
		if models.Dialect(db) != "postgres" {
			return
		}
		s.SearchWindow = 64
		checkTitleSearches(t, s, db)
		// A load that skipped the triggers (plaza seed) is followed by a
		// recount, which fills the titles again.
		if _, err := db.ExecContext(ctx, "DELETE FROM post_titles WHERE id % 3 = 0"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "UPDATE post_titles SET status = 'draft', report_count = 0, updated_at = now() WHERE id % 4 = 1"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO post_titles VALUES (999999, 'post 1', 'hidden', 1, 1, 0, now(), now())"); err != nil {
			t.Fatal(err)
		}
		if err := s.Posts.RecountPosts(ctx); err != nil {
			t.Fatal(err)
		}
		checkTitleSearches(t, s, db)
	})
}

// insertOddTitles adds a few titles beyond ASCII, one holding a control
// character, and a rare pair of letters, as the oldest posts.
func insertOddTitles(t *testing.T, db *bun.DB) {
	t.Helper()
	ctx := context.Background()
	author := models.User{Username: "odd", Email: "odd@example.org", Status: "active", IsActive: true}
	if _, err := db.NewInsert().Model(&author).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	posts := []models.Post{}
	for _, title := range []string{"Été à Zürich", "tab\x01bed", "\x01b", "Box quiz", "xq"} {
		posts = append(posts, models.Post{AuthorID: author.ID, Title: title, Content: "-", Status: models.PostPublished})
	}
	if _, err := db.NewInsert().Model(&posts).Exec(ctx); err != nil {
		t.Fatal(err)
	}
}

func checkTitleSearches(t *testing.T, s *models.Store, db *bun.DB) {
	t.Helper()
	var all []models.Post
	if err := db.NewSelect().Model(&all).OrderExpr("id DESC").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []models.PostListFilter{
		{Search: "post", Sort: "created_at", Desc: true},                           // every post: capped
		{Search: "POST 9", Sort: "created_at", Desc: true},                         // without case
		{Search: "st 12", Sort: "title"},                                           // a few
		{Search: "7", Sort: "report_count", Desc: true},                            // one character
		{Search: "post", Status: models.PostHidden, Sort: "updated_at"},            // beside a filter
		{Search: "post 4", Reported: true, Sort: "created_at"},                     // beside another
		{Search: "post", NeedsReview: true, Sort: "report_count", Desc: true},      // the moderation queue
		{Search: "st 12", Status: models.PostFlagged, Sort: "created_at"},          // few, beside a status
		{Search: "zzz", Sort: "created_at"}, {Search: "post%", Sort: "created_at"}, // none; % literal
		{Search: "_", Sort: "created_at"},                                 // _ literal
		{Search: "retitled post 3", Sort: "created_at", Desc: true},       // after a retitle
		{Search: "99", Sort: "created_at"}, {Search: "d ", Sort: "title"}, // two characters, few
		{Search: "zü", Sort: "created_at"}, {Search: "é", Sort: "created_at"}, // beyond ASCII
		{Search: "\x01b", Sort: "created_at"}, {Search: "xQ", Sort: "created_at"}, // a control character; rare
	} {
		kept, capped := titleMatches(all, f)
		for _, offset := range []int{0, 50, 950, len(kept) - 1, len(kept), models.TitleSearchCap} {
			f.Offset, f.Limit = max(offset, 0), 50
			checkTitlePage(t, s, db, f, kept, capped)
		}
	}
}

// titleMatches is the posts f's search keeps, newest first, worked out
// from all the posts (newest first), and whether more matched.
func titleMatches(all []models.Post, f models.PostListFilter) (kept []int64, capped bool) {
	for _, p := range all {
		if !strings.Contains(strings.ToLower(p.Title), strings.ToLower(f.Search)) ||
			(f.Status != "" && p.Status != f.Status) || (f.Reported && p.ReportCount == 0) ||
			(f.NeedsReview && p.OpenReports == 0 && p.Status != models.PostFlagged) {
			continue
		}
		if len(kept) == models.TitleSearchCap {
			return kept, true
		}
		kept = append(kept, p.ID)
	}
	return kept, false
}

// checkTitlePage compares the list's page with the same page of the kept
// posts in the list's order.
func checkTitlePage(t *testing.T, s *models.Store, db *bun.DB, f models.PostListFilter, kept []int64, capped bool) {
	t.Helper()
	got, err := s.Posts.ListPostsAdmin(context.Background(), f)
	if err != nil {
		t.Fatalf("%+v: %v", f, err)
	}
	if got.Total != len(kept) || got.Capped != capped {
		t.Fatalf("%q %+v: total %d, capped %v; want %d, %v", f.Search, f, got.Total, got.Capped, len(kept), capped)
	}
	want := []int64{}
	if len(kept) > 0 {
		dir := " ASC"
		if f.Desc {
			dir = " DESC"
		}
		err = db.NewSelect().Model((*models.Post)(nil)).Column("id").Where("id IN (?)", bun.In(kept)).
			OrderExpr(f.Sort+dir).OrderExpr("id"+dir).Limit(int64(f.Limit)).Offset(int64(f.Offset)).Scan(context.Background(), &want)
		if err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]int64, len(got.Rows))
	for i, r := range got.Rows {
		ids[i] = r.ID
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("%q %+v: page %v; want %v", f.Search, f, ids, want)
	}
}
