package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func lockBody(typ string, id any) string { return fmt.Sprintf(`{"type":%q,"id":"%v"}`, typ, id) }

// wantCode fails unless res answered status.
func wantCode(t *testing.T, what string, res interface {
	Result() *http.Response
}, status int) {
	t.Helper()
	if got := res.Result().StatusCode; got != status {
		t.Errorf("%s: got %d, want %d", what, got, status)
	}
}

// TestLocksGoThroughThePolicy: an edit lock holds back other admins'
// writes, so taking one is acting on the resource. Before, any admin:write
// holder locked their own record (and so could not be banned or demoted),
// a super admin's record, their own post, or a feature flag they may not
// change; nobody could break a lock, and a banned or demoted holder kept
// theirs.
func TestLocksGoThroughThePolicy(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		ada, adaH := userWith(t, a, "ada@example.com", access.RoleAdmin)
		_, bobH := userWith(t, a, "bob@example.com", access.RoleAdmin)
		root, rootH := userWith(t, a, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		plain, _ := userWith(t, a, "plain@example.com")
		post := createPost(t, a, ada.ID)

		wantCode(t, "ada locks her own record", apptest.DoBody(t, a, "POST", api.PathAdminLocks, adaH, lockBody("user", ada.ID)), 403)
		wantCode(t, "ada locks her own post", apptest.DoBody(t, a, "POST", api.PathAdminLocks, adaH, lockBody("post", post)), 403)
		wantCode(t, "ada locks a super admin's record", apptest.DoBody(t, a, "POST", api.PathAdminLocks, adaH, lockBody("user", root.ID)), 403)
		wantCode(t, "ada locks a feature flag", apptest.DoBody(t, a, "POST", api.PathAdminLocks, adaH, lockBody("feature_flag", "beta")), 403)
		wantCode(t, "root locks a feature flag", apptest.DoBody(t, a, "POST", api.PathAdminLocks, rootH, lockBody("feature_flag", "beta")), 201)

		// A peer cannot break ada's lock; a super admin can, audited.
		wantCode(t, "ada locks a member", apptest.DoBody(t, a, "POST", api.PathAdminLocks, adaH, lockBody("user", plain.ID)), 201)
		path := fmt.Sprintf("/api/v1/admin/locks/user/%d", plain.ID)
		wantCode(t, "bob breaks ada's lock", apptest.Do(t, a, "DELETE", path, bobH), 423)
		wantCode(t, "root breaks ada's lock", apptest.Do(t, a, "DELETE", path, rootH), 200)
		a.FlushAudit(t)
		broke := false
		for _, e := range a.AuditEntries(t) {
			broke = broke || e.Action == "lock.break" && e.TargetID == itoa(plain.ID) && e.Details["holder"] == itoa(ada.ID)
		}
		if !broke {
			t.Error("breaking ada's lock left no lock.break entry naming her")
		}
		wantCode(t, "bob locks the member once the lock is broken", apptest.DoBody(t, a, "POST", api.PathAdminLocks, bobH, lockBody("user", plain.ID)), 201)
		wantCode(t, "bob lets go of his lock", apptest.Do(t, a, "DELETE", path, bobH), 200)

		// A ban or a demotion of the holder ends their locks.
		for _, end := range []string{"ban", "demotion"} {
			held, heldH := userWith(t, a, end+"-holder@example.com", access.RoleAdmin)
			wantCode(t, end+": the holder locks a member", apptest.DoBody(t, a, "POST", api.PathAdminLocks, heldH, lockBody("user", plain.ID)), 201)
			method, target, body := "POST", fmt.Sprintf("/api/v1/admin/users/%d/ban", held.ID), `{"action":"ban","reason":"rogue"}`
			if end == "demotion" {
				method, target, body = "PUT", fmt.Sprintf("/api/v1/admin/users/%d", held.ID), `{"role":"user"}`
			}
			wantCode(t, end+" of the holder", apptest.DoBody(t, a, method, target, rootH, body), 200)
			wantCode(t, end+": bob locks the member", apptest.DoBody(t, a, "POST", api.PathAdminLocks, bobH, lockBody("user", plain.ID)), 201)
			wantCode(t, end+": bob lets go", apptest.Do(t, a, "DELETE", path, bobH), 200)
		}
	})
}

// createPost makes a published post by author and gives its id.
func createPost(t *testing.T, a *apptest.App, author int64) int64 {
	t.Helper()
	var id int64
	err := a.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := a.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: "Mine", Content: "x", Published: true})
		if err == nil {
			id = p.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func postStatus(t *testing.T, a *apptest.App, id int64) string {
	t.Helper()
	p, err := a.Store.Posts.PostRecordByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Status
}

// TestNobodyModeratesTheirOwnPost: a moderator published their own post
// again after a super admin hid it, and dismissed the reports against it,
// leaving no audit entry. Nobody decides on their own post's moderation,
// reversing a decision needs a role above whoever made it, and every
// status change is audited.
func TestNobodyModeratesTheirOwnPost(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		mod, modH := userWith(t, a, "mod@example.com", access.RoleModerator)
		_, peerH := userWith(t, a, "peer@example.com", access.RoleModerator)
		_, adminH := userWith(t, a, "admin@example.com", access.RoleAdmin)
		_, rootH := userWith(t, a, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		_, root2H := userWith(t, a, "root2@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		reporter, reporterH := userWith(t, a, "reporter@example.com")
		_ = reporter

		own := createPost(t, a, mod.ID)
		moderate := func(h http.Header, id int64, action string) int {
			return apptest.DoBody(t, a, "POST", fmt.Sprintf("/admin/moderation/%d", id), h, `{"action":"`+action+`"}`).Code
		}
		if code := apptest.DoBody(t, a, "POST", fmt.Sprintf("/api/posts/%d/report", own), reporterH, `{"reason":"spam"}`).Code; code != 201 {
			t.Fatalf("report: %d", code)
		}
		for _, action := range []string{"dismiss", "flag", "hide", "approve"} {
			if code := moderate(modH, own, action); code != 403 {
				t.Errorf("the author's own %s: %d, want 403", action, code)
			}
		}
		if code := moderate(rootH, own, "hide"); code != 200 {
			t.Fatalf("root hides the post: %d", code)
		}
		res := apptest.DoBody(t, a, "PUT", fmt.Sprintf("/api/posts/%d", own), modH, `{"published":true}`)
		wantCode(t, "the author publishes their hidden post again", res, 403)
		if s := postStatus(t, a, own); s != models.PostHidden {
			t.Errorf("the post is %s after its author's try, want hidden", s)
		}
		a.FlushAudit(t)
		tried := false
		for _, e := range a.AuditEntries(t) {
			tried = tried || e.Action == "post.update" && e.TargetID == itoa(own) && e.Status == 403
		}
		if !tried {
			t.Error("the author's refused try left no audit entry")
		}

		// Reversing root's hide needs a role above root's.
		for _, c := range []struct {
			name string
			h    http.Header
		}{{"a peer moderator", peerH}, {"an admin", adminH}} {
			if code := moderate(c.h, own, "approve"); code != 403 {
				t.Errorf("%s approves what a super admin hid: %d, want 403", c.name, code)
			}
		}
		if code := moderate(root2H, own, "approve"); code != 200 {
			t.Errorf("another super admin approves: %d, want 200", code)
		}

		// A moderator's hide of a member's post: a peer may not reverse it,
		// its maker may undo it, an admin may approve it.
		other := createPost(t, a, reporter.ID)
		if code := moderate(modH, other, "hide"); code != 200 {
			t.Fatalf("mod hides a member's post: %d", code)
		}
		if code := moderate(peerH, other, "approve"); code != 403 {
			t.Errorf("a peer approves a moderator's hide: %d, want 403", code)
		}
		if res := apptest.Do(t, a, "POST", fmt.Sprintf("/admin/moderation/%d/undo", other), modH); res.Code != 200 {
			t.Errorf("mod undoes their own hide: %d %s", res.Code, res.Body)
		}
		if code := moderate(modH, other, "hide"); code != 200 {
			t.Fatalf("mod hides it again: %d", code)
		}
		if code := moderate(adminH, other, "approve"); code != 200 {
			t.Errorf("an admin approves a moderator's hide: %d, want 200", code)
		}

		// The author's own status changes are audited too.
		draft := createPost(t, a, reporter.ID)
		wantCode(t, "the author unpublishes", apptest.DoBody(t, a, "PUT", fmt.Sprintf("/api/posts/%d", draft), reporterH, `{"published":false}`), 200)
		a.FlushAudit(t)
		kept := false
		for _, e := range a.AuditEntries(t) {
			after, _ := e.Details["after"].(map[string]any)
			kept = kept || e.Action == "post.update" && e.TargetID == itoa(draft) && after["status"] == models.PostDraft
		}
		if !kept {
			t.Error("the author's own status change left no audit entry")
		}
	})
}

// TestRankCoversNotesBlocksAndWebhooks: admins added notes and warnings
// to super admins, struck them by moderating their posts, blocked the addresses super admins sign in
// from, and redirected, rotated or deleted super admins' webhooks. Rank
// applies to every action on a person or what they own.
func TestRankCoversNotesBlocksAndWebhooks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, adminH := userWith(t, a, "admin@example.com", access.RoleAdmin)
		root, rootH := userWith(t, a, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		_, root2H := userWith(t, a, "root2@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		plain, _ := userWith(t, a, "plain@example.com")

		notes := func(id int64) string { return fmt.Sprintf("/api/v1/admin/users/%d/notes", id) }
		wantCode(t, "an admin warns a super admin", apptest.DoBody(t, a, "POST", notes(root.ID), adminH, `{"body":"careful","kind":"warning"}`), 403)
		wantCode(t, "an admin notes a super admin", apptest.DoBody(t, a, "POST", notes(root.ID), adminH, `{"body":"careful"}`), 403)
		wantCode(t, "an admin notes themself", apptest.DoBody(t, a, "POST", notes(admin.ID), adminH, `{"body":"me"}`), 403)
		wantCode(t, "an admin warns a member", apptest.DoBody(t, a, "POST", notes(plain.ID), adminH, `{"body":"careful","kind":"warning"}`), 201)
		wantCode(t, "a super admin warns a super admin", apptest.DoBody(t, a, "POST", notes(root.ID), root2H, `{"body":"careful","kind":"warning"}`), 201)

		// A decision against a post is a strike against its author.
		_, modH := userWith(t, a, "mod@example.com", access.RoleModerator)
		rootPost := createPost(t, a, root.ID)
		moderate := func(path string, h http.Header, action string) *httptest.ResponseRecorder {
			return apptest.DoBody(t, a, "POST", fmt.Sprintf(path, rootPost), h, `{"action":"`+action+`","reason":"strike"}`)
		}
		wantCode(t, "an admin hides a super admin's post", moderate("/api/v1/admin/posts/%d/moderate", adminH, "hide"), 403)
		wantCode(t, "a moderator flags a super admin's post", moderate("/admin/moderation/%d", modH, "flag"), 403)
		wantCode(t, "an admin deletes a super admin's post", apptest.Do(t, a, "DELETE", fmt.Sprintf("/api/posts/%d", rootPost), adminH), 403)
		if s := postStatus(t, a, rootPost); s != models.PostPublished {
			t.Errorf("the super admin's post is %s after the refusals", s)
		}
		wantCode(t, "a super admin hides a super admin's post", moderate("/api/v1/admin/posts/%d/moderate", root2H, "hide"), 200)

		if err := a.Store.Users.RecordLogin(context.Background(), root.ID, "password", "198.51.100.7", "test"); err != nil {
			t.Fatal(err)
		}
		block := func(value string) string { return `{"kind":"ip","value":"` + value + `","reason":"abuse"}` }
		wantCode(t, "an admin blocks a super admin's address", apptest.DoBody(t, a, "POST", api.PathAdminV1Blocks, adminH, block("198.51.100.0/24")), 403)
		wantCode(t, "an admin blocks another range", apptest.DoBody(t, a, "POST", api.PathAdminV1Blocks, adminH, block("203.0.113.0/24")), 201)
		wantCode(t, "a super admin blocks it", apptest.DoBody(t, a, "POST", api.PathAdminV1Blocks, root2H, block("198.51.100.7")), 201)

		hook := registerWebhook(t, a, rootH, "https://hooks.example.com/root", "user.banned")
		mine := registerWebhook(t, a, adminH, "https://hooks.example.com/admin", "user.banned")
		at := func(id, tail string) string { return api.PathAdminWebhooks + "/" + id + tail }
		wantCode(t, "an admin redirects a super admin's webhook", apptest.DoBody(t, a, "PATCH", at(hook.ID, ""), adminH, `{"url":"https://evil.example.com/"}`), 403)
		wantCode(t, "an admin rotates a super admin's webhook", apptest.Do(t, a, "POST", at(hook.ID, "/rotate-secret"), adminH), 403)
		wantCode(t, "an admin tests a super admin's webhook", apptest.Do(t, a, "POST", at(hook.ID, "/test"), adminH), 403)
		wantCode(t, "an admin deletes a super admin's webhook", apptest.Do(t, a, "DELETE", at(hook.ID, ""), adminH), 403)
		got, err := a.Store.Hooks.WebhookByID(context.Background(), mustID(t, hook.ID))
		if err != nil || got.URL != "https://hooks.example.com/root" {
			t.Errorf("the super admin's webhook after the refusals: %+v %v", got, err)
		}
		wantCode(t, "an admin redirects their own webhook", apptest.DoBody(t, a, "PATCH", at(mine.ID, ""), adminH, `{"url":"https://hooks.example.com/other"}`), 200)
		wantCode(t, "a super admin rotates another's webhook", apptest.Do(t, a, "POST", at(hook.ID, "/rotate-secret"), root2H), 200)
	})
}
