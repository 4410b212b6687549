package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// v1Broadcast is a broadcast as the API answers it.
type v1Broadcast struct {
	ID, Title, Message, Type, Schedule, Status string
	Targets                                    []string
	Recipients, Delivered, Read                int
	SentAt, DeliveredAt                        *string
}

func sendBroadcast(t *testing.T, app *apptest.App, h http.Header, body string) v1Broadcast {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/v1/admin/notifications/broadcast", h, body)
	var out struct{ Data v1Broadcast }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 201 {
		t.Fatalf("broadcast %s: %d %s", body, res.Code, res.Body)
	}
	return out.Data
}

func broadcastByID(t *testing.T, app *apptest.App, h http.Header, id string) v1Broadcast {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/v1/admin/notifications/broadcasts?limit=100", h)
	var out struct{ Data []v1Broadcast }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 200 {
		t.Fatalf("history: %d %s", res.Code, res.Body)
	}
	for _, b := range out.Data {
		if b.ID == id {
			return b
		}
	}
	t.Fatalf("broadcast %s is not in the history", id)
	return v1Broadcast{}
}

// inboxTitles are the titles in users' inboxes, by user id.
func inboxTitles(t *testing.T, app *apptest.App, users ...int64) map[int64][]string {
	t.Helper()
	out := map[int64][]string{}
	for _, u := range users {
		res := apptest.Do(t, app, "GET", "/api/notifications?limit=100", app.SessionFor(t, u))
		var inbox struct {
			Notifications []struct{ Title, Message, Type string }
		}
		if err := json.Unmarshal(res.Body.Bytes(), &inbox); err != nil || res.Code != 200 {
			t.Fatalf("inbox of %d: %d %s", u, res.Code, res.Body)
		}
		out[u] = []string{}
		for _, n := range inbox.Notifications {
			out[u] = append(out[u], n.Title)
		}
	}
	return out
}

// TestBroadcastTargets: each target kind is in exactly its users' inboxes
// the moment the API answers, with no job run, and with the text,
// recipients and delivery right; the sender is told of each, and the audit
// entry keeps it.
func TestBroadcastTargets(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db) // no job queue working
		root, rootUser := app.Admin(t)
		plain1, plain2 := app.User(t, "plain1@example.com"), app.User(t, "plain2@example.com")
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		admin := app.User(t, "admin@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		everyone := []int64{rootUser.ID, plain1.ID, plain2.ID, mod.ID, admin.ID}
		cases := []struct {
			targets string
			want    []int64
		}{
			{`["all"]`, everyone},
			{`["users"]`, []int64{plain1.ID, plain2.ID}},
			{`["moderators"]`, []int64{mod.ID}},
			{`["admins"]`, []int64{rootUser.ID, admin.ID}},
			{fmt.Sprintf(`["user:%d"]`, plain2.ID), []int64{plain2.ID}},
			{fmt.Sprintf(`["moderators","user:%d","moderators"]`, plain1.ID), []int64{plain1.ID, mod.ID}},
		}
		for i, c := range cases {
			title := "Notice " + itoa(int64(i))
			b := sendBroadcast(t, app, root, `{"title":"`+title+`","message":"Read me","type":"warning","targets":`+c.targets+`}`)
			if b.Status != "sent" || b.Recipients != len(c.want) || b.Delivered != len(c.want) || b.Schedule != "immediate" ||
				b.SentAt == nil || b.DeliveredAt == nil || *b.DeliveredAt != *b.SentAt {
				t.Errorf("%s: answered %+v, want sent to %d", c.targets, b, len(c.want))
			}
			inboxes := inboxTitles(t, app, everyone...)
			for _, u := range everyone {
				if got, want := slices.Contains(inboxes[u], title), slices.Contains(c.want, u); got != want {
					t.Errorf("%s: right after the answer, user %d has it: %v, want %v", c.targets, u, got, want)
				}
			}
			if got := broadcastByID(t, app, root, b.ID); got.Delivered != len(c.want) || got.Status != "sent" || got.Message != "Read me" {
				t.Errorf("%s: history says %+v", c.targets, got)
			}
		}
		if got := inboxTitles(t, app, rootUser.ID)[rootUser.ID]; strings.Count(strings.Join(got, "|"), "Broadcast sent") != len(cases) {
			t.Errorf("the sender's inbox: %q", got)
		}
		entry := lastEntry(t, app, "notification.broadcast")
		if entry.TargetType != "broadcast" || entry.Status != 201 || entry.Details["recipients"] != float64(2) {
			t.Errorf("audit entry: %+v", entry)
		}
	})
}

// TestBroadcastReadCount: a recipient's inbox holds the broadcast under a
// "b" id beside their own notifications; reading it counts in the
// history's reads; a broadcast not addressed to the caller, or an id of
// neither kind, is 404.
func TestBroadcastReadCount(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		reader := app.User(t, "reader@example.com")
		app.User(t, "idle@example.com")
		b := sendBroadcast(t, app, root, `{"title":"Maintenance","message":"Down at noon","type":"critical","targets":["users"]}`)
		staff := sendBroadcast(t, app, root, `{"title":"Staff","message":"Admins only","targets":["admins"]}`)
		session := app.SessionFor(t, reader.ID)
		var inbox struct {
			Notifications []struct{ ID, Title, Message, Type string }
			Unread, Total int
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/notifications", session).Body.Bytes(), &inbox)
		if len(inbox.Notifications) != 1 || inbox.Unread != 1 || inbox.Total != 1 || inbox.Notifications[0].ID != "b"+b.ID ||
			inbox.Notifications[0].Message != "Down at noon" || inbox.Notifications[0].Type != "critical" {
			t.Fatalf("inbox: %+v", inbox)
		}
		res := apptest.Do(t, app, "POST", "/api/notifications/b"+b.ID+"/read", session)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"title":"Maintenance"`) || !strings.Contains(res.Body.String(), `"id":"b`+b.ID+`"`) {
			t.Fatalf("read: %d %s", res.Code, res.Body)
		}
		if got := broadcastByID(t, app, root, b.ID); got.Recipients != 2 || got.Read != 1 {
			t.Errorf("history: %+v, want 2 recipients and 1 read", got)
		}
		for _, id := range []string{"b" + staff.ID, b.ID, "b", "bx", "b0", "b-1", "B" + b.ID, "b0" + b.ID} {
			if res := apptest.Do(t, app, "POST", "/api/notifications/"+id+"/read", session); res.Code != 404 {
				t.Errorf("read %q: %d %s, want 404", id, res.Code, res.Body)
			}
		}
		if got := broadcastByID(t, app, root, staff.ID); got.Read != 0 {
			t.Errorf("a broadcast the caller could not read counts %d reads", got.Read)
		}
	})
}

// TestBroadcastRefusals: each bad field is 422 naming it, a user target
// no user has is 422, and callers without admin:write are refused.
func TestBroadcastRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
		far := time.Now().AddDate(1, 1, 0).UTC().Format(time.RFC3339)
		ok := `"title":"T","message":"M","targets":["all"]`
		for body, field := range map[string]string{
			`{"message":"M","targets":["all"]}`:                                            "title",
			`{"title":" ","message":"M","targets":["all"]}`:                                "title",
			`{"title":"T","targets":["all"]}`:                                              "message",
			`{"title":"` + strings.Repeat("x", 201) + `","message":"M","targets":["all"]}`: "title",
			`{` + ok + `,"type":"urgent"}`:                                                 "type",
			`{"title":"T","message":"M"}`:                                                  "targets",
			`{"title":"T","message":"M","targets":[]}`:                                     "targets",
			`{"title":"T","message":"M","targets":["all","staff"]}`:                        "targets.1",
			`{"title":"T","message":"M","targets":["user:x"]}`:                             "targets.0",
			`{"title":"T","message":"M","targets":["user:999999"]}`:                        "targets.0",
			`{` + ok + `,"schedule":"tomorrow"}`:                                           "schedule",
			`{` + ok + `,"schedule":"` + past + `"}`:                                       "schedule",
			`{` + ok + `,"schedule":"` + far + `"}`:                                        "schedule",
			`{` + ok + `,"priority":1}`:                                                    "priority",
		} {
			wantInvalid(t, app, "POST", "/api/v1/admin/notifications/broadcast", root, body, field)
		}
		good := `{` + ok + `,"schedule":"` + soon + `"}`
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/notifications/broadcast", nil, good); res.Code != 401 {
			t.Errorf("anonymous: %d", res.Code)
		}
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		readOnly, _ := app.TokenFor(t, boss.ID, access.PermAdminRead)
		for who, h := range map[string]http.Header{"a moderator": app.SessionFor(t, mod.ID), "an admin:read token": readOnly} {
			if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/notifications/broadcast", h, good); res.Code != 403 {
				t.Errorf("%s: %d %s", who, res.Code, res.Body)
			}
		}
		if n, err := db.NewSelect().Model((*models.Broadcast)(nil)).Count(context.Background()); err != nil || n != 0 {
			t.Errorf("refusals stored %d broadcasts (%v)", n, err)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/notifications/broadcasts?limit=0", root); res.Code != 422 {
			t.Errorf("history with limit=0: %d", res.Code)
		}
		wantAdminOnly(t, app, app.SessionFor(t, mod.ID), "GET", "/api/v1/admin/notifications/broadcasts", "")
	})
}

// TestScheduledBroadcastOnce: a broadcast scheduled a second ahead is in
// no inbox until its time; then, with two instances' job queues running
// on the same database, it is sent once: one note to its sender, one
// River job run once, and once in each recipient's inbox.
func TestScheduledBroadcastOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		first, second := apptest.New(t, db), apptest.New(t, db)
		root, rootUser := first.Admin(t)
		users := []int64{first.User(t, "a@example.com").ID, first.User(t, "b@example.com").ID, first.User(t, "c@example.com").ID}
		at := time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
		b := sendBroadcast(t, first, root, `{"title":"Later","message":"M","targets":["users"],"schedule":"`+at+`"}`)
		if b.Status != "scheduled" || b.Recipients != 0 || b.SentAt != nil || b.DeliveredAt != nil {
			t.Fatalf("answered %+v, want scheduled", b)
		}
		if got := inboxTitles(t, first, users[0])[users[0]]; len(got) != 0 {
			t.Errorf("before its time the inbox holds %q", got)
		}
		for _, app := range []*apptest.App{first, second} {
			if err := app.Runtime.StartJobs(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		ctx := context.Background()
		type run struct {
			State   string
			Attempt int
		}
		var runs []run
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			runs = runs[:0]
			if err := db.NewRaw("SELECT state, attempt FROM river_job WHERE kind = 'broadcast'").Scan(ctx, &runs); err != nil {
				t.Fatal(err)
			}
			if len(runs) != 1 || runs[0].State == "completed" || runs[0].State == "discarded" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("broadcast job still %+v", runs)
			}
		}
		if len(runs) != 1 || runs[0].State != "completed" {
			t.Errorf("broadcast jobs: %+v, want one, completed", runs)
		}
		got := broadcastByID(t, second, root, b.ID)
		if got.Status != "sent" || got.Recipients != 3 || got.Delivered != 3 {
			t.Errorf("history: %+v", got)
		}
		if *got.SentAt != api.Timestamp(mustTime(t, at)) {
			t.Errorf("sent at %s, scheduled for %s", *got.SentAt, at)
		}
		for u, titles := range inboxTitles(t, second, users...) {
			if !slices.Equal(titles, []string{"Later"}) {
				t.Errorf("user %d's inbox: %q", u, titles)
			}
		}
		notes, err := db.NewSelect().Model((*models.Notification)(nil)).Where("user_id = ? AND title = 'Broadcast sent'", rootUser.ID).Count(ctx)
		if err != nil || notes != 1 {
			t.Errorf("the sender was told %d times (%v)", notes, err)
		}
	})
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}
