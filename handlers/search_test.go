package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func search(t *testing.T, a *apptest.App, h http.Header, path, q string) api.SearchResults {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	res := apptest.Do(t, a, "GET", path+sep+"q="+url.QueryEscape(q), h)
	if res.Code != 200 {
		t.Fatalf("%s?q=%s: %d %s", path, q, res.Code, res.Body)
	}
	var out api.SearchResults
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func ids(rs []api.SearchResult) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Type+":"+r.ID)
	}
	return out
}

func setPostStatus(t *testing.T, db *bun.DB, id, status string) {
	t.Helper()
	if _, err := db.NewUpdate().Model((*models.Post)(nil)).Set("status = ?", status).Where("id = ?", id).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestSearchPostsRanksAndHides(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		author := a.SessionFor(t, a.User(t, "ada@example.com").ID)
		titled := writePost(t, a, author, `{"title":"Moderation guidelines","content":"How we keep the garden friendly.","published":true}`)
		body := writePost(t, a, author, `{"title":"Garden news","content":"The committee discussed moderation of the notice board.","published":true}`)
		hidden := writePost(t, a, author, `{"title":"Moderation appeal","content":"Hidden by a moderator.","published":true}`)
		flagged := writePost(t, a, author, `{"title":"Moderation rant","content":"Flagged.","published":true}`)
		draft := writePost(t, a, author, `{"title":"Moderation draft","content":"Not yet.","published":false}`)
		setPostStatus(t, db, hidden.ID, models.PostHidden)
		setPostStatus(t, db, flagged.ID, models.PostFlagged)

		plain := a.SessionFor(t, a.User(t, "bob@example.com").ID)
		for name, h := range map[string]http.Header{"anonymous": nil, "plain user": plain} {
			got := search(t, a, h, "/api/search/posts", "moderation")
			if strings.Join(ids(got.Results), " ") != "post:"+titled.ID+" post:"+body.ID || got.Total != 2 {
				t.Errorf("%s: %v (total %d); want the title match, then the body match, and nothing hidden", name, ids(got.Results), got.Total)
			}
		}
		mod := a.SessionFor(t, a.User(t, "mod@example.com", access.RoleModerator).ID)
		got := search(t, a, mod, "/api/search/posts", "moderation")
		seen := strings.Join(ids(got.Results), " ")
		for _, p := range []api.Post{titled, body, hidden, flagged, draft} {
			if !strings.Contains(seen, "post:"+p.ID) {
				t.Errorf("a moderator does not find post %s (%s): %s", p.ID, p.Title, seen)
			}
		}
		if got.Results[0].Snippet == "" || !strings.Contains(search(t, a, nil, "/api/search/posts", "committee").Results[0].Snippet, "<mark>committee</mark>") {
			t.Errorf("snippets do not mark the match: %+v", got.Results)
		}
		if models.Dialect(db) == "postgres" {
			typo := search(t, a, nil, "/api/search/posts", "moderatoin")
			if len(typo.Results) == 0 || typo.Results[0].ID != titled.ID {
				t.Errorf("the typo moderatoin found %v, want %s first", ids(typo.Results), titled.ID)
			}
		}
	})
}

func TestSearchIsCurrentAfterWrites(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		author := a.SessionFor(t, a.User(t, "ada@example.com").ID)
		p := writePost(t, a, author, `{"title":"Compost workshop","content":"Bring a bucket.","published":true}`)
		if got := search(t, a, nil, "/api/search/posts", "compost"); len(got.Results) != 1 || got.Results[0].ID != p.ID {
			t.Fatalf("a new post is not found at once: %v", ids(got.Results))
		}
		res := apptest.DoBody(t, a, "PUT", api.PostPath(p.ID), author, `{"title":"Seed swap","content":"Bring seeds."}`)
		if res.Code != 200 {
			t.Fatalf("edit: %d %s", res.Code, res.Body)
		}
		if got := search(t, a, nil, "/api/search/posts", "compost"); len(got.Results) != 0 {
			t.Errorf("the old words still find the edited post: %v", ids(got.Results))
		}
		if got := search(t, a, nil, "/api/search/posts", "seeds"); len(got.Results) != 1 {
			t.Errorf("the new words do not find the edited post: %v", ids(got.Results))
		}
		if res := apptest.Do(t, a, "DELETE", api.PostPath(p.ID), author); res.Code != 200 && res.Code != 204 {
			t.Fatalf("delete: %d %s", res.Code, res.Body)
		}
		if got := search(t, a, nil, "/api/search/posts", "seeds"); len(got.Results) != 0 {
			t.Errorf("a deleted post is found: %v", ids(got.Results))
		}
	})
}

func TestSearchSnippetsAreSafe(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		author := a.SessionFor(t, a.User(t, "ada@example.com").ID)
		writePost(t, a, author, `{"title":"Tomatoes","content":"<script>alert(1)</script> tomatoes & <b>beans</b>","published":true}`)
		got := search(t, a, nil, "/api/search/posts", "beans")
		if len(got.Results) != 1 {
			t.Fatalf("%v", got)
		}
		s := got.Results[0].Snippet
		// SQLite shows the markup as escaped text; PostgreSQL's headline
		// leaves tags out. Neither lets one through.
		if strings.Contains(s, "<script") || strings.Contains(s, "<b>") || !strings.Contains(s, "&amp;") || !strings.Contains(s, "<mark>beans</mark>") {
			t.Errorf("snippet %q is not escaped text with marks", s)
		}
		a.User(t, "evil@example.com")
		if _, err := db.NewUpdate().Model((*models.User)(nil)).Set("name = ?", "<img src=x onerror=alert(1)>").
			Where("email = ?", "evil@example.com").Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		users := search(t, a, nil, "/api/search/users", "img")
		if len(users.Results) != 1 || strings.Contains(users.Results[0].Snippet, "<img") {
			t.Errorf("user snippet %+v", users.Results)
		}
	})
}

func TestSearchUsersVisibility(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		a.User(t, "gardener.kim@example.com")
		gus := a.User(t, "gardener.gus@example.com")
		hermit := a.User(t, "gardener.hermit@example.com")
		db.NewUpdate().Model((*models.User)(nil)).Set("profile_public = ?", false).Where("id = ?", hermit.ID).Exec(context.Background())
		if res := apptest.DoBody(t, a, "POST", api.AdminUserBanPath(gus.ID), admin, `{"reason":"spam"}`); res.Code != 200 {
			t.Fatal(res.Body)
		}
		plain := search(t, a, nil, "/api/search/users", "gardener")
		if len(plain.Results) != 1 || plain.Total != 1 || strings.Contains(plain.Results[0].Snippet, "@example.com") {
			t.Errorf("anonymous: %+v; want kim alone, without an email", plain)
		}
		if got := search(t, a, nil, "/api/search/users", "example.com"); got.Total != 0 {
			t.Errorf("anonymous callers search emails: %+v", got)
		}
		all := search(t, a, admin, "/api/search/users", "gardener")
		if all.Total != 3 {
			t.Errorf("an admin finds %d gardeners, want 3", all.Total)
		}
		for _, r := range all.Results {
			hasEmail := strings.Contains(r.Snippet, "example.com")
			if r.ID == strconv.FormatInt(gus.ID, 10) == hasEmail {
				t.Errorf("admin's result %+v: the banned user's email must be hidden, the others shown", r)
			}
		}
		if got := search(t, a, admin, "/api/search/users", "hermit@example"); got.Total != 1 {
			t.Errorf("an admin cannot search by email: %+v", got)
		}
		if models.Dialect(db) == "postgres" {
			if got := search(t, a, nil, "/api/search/users", "gardner"); got.Total == 0 {
				t.Errorf("a misspelt name finds nobody on PostgreSQL")
			}
		}
	})
}

func TestSearchAllAndValidation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		author := a.SessionFor(t, a.User(t, "rosa.rhubarb@example.com").ID)
		writePost(t, a, author, `{"title":"Rhubarb crumble","content":"A recipe.","published":true}`)
		got := search(t, a, nil, "/api/search", "rhubarb")
		kinds := strings.Join(ids(got.Results), " ")
		if got.Total != 2 || !strings.Contains(kinds, "post:") || !strings.Contains(kinds, "user:") || got.Query != "rhubarb" {
			t.Errorf("type=all: %+v", got)
		}
		if got.Results[0].Score != 1 || got.Results[1].Score != 1 {
			t.Errorf("each kind's best should score 1 after normalising: %+v", got.Results)
		}
		only := search(t, a, nil, "/api/search?type=posts&limit=5", "rhubarb")
		if len(only.Results) != 1 || only.Results[0].Type != "post" {
			t.Errorf("type=posts: %+v", only)
		}
		for _, q := range []string{"", "q=", "q=%20", "q=" + strings.Repeat("a", 201), "q=x&type=planets", "q=x&limit=0",
			"q=x&limit=101", "q=x&offset=-1", "q=x&limit=abc"} {
			res := apptest.Do(t, a, "GET", "/api/search?"+q, nil)
			var body api.GeneralError
			json.Unmarshal(res.Body.Bytes(), &body)
			if res.Code != 422 || body.Error.Code != "VALIDATION_ERROR" {
				t.Errorf("?%s: %d %s, want 422 VALIDATION_ERROR", q, res.Code, res.Body)
			}
		}
		if res := apptest.Do(t, a, "GET", "/api/search/posts?q="+url.QueryEscape(`"unbalanced AND (NEAR`), nil); res.Code != 200 {
			t.Errorf("search syntax in the query: %d %s", res.Code, res.Body)
		}
	})
}
