package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// v1PostList is the body of GET /api/v1/admin/posts.
type v1PostList struct {
	Data []struct {
		ID, Title, Status string
		Author            struct{ ID, Username, Status string }
		ReportCount       int
		Reports           []struct{ Reason, ReportedBy, Status string }
		LastModeration    *struct {
			Action string
			By     *string
		}
	}
	Meta struct{ Pagination struct{ Total int } }
}

func listV1Posts(t *testing.T, app *apptest.App, h http.Header, query string) v1PostList {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/v1/admin/posts?"+query, h)
	var got v1PostList
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
		t.Fatalf("%s: %d %s", query, res.Code, res.Body)
	}
	return got
}

func (l v1PostList) titles() []string {
	var out []string
	for _, p := range l.Data {
		out = append(out, p.Title)
	}
	return out
}

// postByTitle finds a post's id by its title.
func postByTitle(t *testing.T, db *bun.DB, title string) int64 {
	t.Helper()
	var id int64
	if err := db.NewSelect().Model((*models.Post)(nil)).Column("id").Where("title = ?", title).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestV1PostsAndModeration: the list's filters and record (author, open
// reports, last moderation), then each moderation action: approve resolves
// the open reports and drops the post from the reported list, hide and
// flag change the status, delete removes the row and keeps the record,
// and notifyAuthor fills the author's inbox.
func TestV1PostsAndModeration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, root := app.Admin(t)
		ada := app.User(t, "ada@example.com")
		bob := app.User(t, "bob@example.com")
		for _, title := range []string{"Seed swap", "Tomato blight", "Compost tea", "Bee hotel"} {
			newPostAs(t, app, ada.ID, title)
		}
		newPostAs(t, app, bob.ID, "Bob's shed")
		blight := postByTitle(t, db, "Tomato blight")
		for _, reporter := range []int64{bob.ID, root.ID} {
			res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(blight)), app.SessionFor(t, reporter), `{"reason":"off topic"}`)
			if res.Code != 201 && res.Code != 200 {
				t.Fatalf("report: %d %s", res.Code, res.Body)
			}
		}
		for query, want := range map[string][]string{
			"":                                   {"Bob's shed", "Bee hotel", "Compost tea", "Tomato blight", "Seed swap"},
			"author=" + itoa(bob.ID):             {"Bob's shed"},
			"reportedOnly=true":                  {"Tomato blight"},
			"openReports=true":                   {"Tomato blight"},
			"status=all":                         {"Bob's shed", "Bee hotel", "Compost tea", "Tomato blight", "Seed swap"},
			"status=ALL&author=" + itoa(bob.ID):  {"Bob's shed"},
			"needsReview=true":                   {"Tomato blight"},
			"reported=true&status=flagged":       nil,
			"search=TOMATO":                      {"Tomato blight"},
			"sort=title&order=asc&limit=2":       {"Bee hotel", "Bob's shed"},
			"sort=reportCount&limit=1":           {"Tomato blight"},
			"sort=created_at&order=asc&offset=4": {"Bob's shed"},
		} {
			if got := listV1Posts(t, app, admin, query).titles(); !slices.Equal(got, want) {
				t.Errorf("%q: %v, want %v", query, got, want)
			}
		}
		reported := listV1Posts(t, app, admin, "reported=true").Data[0]
		if reported.ReportCount != 2 || len(reported.Reports) != 2 || reported.Reports[0].Status != "open" ||
			reported.Author.Username != "ada" || reported.Author.Status != "active" || reported.LastModeration != nil {
			t.Errorf("the reported post: %+v", reported)
		}

		moderate := func(id int64, body string) (int, string) {
			res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(id), admin, body)
			return res.Code, res.Body.String()
		}
		if code, body := moderate(blight, `{"action":"approve","reason":"fine","notifyAuthor":true}`); code != 200 || !strings.Contains(body, `"status":"published"`) {
			t.Fatalf("approve: %d %s", code, body)
		}
		// Settled, the blight's reports leave the open-reports filter; it
		// stays a reported post.
		if n := listV1Posts(t, app, admin, "openReports=true").Meta.Pagination.Total; n != 0 {
			t.Errorf("after approve, %d posts still have open reports", n)
		}
		for _, query := range []string{"reported=true", "reportedOnly=true"} {
			if got := listV1Posts(t, app, admin, query); !slices.Equal(got.titles(), []string{"Tomato blight"}) || got.Meta.Pagination.Total != 1 {
				t.Errorf("%s after approve: %v (total %d), want the blight", query, got.titles(), got.Meta.Pagination.Total)
			}
		}
		// The console's queue narrows to open reports under their own name.
		page := apptest.Do(t, app, "GET", api.PathConsoleModeration, withHeader(admin, "Accept", "text/html")).Body.String()
		if !strings.Contains(page, `name="openReports"`) || strings.Contains(page, `name="reported"`) {
			t.Errorf("the queue's filter is not openReports")
		}
		for query, want := range map[string]string{"?openReports=true&needsReview=false": `"total":0`, "?reported=true&needsReview=false": `"Tomato blight"`} {
			if body := apptest.Do(t, app, "GET", api.PathConsoleModeration+query, admin).Body.String(); !strings.Contains(body, want) {
				t.Errorf("the queue's JSON %s: %s, want %s", query, body, want)
			}
		}
		after := listV1Posts(t, app, admin, "search=blight").Data[0]
		if after.LastModeration == nil || after.LastModeration.Action != "approve" || *after.LastModeration.By != "root" || after.Reports[0].Status != "dismissed" {
			t.Errorf("after approve: %+v", after)
		}
		tea := postByTitle(t, db, "Compost tea")
		for _, step := range [][2]string{{"hide", "hidden"}, {"flag", "flagged"}} { // in this order: the tea ends flagged
			if code, body := moderate(tea, `{"action":"`+step[0]+`"}`); code != 200 || !strings.Contains(body, `"status":"`+step[1]+`"`) {
				t.Errorf("%s: %d %s", step[0], code, body)
			}
		}
		// Approved, the blight awaits nothing; flagged, the tea does. The
		// totals of all posts and of the flagged ones come from counters.
		awaiting := listV1Posts(t, app, admin, "needsReview=true")
		if got := awaiting.titles(); !slices.Equal(got, []string{"Compost tea"}) || awaiting.Meta.Pagination.Total != 1 {
			t.Errorf("awaiting a decision: %v of %d", got, awaiting.Meta.Pagination.Total)
		}
		for query, want := range map[string]int{"": 5, "status=flagged": 1, "status=published": 4} {
			if n := listV1Posts(t, app, admin, query).Meta.Pagination.Total; n != want {
				t.Errorf("%q: total %d, want %d", query, n, want)
			}
		}
		seed := postByTitle(t, db, "Seed swap")
		if code, body := moderate(seed, `{"action":"delete","reason":"spam","notifyAuthor":true}`); code != 200 || body != `{"success":true,"data":{"deleted":true,"id":"`+itoa(seed)+`"}}`+"\n" {
			t.Errorf("delete: %d %s", code, body)
		}
		gone, _ := db.NewSelect().Model((*models.Post)(nil)).Where("id = ?", seed).Count(ctx)
		var records []models.ModerationAction
		db.NewSelect().Model(&records).OrderExpr("id").Scan(ctx)
		var inbox []models.Notification
		db.NewSelect().Model(&inbox).Where("user_id = ?", ada.ID).OrderExpr("id").Scan(ctx)
		if gone != 0 || len(records) != 4 || records[3].Action != "delete" || records[3].FromStatus != "published" || records[3].ToStatus != "deleted" ||
			records[0].FromStatus != "published" || records[0].ToStatus != "published" || *records[0].AdminID != root.ID {
			t.Errorf("after delete: %d rows left, records %+v", gone, records)
		}
		if len(inbox) != 2 || inbox[0].Title != "Your post was approved" || inbox[1].Type != "critical" || !strings.Contains(inbox[1].Message, "spam") {
			t.Errorf("the author's inbox: %+v", inbox)
		}
		if e := lastEntry(t, app, "post.moderate"); e.TargetID != itoa(seed) || e.Details["from"] != "published" {
			t.Errorf("the last post.moderate audit entry: %s %v", e.TargetID, e.Details)
		}
	})
}

// TestV1ModerationRefusals: 422 for a bad body and for approving a draft,
// 404, 403 for delete without admin:delete, 423 under another admin's
// lock, and 422 for bad list parameters.
func TestV1ModerationRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		author := app.User(t, "author@example.com")
		newPostAs(t, app, author.ID, "Published")
		err := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: "Draft", Content: "x"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		post, draft := postByTitle(t, db, "Published"), postByTitle(t, db, "Draft")
		for body, field := range map[string]string{`{}`: "action", `{"action":"bury"}`: "action", `{"action":"hide","extra":1}`: "extra",
			`{"action":"hide","reason":"` + strings.Repeat("r", 501) + `"}`: "reason"} {
			wantInvalid(t, app, "POST", api.AdminV1ModeratePath(post), admin, body, field)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(draft), admin, `{"action":"approve"}`); res.Code != 422 {
			t.Errorf("approving a draft: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(999999), admin, `{"action":"hide"}`); res.Code != 404 {
			t.Errorf("an unknown post: %d", res.Code)
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		// The route asks the moderation's own permission; the delete asks admin:delete besides.
		writer, _ := app.TokenFor(t, boss.ID, access.PermAdminRead, access.PermAdminWrite, access.PermPostsModerate)
		res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(post), writer, `{"action":"delete"}`)
		if e := decodeV1Error(t, res.Body.Bytes()); res.Code != 403 || e.Error.RequiredPermission != "admin:delete" {
			t.Errorf("delete without admin:delete: %d %s", res.Code, res.Body)
		}
		apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", app.SessionFor(t, boss.ID), `{"type":"post","id":"`+itoa(post)+`"}`)
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(post), admin, `{"action":"hide"}`); res.Code != 423 {
			t.Errorf("under another admin's lock: %d %s", res.Code, res.Body)
		}
		for query, field := range map[string]string{"status=gone": "status", "author=bob": "author", "reported=yes": "reported",
			"openReports=1": "openReports", "sort=author": "sort", "limit=0": "limit", "search=": "search"} {
			wantInvalid(t, app, "GET", "/api/v1/admin/posts?"+query, admin, "", field)
		}
	})
}

// TestV1BulkModeration: one decision for several posts, each with its
// moderation record and one audit entry for all; an unknown id, a draft to
// approve or another admin's lock on one of them changes nothing.
func TestV1BulkModeration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		author := app.User(t, "author@example.com")
		var ids []string
		for _, title := range []string{"One", "Two", "Three", "Four"} {
			newPostAs(t, app, author.ID, title)
			ids = append(ids, itoa(postByTitle(t, db, title)))
		}
		bulk := func(h http.Header, body string) (int, string) {
			res := apptest.DoBody(t, app, "POST", "/api/v1/admin/posts/bulk-moderate", h, body)
			return res.Code, res.Body.String()
		}
		records := func() int {
			n, _ := db.NewSelect().Model((*models.ModerationAction)(nil)).Count(ctx)
			return int(n)
		}
		code, body := bulk(admin, `{"postIds":["`+ids[0]+`","`+ids[1]+`","`+ids[0]+`","`+ids[2]+`"],"action":"hide","reason":"spam wave"}`)
		hidden, _ := db.NewSelect().Model((*models.Post)(nil)).Where("status = 'hidden'").Count(ctx)
		if code != 200 || !strings.Contains(body, `"moderated":3`) || hidden != 3 || records() != 3 {
			t.Fatalf("bulk hide: %d %s, %d hidden, %d records", code, body, hidden, records())
		}
		if e := lastEntry(t, app, "posts.bulk_moderate"); e.Details["count"] != float64(3) || e.Details["action"] != "hide" {
			t.Errorf("audit entry: %v", e.Details)
		}
		if code, body := bulk(admin, `{"postIds":["`+ids[3]+`","999999"],"action":"flag"}`); code != 404 || !strings.Contains(body, "999999") || records() != 3 {
			t.Errorf("an unknown id: %d %s, %d records", code, body, records())
		}
		err := app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: "Draft", Content: "x"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		draft := itoa(postByTitle(t, db, "Draft"))
		if code, body := bulk(admin, `{"postIds":["`+ids[0]+`","`+draft+`"],"action":"approve"}`); code != 422 || records() != 3 {
			t.Errorf("a draft among the approvals: %d %s, %d records", code, body, records())
		}
		many := make([]string, 201)
		for i := range many {
			many[i] = "1"
		}
		if code, _ := bulk(admin, `{"postIds":["`+strings.Join(many, `","`)+`"],"action":"hide"}`); code != 422 {
			t.Errorf("201 ids: %d", code)
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		writer, _ := app.TokenFor(t, boss.ID, access.PermAdminRead, access.PermAdminWrite, access.PermPostsModerate)
		if code, body := bulk(writer, `{"postIds":["`+ids[3]+`"],"action":"delete"}`); code != 403 || !strings.Contains(body, `"requiredPermission":"admin:delete"`) {
			t.Errorf("delete without admin:delete: %d %s", code, body)
		}
		apptest.DoBody(t, app, "POST", "/api/v1/admin/locks", app.SessionFor(t, boss.ID), `{"type":"post","id":"`+ids[3]+`"}`)
		if code, _ := bulk(admin, `{"postIds":["`+ids[2]+`","`+ids[3]+`"],"action":"flag"}`); code != 423 || records() != 3 {
			t.Errorf("under another admin's lock: %d, %d records", code, records())
		}
	})
}

// TestConsoleModerationRoutes: a moderator, whom the v1 routes refuse,
// lists, moderates and bulk-moderates posts through the console's queue
// routes with the v1 handlers' rules and audit actions, but cannot delete;
// htmx gets a toast and the plaza:posts event.
func TestConsoleModerationRoutes(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	app := apptest.New(t, db)
	author := app.User(t, "author@example.com")
	mod := app.SessionFor(t, app.User(t, "mod@example.com", access.RoleModerator).ID)
	newPostAs(t, app, author.ID, "Queue one")
	newPostAs(t, app, author.ID, "Queue two")
	one, two := postByTitle(t, db, "Queue one"), postByTitle(t, db, "Queue two")

	if res := apptest.Do(t, app, "GET", api.PathAdminV1Posts, mod); res.Code != 403 {
		t.Errorf("the v1 list for a moderator: %d", res.Code)
	}
	queue := func(query string) string {
		res := apptest.Do(t, app, "GET", api.PathConsoleModeration+query, mod)
		if res.Code != 200 {
			t.Errorf("the queue's JSON for a moderator (%s): %d %s", query, res.Code, res.Body)
		}
		return res.Body.String()
	}
	// The queue shows the posts awaiting a decision unless asked for all.
	if body := queue("?limit=5"); !strings.Contains(body, `"total":0`) {
		t.Errorf("the queue before any report or flag: %s", body)
	}
	if body := queue("?needsReview=false&limit=5"); !strings.Contains(body, `"Queue one"`) {
		t.Errorf("the queue's all posts: %s", body)
	}
	htmx := http.Header{}
	for k, v := range mod {
		htmx[k] = v
	}
	htmx.Set("HX-Request", "true")
	htmx.Set("Accept", "text/html")
	res := apptest.DoBody(t, app, "POST", api.ConsoleModeratePath(one), htmx, `{"action":"hide","reason":"Spam"}`)
	if res.Code != 200 || res.Body.Len() != 0 || !strings.Contains(res.Header().Get("HX-Trigger"), `"Post hidden: “Queue one”"`) ||
		!strings.Contains(res.Header().Get("HX-Trigger"), "plaza:posts") {
		t.Errorf("hide through the queue: %d %q %q", res.Code, res.Header().Get("HX-Trigger"), res.Body)
	}
	if e := lastEntry(t, app, "post.moderate"); e.TargetID != itoa(one) || e.Details["action"] != "hide" {
		t.Errorf("the post.moderate audit entry: %s %v", e.TargetID, e.Details)
	}
	res = apptest.DoBody(t, app, "POST", api.PathConsoleBulkModerate, mod, `{"postIds":["`+itoa(one)+`","`+itoa(two)+`"],"action":"flag"}`)
	if res.Code != 200 || !strings.Contains(res.Body.String(), `"moderated":2`) {
		t.Errorf("bulk flag through the queue: %d %s", res.Code, res.Body)
	}
	if e := lastEntry(t, app, "posts.bulk_moderate"); e.Details["count"] != float64(2) {
		t.Errorf("the posts.bulk_moderate audit entry: %v", e.Details)
	}
	if body := queue("?limit=5"); !strings.Contains(body, `"total":2`) {
		t.Errorf("the queue after flagging two posts: %s", body)
	}
	if res := apptest.DoBody(t, app, "POST", api.ConsoleModeratePath(two), mod, `{"action":"delete"}`); res.Code != 403 {
		t.Errorf("a moderator's delete: %d %s", res.Code, res.Body)
	}
	user := app.SessionFor(t, app.User(t, "someone@example.com").ID)
	if res := apptest.DoBody(t, app, "POST", api.ConsoleModeratePath(two), user, `{"action":"hide"}`); res.Code != 403 {
		t.Errorf("a user's moderation: %d %s", res.Code, res.Body)
	}
}

// TestModerationDeleteKeepsPostCount: a post deleted by moderation, one or
// in bulk, is counted out of its author's post_count like one its author
// deletes.
func TestModerationDeleteKeepsPostCount(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		ada := app.User(t, "ada@example.com")
		for _, title := range []string{"One", "Two", "Three"} {
			newPostAs(t, app, ada.ID, title)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(postByTitle(t, db, "One")), admin, `{"action":"delete"}`); res.Code != 200 {
			t.Fatalf("moderation delete: %d %s", res.Code, res.Body)
		}
		checkCounters(t, app)
		body := `{"postIds":["` + itoa(postByTitle(t, db, "Two")) + `"],"action":"delete"}`
		if res := apptest.DoBody(t, app, "POST", api.PathAdminV1BulkModerate, admin, body); res.Code != 200 {
			t.Fatalf("bulk moderation delete: %d %s", res.Code, res.Body)
		}
		checkCounters(t, app)
		if n := postCount(t, app, ada.ID); n != 1 {
			t.Errorf("ada's post_count %d, want 1", n)
		}
	})
}
