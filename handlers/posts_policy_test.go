package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// The general API's post routes are doors to the same post actions as the
// moderation routes: these tests hold them to the policy's rules, whoever
// comes through which door.

// storedPost reads a post straight from the database.
func storedPost(t *testing.T, app *apptest.App, id string) *models.PostRecord {
	t.Helper()
	p, err := app.Store.Posts.PostRecordByID(context.Background(), mustID(t, id))
	if err != nil {
		t.Fatalf("post %s: %v", id, err)
	}
	return p
}

// postGone reports whether no row has the post's id.
func postGone(t *testing.T, app *apptest.App, id string) bool {
	t.Helper()
	n, err := app.Store.DB.NewSelect().Model((*models.Post)(nil)).Where("id = ?", mustID(t, id)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n == 0
}

// setStatus puts a post in a status no API call gives directly (flagged
// by reports, say).
func setStatus(t *testing.T, app *apptest.App, id, status string) {
	t.Helper()
	_, err := app.Store.DB.NewUpdate().Model((*models.Post)(nil)).Set("status = ?", status).Where("id = ?", mustID(t, id)).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
}

// moderationRecords are a post's moderation records as "action by admin
// id", oldest first.
func moderationRecords(t *testing.T, app *apptest.App, id string) []string {
	t.Helper()
	var rows []models.ModerationAction
	err := app.Store.DB.NewSelect().Model(&rows).Where("post_id = ?", mustID(t, id)).OrderExpr("id").Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		by := "nobody"
		if r.AdminID != nil {
			by = itoa(*r.AdminID)
		}
		out = append(out, r.Action+" by "+by)
	}
	return out
}

// auditStatuses are the statuses of the stored audit entries of action on
// the post, oldest first.
func auditStatuses(t *testing.T, app *apptest.App, action, id string) []int {
	t.Helper()
	var out []int
	for _, e := range app.AuditEntries(t) {
		if e.Action == action && e.TargetID == id {
			out = append(out, e.Status)
		}
	}
	return out
}

// TestModeratorCannotDeleteOthersPost: deleting someone else's post needs
// admin:delete through the general API as through the moderation routes.
// A moderator's attempt is refused and audited, and the post stays; the
// moderator still deletes its own posts; an admin deletes anyone's.
func TestModeratorCannotDeleteOthersPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada, adaH := userWith(t, app, "ada@example.com")
		mod, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		admin, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		p := writePost(t, app, adaH, `{"title":"Ada's","content":"x","published":true}`)
		draft := writePost(t, app, adaH, `{"title":"Ada's draft","content":"x"}`)
		own := writePost(t, app, modH, `{"title":"The moderator's","content":"x","published":true}`)

		for _, id := range []string{p.ID, draft.ID} {
			wantError(t, apptest.Do(t, app, "DELETE", "/api/posts/"+id, modH), 403, api.CodeForbidden, "")
			if postGone(t, app, id) {
				t.Fatalf("a moderator deleted post %s through the general API", id)
			}
		}
		if got := auditStatuses(t, app, "post.delete", p.ID); len(got) != 1 || got[0] != 403 {
			t.Errorf("the moderator's refused delete is audited as %v, want [403]", got)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+own.ID, modH); res.Code != 200 || !postGone(t, app, own.ID) {
			t.Errorf("a moderator deleting its own post: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+p.ID, adminH); res.Code != 200 || !postGone(t, app, p.ID) {
			t.Fatalf("an admin deleting someone's post: %d %s", res.Code, res.Body)
		}
		e := lastEntry(t, app, "post.delete")
		if e.TargetID != p.ID || e.Status != 200 || e.AdminID == nil || *e.AdminID != admin.ID || e.Details["authorId"] != itoa(ada.ID) {
			t.Errorf("the admin's delete audited as %+v", e)
		}
		if n := postCount(t, app, ada.ID); n != 1 {
			t.Errorf("ada's post_count %d, want 1", n)
		}
		if n := postCount(t, app, mod.ID); n != 0 {
			t.Errorf("the moderator's post_count %d, want 0", n)
		}
		checkCounters(t, app)
	})
}

// TestStaffCannotRewriteOthersPost: only the author changes a post's
// title, content or tags. Moderators and admins are refused (and audited),
// with or without a published flag in the same request, and nothing
// changes; the author still edits.
func TestStaffCannotRewriteOthersPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, adaH := userWith(t, app, "ada@example.com")
		_, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		_, superH := userWith(t, app, "super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		p := writePost(t, app, adaH, `{"title":"Original","content":"Ada's words","tags":["mine"],"published":true}`)
		before := storedPost(t, app, p.ID)

		bodies := []string{`{"title":"Rewritten"}`, `{"content":"Someone else's words"}`, `{"tags":["theirs"]}`,
			`{"title":"Rewritten","published":true}`, `{"content":"x","published":false}`}
		refused := 0
		for name, h := range map[string]http.Header{"moderator": modH, "admin": adminH, "super admin": superH} {
			for _, body := range bodies {
				res := apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, h, body)
				if res.Code != 403 || decodeAs[generalError](t, res).Error.Code != api.CodeForbidden {
					t.Errorf("%s PUT %s on someone else's post: %d %s, want 403", name, body, res.Code, res.Body)
				}
				refused++
			}
		}
		after := storedPost(t, app, p.ID)
		if after.Title != before.Title || after.Content != before.Content || strings.Join(after.Tags(), ",") != "mine" ||
			after.Status != before.Status || !after.UpdatedAt.Equal(before.UpdatedAt) {
			t.Errorf("the post changed under refused edits: %+v, was %+v", after, before)
		}
		got := auditStatuses(t, app, "post.update", p.ID)
		if len(got) != refused {
			t.Errorf("%d refused staff edits audited, want %d: %v", len(got), refused, got)
		}
		for _, s := range got {
			if s != 403 {
				t.Errorf("a refused staff edit audited with status %d", s)
			}
		}
		res := apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adaH, `{"title":"Ada's own edit","content":"Still hers"}`)
		if got := decodeAs[api.Post](t, res); res.Code != 200 || got.Title != "Ada's own edit" || got.Content != "Still hers" {
			t.Errorf("the author's edit: %d %s", res.Code, res.Body)
		}
	})
}

// TestStaffPublishingOthersPostIsModeration: the published flag on someone
// else's post is moderation and needs what moderating needs: unpublishing
// a published post hides it (so that only a moderator brings it back), and
// republishing a hidden or flagged post is a moderator's, its author's own
// included. It only sets the status: reports stay open and no moderation
// record is kept (that is the moderation endpoint's approve). Publishing
// someone's draft is the author's alone.
func TestStaffPublishingOthersPostIsModeration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		_, adaH := userWith(t, app, "ada@example.com")
		_, bobH := userWith(t, app, "bob@example.com")
		mod, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		p := writePost(t, app, adaH, `{"title":"Contested","content":"x","published":true}`)
		draft := writePost(t, app, adaH, `{"title":"Not yet","content":"x"}`)
		if res := report(t, app, bobH, p.ID, "spam"); res.Code != 201 {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		put := func(h http.Header, id, body string) *api.Post {
			t.Helper()
			res := apptest.DoBody(t, app, "PUT", "/api/posts/"+id, h, body)
			if res.Code != 200 {
				t.Fatalf("PUT %s: %d %s", body, res.Code, res.Body)
			}
			got := decodeAs[api.Post](t, res)
			return &got
		}

		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, bobH, `{"published":false}`), 403, api.CodeForbidden, "")
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, bobH, `{"published":true}`), 403, api.CodeForbidden, "")
		if got := put(modH, p.ID, `{"published":false}`); got.Status != models.PostHidden || got.Published {
			t.Errorf("a moderator unpublishing someone's post leaves it %s, want hidden", got.Status)
		}
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+p.ID, adaH, `{"published":true}`), 403, api.CodeForbidden, "")
		if got := put(adaH, p.ID, `{"published":false,"content":"Edited while hidden"}`); got.Status != models.PostHidden || got.Content != "Edited while hidden" {
			t.Errorf("the author editing a hidden post: %+v", got)
		}
		setStatus(t, app, p.ID, models.PostFlagged)
		if got := put(modH, p.ID, `{"published":true}`); got.Status != models.PostPublished || got.Content != "Edited while hidden" {
			t.Errorf("a moderator republishing someone's flagged post: %+v", got)
		}
		if got := put(modH, p.ID, `{"published":true}`); got.Status != models.PostPublished {
			t.Errorf("republishing a published post: %+v", got)
		}
		open, err := app.Store.DB.NewSelect().Model((*models.PostReport)(nil)).
			Where("post_id = ? AND status = ?", mustID(t, p.ID), models.ReportOpen).Count(context.Background())
		if err != nil || open != 1 {
			t.Errorf("%d open reports after republishing through the general API (%v), want the 1 left open", open, err)
		}
		if got := moderationRecords(t, app, p.ID); len(got) != 0 {
			t.Errorf("moderation records of status changes through the general API: %v", got)
		}

		// Nobody decides on their own post's moderation: a moderator's own
		// flagged post comes back only through someone else.
		own := writePost(t, app, modH, `{"title":"The moderator's","content":"x","published":true}`)
		setStatus(t, app, own.ID, models.PostFlagged)
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+own.ID, modH, `{"published":true}`), 403, api.CodeSelfActionForbidden, "")
		if got := storedPost(t, app, own.ID); got.Status != models.PostFlagged {
			t.Errorf("a moderator's own flagged post is %s after its author republished it", got.Status)
		}

		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+draft.ID, modH, `{"published":true}`), 403, api.CodeForbidden, "")
		if got := storedPost(t, app, draft.ID); got.Status != models.PostDraft {
			t.Errorf("someone's draft is %s after a moderator tried to publish it", got.Status)
		}

		// The moderator's changes are audited with the status before and after.
		var changes []string
		for _, e := range app.AuditEntries(t) {
			before, _ := e.Details["before"].(map[string]any)
			after, _ := e.Details["after"].(map[string]any)
			if e.Action == "post.update" && e.TargetID == p.ID && e.Status == 200 && *e.AdminID == mod.ID && before != nil {
				changes = append(changes, fmt.Sprint(before["status"], "→", after["status"]))
			}
		}
		if got := strings.Join(changes, ", "); got != "published→hidden, flagged→published" {
			t.Errorf("the moderator's changes audited as %q", got)
		}
	})
}

// TestGeneralPostDeleteNeedsStaffSecondFactor: under REQUIRE_STAFF_2FA a
// staff session without two-factor sign-in uses no staff power on posts
// through the general API either: deleting or republishing someone else's
// post is refused with TWO_FACTOR_REQUIRED, while its own posts stay its
// to delete.
func TestGeneralPostDeleteNeedsStaffSecondFactor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
		_, adaH := userWith(t, app, "ada@example.com")
		_, adminH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		_, modH := userWith(t, app, "mod@example.com", access.RoleModerator)
		p := writePost(t, app, adaH, `{"title":"Ada's","content":"x","published":true}`)
		flagged := writePost(t, app, adaH, `{"title":"Flagged","content":"x","published":true}`)
		setStatus(t, app, flagged.ID, models.PostFlagged)
		mine := writePost(t, app, adminH, `{"title":"The admin's","content":"x","published":true}`)

		wantError(t, apptest.Do(t, app, "DELETE", "/api/posts/"+p.ID, adminH), 403, api.CodeTwoFactorRequired, "")
		if postGone(t, app, p.ID) {
			t.Fatal("an admin without two-factor sign-in deleted someone's post")
		}
		wantError(t, apptest.DoBody(t, app, "PUT", "/api/posts/"+flagged.ID, modH, `{"published":true}`), 403, api.CodeTwoFactorRequired, "")
		if got := storedPost(t, app, flagged.ID); got.Status != models.PostFlagged {
			t.Errorf("the flagged post is %s after a moderator without two-factor sign-in republished it", got.Status)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/posts/"+mine.ID, adminH); res.Code != 200 || !postGone(t, app, mine.ID) {
			t.Errorf("an admin deleting its own post: %d %s", res.Code, res.Body)
		}
	})
}

// TestBulkModerationNeedsConfirmation: a bulk decision asks a session for
// a recent confirmation (the policy's rule, through the v1 route and the
// console's alike); one decision does not, nor does a bearer token.
func TestBulkModerationNeedsConfirmation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := newClock()
		app := clockedApp(t, db, clock)
		admin, root := app.Admin(t)
		mod := app.SessionFor(t, app.User(t, "mod@example.com", access.RoleModerator).ID)
		token, _ := app.TokenFor(t, root.ID, access.PermAdminWrite, access.PermPostsModerate)
		newPostAs(t, app, app.User(t, "author@example.com").ID, "One")
		one := itoa(postByTitle(t, db, "One"))
		body := `{"postIds":["` + one + `"],"action":"flag"}`
		clock.Add(11 * time.Minute)

		res := apptest.DoBody(t, app, "POST", api.PathAdminV1BulkModerate, admin, body)
		if res.Code != 403 || decodeV1Error(t, res.Body.Bytes()).Error.Code != api.CodeSudoRequired || res.Header().Get(web.SudoHeader) != "required" {
			t.Errorf("v1 bulk after 11 minutes: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.PathConsoleBulkModerate, mod, body); res.Code != 403 || res.Header().Get(web.SudoHeader) != "required" {
			t.Errorf("console bulk after 11 minutes: %d %s", res.Code, res.Body)
		}
		if got := moderationRecords(t, app, one); len(got) != 0 {
			t.Errorf("unconfirmed bulk decisions recorded: %v", got)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(mustID(t, one)), admin, `{"action":"hide"}`); res.Code != 200 {
			t.Errorf("one decision after 11 minutes: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.PathAdminV1BulkModerate, token, body); res.Code != 200 {
			t.Errorf("a bearer token's bulk decision: %d %s", res.Code, res.Body)
		}
	})
}
