package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// staffReadsFixture is a member's private profile, draft and hidden post,
// and an admin who has not enrolled in two-factor sign-in.
type staffReadsFixture struct {
	private       *models.User
	draft, hidden api.Post
	adminID       int64
}

func newStaffReadsFixture(t *testing.T, app *apptest.App) staffReadsFixture {
	var f staffReadsFixture
	var h http.Header
	f.private, h = userWith(t, app, "quiet.zebulon@example.com")
	res := apptest.DoBody(t, app, "PUT", "/api/users/"+itoa(f.private.ID), h, `{"name":"Zebulon Quiet","profile_public":false}`)
	if res.Code != 200 {
		t.Fatalf("making the profile private: %d %s", res.Code, res.Body)
	}
	f.draft = writePost(t, app, h, `{"title":"Zebulon draft","content":"unfinished thoughts"}`)
	f.hidden = writePost(t, app, h, `{"title":"Zebulon hidden","content":"taken down","published":true}`)
	setStatus(t, app, f.hidden.ID, models.PostHidden)
	admin, _ := userWith(t, app, "admin@example.com", access.RoleAdmin)
	f.adminID = admin.ID
	return f
}

// TestUnenrolledStaffReadsLikeAMember: under REQUIRE_STAFF_2FA, a staff
// session that has not enrolled in two-factor sign-in uses no staff power
// to read either. Where it does not ask for staff data it sees what a
// member sees (no private profiles, emails, statuses or unpublished
// posts); where it asks for staff data by name (published=false, a private
// profile or an unpublished post by id) it is refused with
// TWO_FACTOR_REQUIRED, as every admin route refuses it. Its own drafts stay
// its own to list. The same admin on an instance without the requirement
// sees everything, so the fixture does hold what is hidden.
func TestUnenrolledStaffReadsLikeAMember(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		lax := apptest.New(t, db)
		f := newStaffReadsFixture(t, lax)
		strict := apptest.New(t, db, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
		admin := strict.SessionFor(t, f.adminID)
		laxAdmin := lax.SessionFor(t, f.adminID)
		mine := writePost(t, strict, admin, `{"title":"The admin's own draft","content":"x"}`)

		for _, path := range []string{"/api/users?limit=100", "/api/search/users?q=Zebulon", "/api/search?q=Zebulon",
			"/api/search/posts?q=Zebulon", "/api/users/" + itoa(f.private.ID)} {
			if res := apptest.Do(t, lax, "GET", path, laxAdmin); res.Code != 200 || !strings.Contains(shown(res), "Zebulon") {
				t.Fatalf("control: an admin without the requirement, GET %s: %d %s", path, res.Code, res.Body)
			}
		}

		// Lists and searches: what a member sees.
		for _, path := range []string{"/api/users?limit=100", "/api/search/users?q=Zebulon", "/api/search?q=Zebulon", "/api/search/posts?q=Zebulon"} {
			res := apptest.Do(t, strict, "GET", path, admin)
			body := shown(res)
			if res.Code != 200 || strings.Contains(body, "Zebulon") || strings.Contains(body, f.private.Email) || strings.Contains(body, `"status"`) {
				t.Errorf("an unenrolled admin, GET %s: %d %s; want what a member sees", path, res.Code, body)
			}
		}
		// Staff data asked for by name: refused, with the reason.
		for _, path := range []string{"/api/posts?published=false", "/api/users/" + itoa(f.private.ID),
			"/api/posts/" + f.draft.ID, "/api/posts/" + f.hidden.ID} {
			wantError(t, apptest.Do(t, strict, "GET", path, admin), 403, api.CodeTwoFactorRequired, "")
		}
		// Its own drafts are no staff data.
		res := apptest.Do(t, strict, "GET", "/api/posts?published=false&author="+itoa(f.adminID), admin)
		if res.Code != 200 || !strings.Contains(res.Body.String(), mine.ID) || strings.Contains(res.Body.String(), "Zebulon") {
			t.Errorf("an unenrolled admin listing its own drafts: %d %s", res.Code, res.Body)
		}
		// A member asking the same is told nothing exists.
		member := strict.SessionFor(t, strict.User(t, "member@example.com").ID)
		if res := apptest.Do(t, strict, "GET", "/api/posts/"+f.draft.ID, member); res.Code != 404 {
			t.Errorf("a member reading someone's draft: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, strict, "GET", "/api/users/"+itoa(f.private.ID), member); res.Code != 404 {
			t.Errorf("a member reading a private profile: %d %s", res.Code, res.Body)
		}
	})
}

// shown is what an answer shows, without the search query it echoes.
func shown(res *httptest.ResponseRecorder) string {
	return strings.ReplaceAll(res.Body.String(), `"query":"Zebulon"`, "")
}
