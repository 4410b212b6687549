package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// holdPosts sets the hold of new accounts' posts through the versioned
// route.
func holdPosts(t *testing.T, app *apptest.App, admin http.Header, body string) api.NewAccountPosts {
	t.Helper()
	res := apptest.DoBody(t, app, "PUT", api.PathAdminV1NewAccountPosts, admin, body)
	if res.Code != 200 {
		t.Fatalf("hold %s: %d %s", body, res.Code, res.Body)
	}
	var out struct{ Data api.NewAccountPosts }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out.Data
}

// seen is what a caller finds of the post titled title: its page's status
// (the post's own route), whether the default list and the search show it.
func seen(t *testing.T, app *apptest.App, h http.Header, id, title string) (int, bool, bool) {
	t.Helper()
	page := apptest.Do(t, app, "GET", "/api/posts/"+id, h).Code
	list := apptest.Do(t, app, "GET", "/api/posts?limit=100", h).Body.String()
	found := apptest.Do(t, app, "GET", "/api/search/posts?q="+url.QueryEscape(title), h).Body.String()
	return page, strings.Contains(list, `"`+title+`"`), strings.Contains(found, `"id":"`+id+`"`)
}

// TestFirstPostsHeldForApproval: with the first two posts held, a new
// account's first two posts are stored pending: its author reads them
// ("awaiting approval" in the console, status pending in the API, among
// its unpublished posts); anyone else finds them nowhere (post page, list,
// search). They wait in the moderation queue marked "new account". The
// author deleting one does not start the count again: the third post is
// published at once. A draft published for the first time counts as a
// post put up and is held. Approving publishes a held post for everyone;
// hiding one (a rejection) keeps it out of view and out of the queue. A
// moderator's own posts are never held. The author is told nothing unless
// tellAuthor is on.
func TestFirstPostsHeldForApproval(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		if got := holdPosts(t, app, admin, `{"holdFirst":2}`); got != (api.NewAccountPosts{HoldFirst: 2}) {
			t.Fatalf("setting: %+v", got)
		}
		_, ada := userWith(t, app, "ada@example.com")
		_, eve := userWith(t, app, "eve@example.com")

		first := writePost(t, app, ada, `{"title":"Cheap watches","content":"x","published":true}`)
		second := writePost(t, app, ada, `{"title":"Second try","content":"x","published":true}`)
		for _, p := range []api.Post{first, second} {
			if p.Status != api.PostPending || p.Published {
				t.Fatalf("%q as created: status %s, published %v; want pending", p.Title, p.Status, p.Published)
			}
		}
		for name, h := range map[string]http.Header{"anonymous": nil, "another member": eve} {
			if page, listed, found := seen(t, app, h, first.ID, first.Title); page != 404 || listed || found {
				t.Errorf("%s finds the held post: page %d, listed %v, found %v", name, page, listed, found)
			}
		}
		if page, _, _ := seen(t, app, ada, first.ID, first.Title); page != 200 {
			t.Errorf("its author reads the held post: %d", page)
		}
		if mine := apptest.Do(t, app, "GET", "/api/posts?published=false", ada).Body.String(); !strings.Contains(mine, `"status":"pending"`) {
			t.Errorf("the author's unpublished posts leave out the held one: %s", mine)
		}
		if got := listV1Posts(t, app, admin, "needsReview=true").titles(); !slices.Equal(got, []string{"Second try", "Cheap watches"}) &&
			!slices.Equal(got, []string{"Cheap watches", "Second try"}) {
			t.Errorf("awaiting a decision: %v, want both held posts", got)
		}
		queue := apptest.Do(t, app, "GET", "/admin/moderation?status=pending", withHeader(admin, "Accept", "text/html")).Body.String()
		if !strings.Contains(queue, `data-testid="new-account"`) || !strings.Contains(queue, `data-state="pending">Awaiting approval`) {
			t.Errorf("the queue does not mark held posts:\n%.3000s", queue)
		}
		if inbox := apptest.Do(t, app, "GET", "/api/notifications", ada).Body.String(); strings.Contains(inbox, "awaits approval") {
			t.Errorf("the author was told of the hold with tellAuthor off: %s", inbox)
		}

		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+second.ID, ada); res.Code != 200 {
			t.Fatalf("the author deletes a held post: %d %s", res.Code, res.Body)
		}
		if third := writePost(t, app, ada, `{"title":"Third","content":"x","published":true}`); third.Status != api.PostPublished {
			t.Errorf("the third post after a deleted second: %s, want published (deleting does not start the count again)", third.Status)
		}

		// Approve publishes; the decision is recorded and audited.
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(mustID(t, first.ID)), admin, `{"action":"approve","reason":"fine"}`); res.Code != 200 {
			t.Fatalf("approve: %d %s", res.Code, res.Body)
		}
		if page, listed, found := seen(t, app, nil, first.ID, first.Title); page != 200 || !listed || !found {
			t.Errorf("after approval an anonymous reader: page %d, listed %v, found %v", page, listed, found)
		}
		if e := lastEntry(t, app, "post.moderate"); e.TargetID != first.ID || e.Details["action"] != "approve" || e.Details["from"] != api.PostPending {
			t.Errorf("the approval's audit entry: %s:%s %v", e.TargetType, e.TargetID, e.Details)
		}

		// A draft published for the first time is put up: held, and the
		// author told once tellAuthor is on. Hide rejects it.
		holdPosts(t, app, admin, `{"tellAuthor":true}`)
		_, bob := userWith(t, app, "bob@example.com")
		draft := writePost(t, app, bob, `{"title":"Quiet draft","content":"x"}`)
		res := apptest.DoBody(t, app, "PUT", "/api/posts/"+draft.ID, bob, `{"published":true}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"status":"pending"`) {
			t.Fatalf("publishing a new account's draft: %d %s, want pending", res.Code, res.Body)
		}
		if inbox := apptest.Do(t, app, "GET", "/api/notifications", bob).Body.String(); !strings.Contains(inbox, "Your post awaits approval") {
			t.Errorf("with tellAuthor on the author is not told: %s", inbox)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(mustID(t, draft.ID)), admin, `{"action":"hide","reason":"spam"}`); res.Code != 200 {
			t.Fatalf("reject: %d %s", res.Code, res.Body)
		}
		if page, listed, found := seen(t, app, eve, draft.ID, draft.Title); page != 404 || listed || found {
			t.Errorf("a rejected post is seen: page %d, listed %v, found %v", page, listed, found)
		}
		if got := listV1Posts(t, app, admin, "needsReview=true").titles(); len(got) != 0 {
			t.Errorf("after the decisions still awaiting: %v", got)
		}

		_, mod := userWith(t, app, "mod@example.com", api.RoleModerator)
		if p := writePost(t, app, mod, `{"title":"House rules","content":"x","published":true}`); p.Status != api.PostPublished {
			t.Errorf("a new moderator's post: %s, want published (staff are never held)", p.Status)
		}
	})
}

// TestPostsHeldForTheFirstDays: with posts held for 7 days, every post of
// an account younger than that is held, however many it wrote; an account
// of 8 days publishes at once.
func TestPostsHeldForTheFirstDays(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		holdPosts(t, app, admin, `{"holdDays":7}`)
		_, fresh := userWith(t, app, "fresh@example.com")
		for i := range 4 {
			if p := writePost(t, app, fresh, `{"title":"Fresh `+itoa(int64(i))+`","content":"x","published":true}`); p.Status != api.PostPending {
				t.Fatalf("a 0-day account's post %d: %s, want pending", i+1, p.Status)
			}
		}
		old, oldH := userWith(t, app, "old@example.com")
		season(t, app, old.ID, 8*24*time.Hour)
		if p := writePost(t, app, oldH, `{"title":"Seasoned","content":"x","published":true}`); p.Status != api.PostPublished {
			t.Errorf("an 8-day account's post: %s, want published", p.Status)
		}
		holdPosts(t, app, admin, `{"holdDays":0}`)
		if p := writePost(t, app, fresh, `{"title":"Fresh again","content":"x","published":true}`); p.Status != api.PostPublished {
			t.Errorf("with the hold off: %s, want published", p.Status)
		}
	})
}

// TestNewAccountPostsSetting: the setting is off until set; admins change
// it through the versioned route and the console (JSON, htmx and a plain
// form), each change audited with before and after; out-of-range numbers
// and an empty body are refused on their field, the console's form with
// the refusal under its field; moderators may not change it.
func TestNewAccountPostsSetting(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		var got struct{ Data api.NewAccountPosts }
		if err := json.Unmarshal(apptest.Do(t, app, "GET", api.PathAdminV1NewAccountPosts, admin).Body.Bytes(), &got); err != nil || got.Data != (api.NewAccountPosts{}) {
			t.Fatalf("before any change: %+v, %v; want off", got.Data, err)
		}
		holdPosts(t, app, admin, `{"holdFirst":5,"holdDays":3}`)
		e := lastEntry(t, app, "new_account_posts.update")
		before, after := e.Details["before"].(map[string]any), e.Details["after"].(map[string]any)
		if e.TargetType != "settings" || before["holdFirst"] != 0.0 || after["holdFirst"] != 5.0 || after["holdDays"] != 3.0 || after["tellAuthor"] != false {
			t.Errorf("audit entry %s:%s %v", e.TargetType, e.TargetID, e.Details)
		}

		for body, field := range map[string]string{`{"holdFirst":51}`: "holdFirst", `{"holdDays":91}`: "holdDays", `{"holdDays":-1}`: "holdDays"} {
			res := apptest.DoBody(t, app, "PUT", api.PathAdminV1NewAccountPosts, admin, body)
			var v v1Error
			_ = json.Unmarshal(res.Body.Bytes(), &v)
			if res.Code != 422 || v.Error.Code != "VALIDATION_ERROR" || v.Error.Details.Field != field {
				t.Errorf("%s: %d %s, want 422 on %s", body, res.Code, res.Body, field)
			}
		}
		if res := apptest.DoBody(t, app, "PUT", api.PathAdminV1NewAccountPosts, admin, `{}`); res.Code != 422 {
			t.Errorf("an empty body: %d %s", res.Code, res.Body)
		}
		_, mod := userWith(t, app, "mod@example.com", api.RoleModerator)
		if res := apptest.DoBody(t, app, "POST", api.PathConsoleNewAccounts, mod, `{"holdFirst":1}`); res.Code != 403 {
			t.Errorf("a moderator changes the setting in the console: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", api.PathConsoleNewAccounts, withHeader(mod, "Accept", "text/html")); res.Code != 403 {
			t.Errorf("a moderator opens the page: %d", res.Code)
		}
		if got := holdPosts(t, app, admin, `{"holdFirst":4}`); got != (api.NewAccountPosts{HoldFirst: 4, HoldDays: 3}) {
			t.Errorf("a change of one field: %+v, want the others kept", got)
		}

		form := withHeader(admin, "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		res := apptest.DoBody(t, app, "POST", api.PathConsoleNewAccounts, form, url.Values{"holdFirst": {"abc"}, "holdDays": {"1"}}.Encode())
		if body := res.Body.String(); res.Code != 422 || !strings.Contains(body, "holdFirst must be a whole number") || !strings.Contains(body, `aria-invalid="true"`) {
			t.Errorf("a refused plain form: %d\n%.2000s", res.Code, body)
		}
		res = apptest.DoBody(t, app, "POST", api.PathConsoleNewAccounts, form, url.Values{"holdFirst": {"60"}, "holdDays": {"1"}}.Encode())
		if body := res.Body.String(); res.Code != 422 || !strings.Contains(body, "holdFirst must be 0 (off) to 50 posts") || !strings.Contains(body, `value="60"`) {
			t.Errorf("a plain form out of range: %d\n%.2000s", res.Code, body)
		}
		res = apptest.DoBody(t, app, "POST", api.PathConsoleNewAccounts, form, url.Values{"holdFirst": {"2"}, "holdDays": {"0"}, "tellAuthor": {"true"}}.Encode())
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != api.PathConsoleNewAccounts+"?saved=1" {
			t.Fatalf("a plain form saved: %d %s", res.Code, res.Header().Get("Location"))
		}
		page := apptest.Do(t, app, "GET", api.PathConsoleNewAccounts+"?saved=1", withHeader(admin, "Accept", "text/html")).Body.String()
		if !strings.Contains(page, `data-testid="new-account-posts-saved"`) || !strings.Contains(page, `value="2"`) || !strings.Contains(page, `checked`) {
			t.Errorf("the page after saving:\n%.3000s", page)
		}
		// The box left unticked sends nothing, and turns it off.
		htmx := withHeader(admin, "HX-Request", "true", "Accept", "text/html", "Content-Type", "application/x-www-form-urlencoded")
		res = apptest.DoBody(t, app, "POST", api.PathConsoleNewAccounts, htmx, url.Values{"holdFirst": {"2"}, "holdDays": {"0"}}.Encode())
		if res.Code != 200 || !strings.Contains(res.Body.String(), `id="new-account-posts"`) || !strings.Contains(res.Header().Get("HX-Trigger"), "New accounts' posts saved") {
			t.Errorf("htmx: %d %q\n%.500s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
		if got := holdPosts(t, app, admin, `{"holdDays":0}`); got.TellAuthor {
			t.Error("unticking tellAuthor in the form left it on")
		}
	})
}
