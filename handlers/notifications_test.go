package handlers_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestInbox: moderation's notifications reach the author's inbox, unread
// first then newest; marking one read keeps its first time; another
// user's is 404, and the inbox needs a signed-in caller.
func TestInbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		admin, _ := app.Admin(t)
		author := app.User(t, "author@example.com")
		session := app.SessionFor(t, author.ID)
		newPostAs(t, app, author.ID, "First")
		newPostAs(t, app, author.ID, "Second")
		for _, title := range []string{"First", "Second"} {
			apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(postByTitle(t, db, title)), admin, `{"action":"flag","reason":"check","notifyAuthor":true}`)
		}
		type inbox struct {
			Notifications []struct {
				ID, Title, Message string
				ReadAt             *string
			}
			Unread, Total int
		}
		read := func() inbox {
			t.Helper()
			var got inbox
			res := apptest.Do(t, app, "GET", "/api/notifications", session)
			if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
				t.Fatalf("%d %s", res.Code, res.Body)
			}
			return got
		}
		got := read()
		if got.Total != 2 || got.Unread != 2 || got.Notifications[0].Message != `"Second": check` {
			t.Fatalf("inbox: %+v", got)
		}
		newest := got.Notifications[0].ID
		res := apptest.Do(t, app, "POST", "/api/notifications/"+newest+"/read", session)
		var first struct{ ReadAt *string }
		json.Unmarshal(res.Body.Bytes(), &first)
		if res.Code != 200 || first.ReadAt == nil {
			t.Fatalf("read: %d %s", res.Code, res.Body)
		}
		got = read()
		if got.Unread != 1 || got.Notifications[0].ReadAt != nil || got.Notifications[1].ID != newest {
			t.Errorf("unread first: %+v", got)
		}
		var again struct{ ReadAt *string }
		json.Unmarshal(apptest.Do(t, app, "POST", "/api/notifications/"+newest+"/read", session).Body.Bytes(), &again)
		if again.ReadAt == nil || *again.ReadAt != *first.ReadAt {
			t.Errorf("read twice: %v then %v", first.ReadAt, again.ReadAt)
		}
		other := app.SessionFor(t, app.User(t, "other@example.com").ID)
		if res := apptest.Do(t, app, "POST", "/api/notifications/"+newest+"/read", other); res.Code != 404 {
			t.Errorf("another user's notification: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", "/api/notifications", nil); res.Code != 401 {
			t.Errorf("anonymous: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", "/api/notifications?limit=0", session); res.Code != 422 {
			t.Errorf("limit=0: %d", res.Code)
		}
	})
}

// TestInboxDismiss: dismissing takes a notification or a broadcast out of
// the caller's inbox and its counts, for good, and counts as reading it
// (an unread broadcast dismissed counts among its reads); a second
// dismissal, another user's notification or a broadcast not addressed to
// the caller is 404, and other readers keep their copy.
func TestInboxDismiss(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		author := app.User(t, "author@example.com")
		other := app.User(t, "other@example.com")
		session, otherSession := app.SessionFor(t, author.ID), app.SessionFor(t, other.ID)
		newPostAs(t, app, author.ID, "First")
		apptest.DoBody(t, app, "POST", api.AdminV1ModeratePath(postByTitle(t, db, "First")), root, `{"action":"flag","reason":"check","notifyAuthor":true}`)
		b := sendBroadcast(t, app, root, `{"title":"Maintenance","message":"Down at noon","targets":["users"]}`)
		staff := sendBroadcast(t, app, root, `{"title":"Staff","message":"Admins only","targets":["admins"]}`)
		type inbox struct {
			Notifications []struct{ ID string }
			Unread, Total int
		}
		read := func(session http.Header) (got inbox) {
			t.Helper()
			res := apptest.Do(t, app, "GET", "/api/notifications", session)
			if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
				t.Fatalf("%d %s", res.Code, res.Body)
			}
			return got
		}
		got := read(session)
		if got.Total != 2 || got.Unread != 2 {
			t.Fatalf("inbox before: %+v", got)
		}
		own := got.Notifications[1].ID
		if got.Notifications[0].ID != "b"+b.ID {
			own = got.Notifications[0].ID
		}
		if res := apptest.Do(t, app, "DELETE", "/api/notifications/"+own, otherSession); res.Code != 404 {
			t.Errorf("another user's notification: %d", res.Code)
		}
		for _, id := range []string{own, "b" + b.ID} {
			if res := apptest.Do(t, app, "DELETE", "/api/notifications/"+id, session); res.Code != 204 || res.Body.Len() != 0 {
				t.Fatalf("dismiss %s: %d %q", id, res.Code, res.Body)
			}
			if res := apptest.Do(t, app, "DELETE", "/api/notifications/"+id, session); res.Code != 404 {
				t.Errorf("dismiss %s again: %d", id, res.Code)
			}
			if res := apptest.Do(t, app, "POST", "/api/notifications/"+id+"/read", session); res.Code != 404 {
				t.Errorf("read %s once dismissed: %d", id, res.Code)
			}
		}
		if got := read(session); got.Total != 0 || got.Unread != 0 || len(got.Notifications) != 0 {
			t.Errorf("inbox after dismissing both: %+v", got)
		}
		if got := read(otherSession); got.Total != 1 || got.Unread != 1 || got.Notifications[0].ID != "b"+b.ID {
			t.Errorf("another reader's inbox: %+v, want the broadcast still unread", got)
		}
		if got := broadcastByID(t, app, root, b.ID); got.Read != 1 {
			t.Errorf("the broadcast counts %d reads, want the dismissal's 1", got.Read)
		}
		for _, id := range []string{"b" + staff.ID, "b0", "x"} {
			if res := apptest.Do(t, app, "DELETE", "/api/notifications/"+id, session); res.Code != 404 {
				t.Errorf("dismiss %q: %d, want 404", id, res.Code)
			}
		}
		if res := apptest.Do(t, app, "DELETE", "/api/notifications/"+own, nil); res.Code != 401 {
			t.Errorf("anonymous: %d", res.Code)
		}
	})
}
