package handlers_test

import (
	"encoding/json"
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
