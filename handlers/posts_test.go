package handlers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/trust"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// writePost creates a post through the API and returns it.
func writePost(t *testing.T, app *apptest.App, h http.Header, body string) api.Post {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/posts", h, body)
	if res.Code != http.StatusCreated {
		t.Fatalf("create post %s: %d %s", body, res.Code, res.Body)
	}
	return decodeAs[api.Post](t, res)
}

// postCount is a user's stored post_count.
func postCount(t *testing.T, app *apptest.App, id int64) int {
	t.Helper()
	u, err := app.Store.Users.UserByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.PostCount
}

// checkCounters compares every denormalised counter with a recount:
// users.post_count with the user's posts, posts.report_count with the
// post's reports.
func checkCounters(t *testing.T, app *apptest.App) {
	t.Helper()
	ctx := context.Background()
	var bad []string
	err := app.Store.DB.NewSelect().TableExpr("users AS u").
		ColumnExpr("'user ' || u.id || ': ' || u.post_count || ' <> ' || (SELECT count(*) FROM posts AS p WHERE p.author_id = u.id)").
		Where("u.post_count <> (SELECT count(*) FROM posts AS p WHERE p.author_id = u.id)").Scan(ctx, &bad)
	if err != nil {
		t.Fatal(err)
	}
	var badPosts []string
	err = app.Store.DB.NewSelect().TableExpr("posts AS p").
		ColumnExpr("'post ' || p.id || ': ' || p.report_count || ' <> ' || (SELECT count(*) FROM post_reports AS r WHERE r.post_id = p.id)").
		Where("p.report_count <> (SELECT count(*) FROM post_reports AS r WHERE r.post_id = p.id)").Scan(ctx, &badPosts)
	if err != nil {
		t.Fatal(err)
	}
	if bad = append(bad, badPosts...); len(bad) > 0 {
		t.Errorf("counters differ from a recount: %v", bad)
	}
}

func TestPostLifecycle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		_, modH := userWith(t, app, "mod@example.com", access.RoleModerator)

		p := writePost(t, app, adaH, `{"title":"  Notes on the engine ","content":"It weaves algebraic patterns.","tags":["Math","math"," history "],"published":true}`)
		if p.Title != "Notes on the engine" || p.AuthorID != itoa(ada.ID) || p.Author.ID != itoa(ada.ID) || p.Author.Username != ada.Username ||
			!p.Published || p.Status != "published" || strings.Join(p.Tags, ",") != "history,math" || p.CreatedAt != p.UpdatedAt || !strings.HasSuffix(p.CreatedAt, "Z") {
			t.Errorf("created post %+v", p)
		}
		draft := writePost(t, app, adaH, `{"title":"Draft","content":"Not yet."}`)
		if draft.Published || draft.Status != "draft" || len(draft.Tags) != 0 {
			t.Errorf("a post without published:true is a draft: %+v", draft)
		}
		if n := postCount(t, app, ada.ID); n != 2 {
			t.Errorf("post_count %d after two posts, want 2", n)
		}

		for name, h := range map[string]http.Header{"anonymous": nil, "another user": bobH} {
			if res := apptest.Do(t, app, "GET", "/api/posts/"+p.ID, h); res.Code != 200 || decodeAs[api.Post](t, res).Content != p.Content {
				t.Errorf("%s reading a published post: %d %s", name, res.Code, res.Body)
			}
			wantError(t, apptest.Do(t, app, "GET", "/api/posts/"+draft.ID, h), 404, api.CodeNotFound, "")
		}
		for name, h := range map[string]http.Header{"author": adaH, "moderator": modH} {
			if res := apptest.Do(t, app, "GET", "/api/posts/"+draft.ID, h); res.Code != 200 {
				t.Errorf("%s reading a draft: %d %s", name, res.Code, res.Body)
			}
		}
		for _, id := range []string{"999999", "abc", "0"} {
			wantError(t, apptest.Do(t, app, "GET", "/api/posts/"+id, nil), 404, api.CodeNotFound, "")
		}

		res := apptest.DoBody(t, app, "PUT", "/api/posts/"+draft.ID, adaH, `{"published":true,"tags":["late"]}`)
		up := decodeAs[api.Post](t, res)
		if res.Code != 200 || !up.Published || up.Status != "published" || up.Title != "Draft" || strings.Join(up.Tags, ",") != "late" || up.UpdatedAt < up.CreatedAt {
			t.Errorf("publishing the draft: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", "/api/posts/"+draft.ID, adaH, `{"published":true}`)
		if again := decodeAs[api.Post](t, res); res.Code != 200 || again.UpdatedAt != up.UpdatedAt || again.Status != "published" {
			t.Errorf("publishing a published post changes nothing: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adaH, `{"published":false}`)
		if res.Code != 200 || decodeAs[api.Post](t, res).Status != "draft" {
			t.Errorf("unpublishing: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+p.ID, adaH); res.Code != 200 || strings.TrimSpace(res.Body.String()) != `{"deleted":true,"id":"`+p.ID+`"}` {
			t.Errorf("delete: %d %s", res.Code, res.Body)
		}
		wantError(t, apptest.Do(t, app, "GET", "/api/posts/"+p.ID, adaH), 404, api.CodeNotFound, "")
		wantError(t, apptest.Do(t, app, "DELETE", "/api/posts/"+p.ID, adaH), 404, api.CodeNotFound, "")
		if n := postCount(t, app, ada.ID); n != 1 {
			t.Errorf("post_count %d after deleting one of two, want 1", n)
		}
		// Of an author's changes to its own posts only the status changes
		// are audited (publishing the draft, unpublishing the other).
		got := auditActions(t, app)
		slices.Sort(got)
		want := []string{"post.update post:" + draft.ID, "post.update post:" + p.ID}
		if slices.Sort(want); !slices.Equal(got, want) {
			t.Errorf("audit entries of an author's own changes %v, want its two status changes %v", got, want)
		}
		checkCounters(t, app)
	})
}

func TestPostValidation(t *testing.T) {
	body := func(fields string) string { return `{"title":"T","content":"C"` + fields + `}` }
	tags := func(n int) string { return `"` + strings.Repeat(`t","`, n-1) + `t"` }
	create := []struct{ name, body, field string }{
		{"title missing", `{"content":"C"}`, "title"},
		{"title blank", `{"title":"  ","content":"C"}`, "title"},
		{"title too long", `{"title":"` + strings.Repeat("é", 201) + `","content":"C"}`, "title"},
		{"title of two lines", `{"title":"a\nb","content":"C"}`, "title"},
		{"content missing", `{"title":"T"}`, "content"},
		{"content blank", `{"title":"T","content":" \n "}`, "content"},
		{"content too long", `{"title":"T","content":"` + strings.Repeat("c", 50_001) + `"}`, "content"},
		{"eleven tags", body(`,"tags":[` + tags(11) + `]`), "tags"},
		{"tag with an underscore", body(`,"tags":["ok","no_way"]`), "tags.1"},
		{"tag starting with a hyphen", body(`,"tags":["-x"]`), "tags.0"},
		{"tag of 33 characters", body(`,"tags":["` + strings.Repeat("a", 33) + `"]`), "tags.0"},
		{"empty tag", body(`,"tags":[""]`), "tags.0"},
		{"tags not a list", body(`,"tags":"go"`), "tags"},
		{"published not a boolean", body(`,"published":"yes"`), "published"},
		{"unknown field", body(`,"status":"published"`), "status"},
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, h := userWith(t, app, "ada@example.com")
		for _, tt := range create {
			t.Run("create/"+tt.name, func(t *testing.T) {
				wantError(t, apptest.DoBody(t, app, "POST", "/api/posts", h, tt.body), 422, api.CodeValidationError, tt.field)
			})
		}
		if res := apptest.DoBody(t, app, "POST", "/api/posts", h, `{"title":"`+strings.Repeat("é", 200)+`","content":"`+strings.Repeat("c", 50_000)+`","tags":[`+tags(10)+`]}`); res.Code != 201 {
			t.Errorf("a post at every limit: %d %s", res.Code, res.Body)
		}
		wantError(t, apptest.DoBody(t, app, "POST", "/api/posts", nil, body("")), 401, api.CodeUnauthorized, "")

		p := writePost(t, app, h, body(""))
		for _, tt := range []struct{ body, field string }{
			{`{}`, ""}, {`{"title":""}`, "title"}, {`{"content":""}`, "content"}, {`{"tags":["A B"]}`, "tags.0"}, {`{"author_id":"1"}`, "author_id"},
		} {
			wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, h, tt.body), 422, api.CodeValidationError, tt.field)
		}
		for _, q := range []string{"sort=popularity", "order=up", "published=maybe", "limit=0", "limit=101", "limit=x", "offset=-1", "author=abc", "author=0", "tag=no_way", "tag="} {
			field, _, _ := strings.Cut(q, "=")
			wantError(t, apptest.Do(t, app, "GET", "/api/posts?"+q, nil), 422, api.CodeValidationError, field)
		}
	})
}

func TestPostPermissions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		mod, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		p := writePost(t, app, adaH, `{"title":"Mine","content":"By Ada","published":true}`)
		draft := writePost(t, app, adaH, `{"title":"Secret","content":"Draft"}`)

		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, bobH, `{"title":"Bob's now"}`), 403, api.CodeForbidden, "")
		wantError(t, apptest.Do(t, app, "DELETE", "/api/posts/"+p.ID, bobH), 403, api.CodeForbidden, "")
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+draft.ID, bobH, `{"title":"x"}`), 404, api.CodeNotFound, "")
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, nil, `{"title":"x"}`), 401, api.CodeUnauthorized, "")
		if entries := auditActions(t, app); len(entries) != 0 {
			t.Errorf("a plain user's refusals are no admin action, yet audited: %v", entries)
		}

		// Staff do not rewrite someone else's post; the attempt is audited.
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, modH, `{"title":"Moderated title"}`), 403, api.CodeForbidden, "")
		if got := storedPost(t, app, p.ID); got.Title != "Mine" {
			t.Fatalf("a moderator's refused edit changed the title to %q", got.Title)
		}
		entries := app.AuditEntries(t)
		if len(entries) != 1 || entries[0].Action != "post.update" || entries[0].TargetType != "post" || entries[0].TargetID != p.ID ||
			*entries[0].AdminID != mod.ID || entries[0].Status != 403 {
			t.Fatalf("audit entries %+v, want the moderator's refused update", entries)
		}
		details, _ := json.Marshal(entries[0].Details)
		if want := `{"authorId":"` + itoa(ada.ID) + `"}`; string(details) != want {
			t.Errorf("audit details %s, want %s", details, want)
		}

		// A flagged post comes back only through a moderator.
		app.Store.DB.NewUpdate().Model((*models.Post)(nil)).Set("status = ?", models.PostFlagged).Where("id = ?", p.ID).Exec(context.Background())
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adaH, `{"published":true}`), 403, api.CodeForbidden, "")
		res := apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adaH, `{"published":false,"content":"Edited while flagged"}`)
		if got := decodeAs[api.Post](t, res); res.Code != 200 || got.Status != "flagged" || got.Content != "Edited while flagged" {
			t.Errorf("the author editing a flagged post keeps it flagged: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adminH, `{"published":true}`)
		if res.Code != 200 || decodeAs[api.Post](t, res).Status != "published" {
			t.Errorf("an admin republishing a flagged post: %d %s", res.Code, res.Body)
		}
		if e := lastEntry(t, app, "post.update"); e.Status == 200 {
			details, _ := json.Marshal(e.Details)
			if want := `{"after":{"status":"published"},"authorId":"` + itoa(ada.ID) + `","before":{"status":"flagged"}}`; string(details) != want {
				t.Errorf("the admin's republish audited with %s, want %s", details, want)
			}
		}

		// Deleting someone else's post needs admin:delete, which moderators lack.
		wantError(t, apptest.Do(t, app, "DELETE", "/api/posts/"+draft.ID, modH), 403, api.CodeForbidden, "")
		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+draft.ID, adminH); res.Code != 200 {
			t.Fatalf("an admin deleting someone's draft: %d %s", res.Code, res.Body)
		}
		got := auditActions(t, app)
		slices.Sort(got)
		// The author's refused republish of her flagged post is kept too.
		if want := []string{"post.delete post:" + draft.ID, "post.delete post:" + draft.ID, "post.update post:" + p.ID, "post.update post:" + p.ID, "post.update post:" + p.ID}; !slices.Equal(got, want) {
			t.Errorf("audit entries %v, want %v", got, want)
		}
		if n := postCount(t, app, ada.ID); n != 1 {
			t.Errorf("ada's post_count %d after an admin deleted one of her two posts, want 1", n)
		}
	})
}

func TestPostList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		_, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		a1 := writePost(t, app, adaH, `{"title":"Beta","content":"x","tags":["go"],"published":true}`)
		b1 := writePost(t, app, bobH, `{"title":"alpha","content":"x","tags":["go","web"],"published":true}`)
		a2 := writePost(t, app, adaH, `{"title":"Gamma","content":"x","tags":["web"],"published":true}`)
		aDraft := writePost(t, app, adaH, `{"title":"Ada's draft","content":"x","tags":["go"]}`)
		bDraft := writePost(t, app, bobH, `{"title":"Bob's draft","content":"x"}`)

		list := func(h http.Header, query string) string {
			t.Helper()
			res := apptest.Do(t, app, "GET", "/api/posts"+query, h)
			if res.Code != 200 {
				t.Fatalf("list %s: %d %s", query, res.Code, res.Body)
			}
			l := decodeAs[api.PostList](t, res)
			var ids []string
			for _, p := range l.Posts {
				ids = append(ids, p.ID)
			}
			return fmt.Sprintf("%s total=%d limit=%d offset=%d", strings.Join(ids, ","), l.Total, l.Limit, l.Offset)
		}
		ids := func(ps ...api.Post) string {
			var out []string
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return strings.Join(out, ",")
		}
		tests := []struct {
			name   string
			caller http.Header
			query  string
			want   string
		}{
			{"published, newest first", nil, "", ids(a2, b1, a1) + " total=3 limit=20 offset=0"},
			{"published=true", nil, "?published=true", ids(a2, b1, a1) + " total=3 limit=20 offset=0"},
			{"by author", nil, "?author=" + itoa(ada.ID), ids(a2, a1) + " total=2 limit=20 offset=0"},
			{"by tag, any case", nil, "?tag=GO", ids(b1, a1) + " total=2 limit=20 offset=0"},
			{"by title ascending", nil, "?sort=title&order=asc", ids(b1, a1, a2) + " total=3 limit=20 offset=0"},
			{"oldest first", nil, "?order=asc&sort=created_at", ids(a1, b1, a2) + " total=3 limit=20 offset=0"},
			{"a page", nil, "?limit=1&offset=1", ids(b1) + " total=3 limit=1 offset=1"},
			{"past the end", nil, "?offset=10", " total=3 limit=20 offset=10"},
			{"unpublished, anonymous", nil, "?published=false", " total=0 limit=20 offset=0"},
			{"unpublished, a user: its own", adaH, "?published=false", ids(aDraft) + " total=1 limit=20 offset=0"},
			{"unpublished, a user asking for another's", adaH, "?published=false&author=" + itoa(ada.ID+1), " total=0 limit=20 offset=0"},
			{"unpublished, a moderator: all", modH, "?published=false", ids(bDraft, aDraft) + " total=2 limit=20 offset=0"},
			{"unpublished by tag", modH, "?published=false&tag=go", ids(aDraft) + " total=1 limit=20 offset=0"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got := list(tt.caller, tt.query); got != tt.want {
					t.Errorf("got %s, want %s", got, tt.want)
				}
			})
		}
		// updated_at moves with an edit.
		apptest.DoBody(t, app, "PUT", "/api/posts/"+a1.ID, adaH, `{"content":"edited"}`)
		if got := list(nil, "?sort=updated_at"); got != ids(a1, a2, b1)+" total=3 limit=20 offset=0" {
			t.Errorf("by updated_at: %s", got)
		}
	})
}

// TestPostContentIsData: markup is stored and served byte for byte, and
// only ever as JSON data.
func TestPostContentIsData(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, h := userWith(t, app, "ada@example.com")
		content := "<script>alert(\"x\")</script>\n<img src=x onerror=alert(1)> &amp; ' \u2028 é \t end"
		body, _ := json.Marshal(api.NewPost{Title: "<b>bold</b>", Content: content, Published: true})
		p := writePost(t, app, h, string(body))
		res := apptest.Do(t, app, "GET", "/api/posts/"+p.ID, nil)
		got := decodeAs[api.Post](t, res)
		if got.Content != content || got.Title != "<b>bold</b>" {
			t.Errorf("content read back %q, want %q", got.Content, content)
		}
		if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || res.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("Content-Type %q, X-Content-Type-Options %q", ct, res.Header().Get("X-Content-Type-Options"))
		}
		if strings.Contains(res.Body.String(), "<script>") {
			t.Errorf("the raw body carries markup unescaped: %s", res.Body)
		}
		stored, err := app.Store.Posts.PostRecordByID(context.Background(), mustID(t, p.ID))
		if err != nil || stored.Content != content {
			t.Errorf("stored content %q, %v", stored.Content, err)
		}
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// report files a report and returns the response.
func report(t *testing.T, app *apptest.App, h http.Header, postID, reason string) *httptest.ResponseRecorder {
	t.Helper()
	return apptest.DoBody(t, app, "POST", "/api/posts/"+postID+"/report", h, `{"reason":"`+reason+`"}`)
}

// TestReportAutoFlag: reports from five seasoned accounts without a
// record (each weighing 1, trust.Weight) flag the post at the fifth.
func TestReportAutoFlag(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		_, adaH := userWith(t, app, "ada@example.com")
		p := writePost(t, app, adaH, `{"title":"Contested","content":"x","published":true}`)
		id := mustID(t, p.ID)
		const reporters = 5
		for i := range reporters {
			u, h := userWith(t, app, fmt.Sprintf("reporter%d@example.com", i))
			season(t, app, u.ID, trust.Seasoned)
			res := report(t, app, h, p.ID, "  spam  ")
			if res.Code != http.StatusCreated {
				t.Fatalf("report %d: %d %s", i, res.Code, res.Body)
			}
			r := decodeAs[api.Report](t, res)
			if r.ID == "" || r.PostID != p.ID || r.Reason != "spam" || r.Status != "open" || !strings.HasSuffix(r.CreatedAt, "Z") {
				t.Errorf("report body %s", res.Body)
			}
			post, err := app.Store.Posts.PostRecordByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := models.PostPublished
			if i == reporters-1 {
				want = models.PostFlagged
			}
			if post.Status != want || post.ReportCount != i+1 {
				t.Fatalf("after report %d by user %d: status %s, report_count %d; want %s, %d", i+1, u.ID, post.Status, post.ReportCount, want, i+1)
			}
		}
		var actions []models.ModerationAction
		if err := app.Store.DB.NewSelect().Model(&actions).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if len(actions) != 1 || actions[0].PostID != id || actions[0].AdminID != nil || actions[0].Action != "flag" || actions[0].PostTitle != "Contested" ||
			actions[0].FromStatus != "published" || actions[0].ToStatus != "flagged" || !contains(actions[0].Reason, "automatically") {
			t.Errorf("moderation records %+v, want one automatic flag", actions)
		}
		wantError(t, apptest.Do(t, app, "GET", "/api/posts/"+p.ID, nil), 404, api.CodeNotFound, "")
		if got := decodeAs[api.Post](t, apptest.Do(t, app, "GET", "/api/posts/"+p.ID, adaH)); got.Status != "flagged" || got.Published {
			t.Errorf("the author sees the flagged post as %+v", got)
		}
		// A sixth report on the flagged post is counted and flags nothing again.
		_, h := userWith(t, app, "sixth@example.com", access.RoleModerator)
		if res := report(t, app, h, p.ID, "me too"); res.Code != http.StatusCreated {
			t.Errorf("sixth report: %d %s", res.Code, res.Body)
		}
		if n, _ := app.Store.DB.NewSelect().Model((*models.ModerationAction)(nil)).Count(ctx); n != 1 {
			t.Errorf("%d moderation records after a sixth report, want 1", n)
		}
		checkCounters(t, app)
	})
}

func TestReportRules(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		_, adaH := userWith(t, app, "ada@example.com")
		bob, bobH := userWith(t, app, "bob@example.com")
		p := writePost(t, app, adaH, `{"title":"Post","content":"x","published":true}`)
		draft := writePost(t, app, adaH, `{"title":"Draft","content":"x"}`)

		wantError(t, report(t, app, adaH, p.ID, "mine"), 403, api.CodeForbidden, "")
		wantError(t, report(t, app, nil, p.ID, "spam"), 401, api.CodeUnauthorized, "")
		wantError(t, report(t, app, bobH, draft.ID, "spam"), 404, api.CodeNotFound, "")
		wantError(t, report(t, app, bobH, "999999", "spam"), 404, api.CodeNotFound, "")
		wantError(t, report(t, app, bobH, p.ID, "   "), 422, api.CodeValidationError, "reason")
		wantError(t, report(t, app, bobH, p.ID, strings.Repeat("r", 501)), 422, api.CodeValidationError, "reason")
		wantError(t, apptest.DoBody(t, app, "POST", "/api/posts/"+p.ID+"/report", bobH, `{"reason":"x","severity":9}`), 422, api.CodeValidationError, "severity")
		if res := report(t, app, bobH, p.ID, strings.Repeat("r", 500)); res.Code != 201 {
			t.Fatalf("first report: %d %s", res.Code, res.Body)
		}
		wantError(t, report(t, app, bobH, p.ID, "again"), 422, api.CodeValidationError, "id")

		// Once resolved, the same user may report the post again.
		app.Store.DB.NewUpdate().Model((*models.PostReport)(nil)).Set("status = ?", models.ReportResolved).Where("reporter_id = ?", bob.ID).Exec(ctx)
		if res := report(t, app, bobH, p.ID, "back again"); res.Code != 201 {
			t.Errorf("report after the first was resolved: %d %s", res.Code, res.Body)
		}
		post, _ := app.Store.Posts.PostRecordByID(ctx, mustID(t, p.ID))
		if post.ReportCount != 2 || post.Status != models.PostPublished {
			t.Errorf("report_count %d, status %s; want 2, published", post.ReportCount, post.Status)
		}
		checkCounters(t, app)
	})
}

// TestCountersFollowDeletions: deleting posts and users keeps every
// post_count and report_count equal to a recount.
func TestCountersFollowDeletions(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		bob, bobH := userWith(t, app, "bob@example.com")
		_, carolH := userWith(t, app, "carol@example.com")
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		a1 := writePost(t, app, adaH, `{"title":"A1","content":"x","published":true}`)
		a2 := writePost(t, app, adaH, `{"title":"A2","content":"x","published":true}`)
		b1 := writePost(t, app, bobH, `{"title":"B1","content":"x","published":true}`)
		for _, r := range []struct {
			h  http.Header
			id string
		}{{bobH, a1.ID}, {bobH, a2.ID}, {carolH, a1.ID}, {adaH, b1.ID}, {carolH, b1.ID}} {
			if res := report(t, app, r.h, r.id, "spam"); res.Code != 201 {
				t.Fatalf("report: %d %s", res.Code, res.Body)
			}
		}
		checkCounters(t, app)
		apptest.Do(t, app, "DELETE", "/api/posts/"+a2.ID, adaH)
		checkCounters(t, app)
		if res := apptest.Do(t, app, "DELETE", "/api/users/"+itoa(bob.ID), adminH); res.Code != 200 {
			t.Fatalf("deleting bob: %d %s", res.Code, res.Body)
		}
		checkCounters(t, app)
		post, _ := app.Store.Posts.PostRecordByID(context.Background(), mustID(t, a1.ID))
		if post.ReportCount != 1 || postCount(t, app, ada.ID) != 1 {
			t.Errorf("a1 report_count %d (want carol's 1), ada's post_count %d (want 1)", post.ReportCount, postCount(t, app, ada.ID))
		}
		wantError(t, apptest.Do(t, app, "GET", "/api/posts/"+b1.ID, nil), 404, api.CodeNotFound, "")
	})
}

// TestBannedUserCannotPost: a banned user's session ends, so it can
// neither post nor report; nothing is written.
func TestBannedUserCannotPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		_, adaH := userWith(t, app, "ada@example.com")
		eve, eveH := userWith(t, app, "eve@example.com")
		p := writePost(t, app, adaH, `{"title":"Post","content":"x","published":true}`)
		app.Store.DB.NewUpdate().Model((*models.User)(nil)).Set("status = 'banned'").Where("id = ?", eve.ID).Exec(ctx)
		wantError(t, apptest.DoBody(t, app, "POST", "/api/posts", eveH, `{"title":"T","content":"C","published":true}`), 401, api.CodeUnauthorized, "")
		wantError(t, report(t, app, eveH, p.ID, "spam"), 401, api.CodeUnauthorized, "")
		if postCount(t, app, eve.ID) != 0 {
			t.Error("the banned user's post was counted")
		}
		// Under the model too, should a banned caller slip past the pipeline.
		err := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: eve.ID, Title: "T", Content: "C", Published: true})
			return err
		})
		if !errors.Is(err, models.ErrUserNotActive) {
			t.Errorf("CreateUserPost for a banned user: %v, want ErrUserNotActive", err)
		}
	})
}
