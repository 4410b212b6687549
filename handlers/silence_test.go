package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
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

// silenceClock is a clock the test moves: the app, its actions, policy
// and store all read it, so a silence ends without waiting.
type silenceClock struct{ at atomic.Int64 }

func (c *silenceClock) Now() time.Time          { return time.Unix(0, c.at.Load()).UTC() }
func (c *silenceClock) Advance(d time.Duration) { c.at.Add(int64(d)) }

func silenceApp(t *testing.T, db *bun.DB) (*apptest.App, *silenceClock) {
	t.Helper()
	clock := &silenceClock{}
	clock.at.Store(time.Now().UTC().Truncate(time.Second).UnixNano())
	app := apptest.New(t, db, func(d *web.Deps) { d.Now = clock.Now; d.Store.Now = clock.Now })
	return app, clock
}

// silenced is the data of a v1 silence or unsilence answer.
type silenced struct {
	Data struct {
		User          struct{ ID, Username string }
		SilencedUntil *string
		SilenceReason *string
	}
}

func postAs(t *testing.T, app *apptest.App, method, target string, h http.Header, body string, want int) []byte {
	t.Helper()
	res := apptest.DoBody(t, app, method, target, h, body)
	if res.Code != want {
		t.Fatalf("%s %s: %d %s, want %d", method, target, res.Code, res.Body, want)
	}
	return res.Body.Bytes()
}

// memberWrites are the general API's writes a silence stops, for the
// member's own post and another's post to report.
func memberWrites(member *models.User, own, other int64) [][3]string {
	return [][3]string{
		{"POST", api.PathPosts, `{"title":"Still here","content":"hello","published":true}`},
		{"PUT", api.PostPath(itoa(own)), `{"title":"Edited"}`},
		{"POST", api.PostPath(itoa(other)) + "/report", `{"reason":"spam"}`},
		{"PUT", api.PathUsers + "/" + itoa(member.ID), `{"bio":"quiet now"}`},
	}
}

func silenceWritePost(t *testing.T, app *apptest.App, author int64, title string) int64 {
	t.Helper()
	var id int64
	err := app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: title, Content: "text", Published: true})
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

// TestSilence: a silence through the versioned family makes the member
// read-only: writing, editing and reporting a post and editing the
// profile answer 403 USER_SILENCED saying until when, while reads work;
// the user's record shows the silence; time lifts it, and so does
// unsilence; the audit names are the policy's.
func TestSilence(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := silenceApp(t, db)
		admin, _ := app.Admin(t)
		member, memberH := userWith(t, app, "quiet@example.com")
		other, _ := userWith(t, app, "other@example.com")
		own, theirs := silenceWritePost(t, app, member.ID, "Mine"), silenceWritePost(t, app, other.ID, "Theirs")

		var got silenced
		body := postAs(t, app, "POST", api.AdminV1UserPath(member.ID)+"/silence", admin, `{"duration":"24h","reason":"Heated thread"}`, 200)
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		until := api.Timestamp(clock.Now().Add(24 * time.Hour))
		if got.Data.SilencedUntil == nil || *got.Data.SilencedUntil != until || *got.Data.SilenceReason != "Heated thread" {
			t.Fatalf("silence answered %s, want silencedUntil %s", body, until)
		}

		for _, w := range memberWrites(member, own, theirs) {
			res := apptest.DoBody(t, app, w[0], w[1], memberH, w[2])
			var e api.GeneralError
			if err := json.Unmarshal(res.Body.Bytes(), &e); err != nil || res.Code != http.StatusForbidden ||
				e.Error.Code != api.CodeUserSilenced || !strings.Contains(e.Error.Message, until) {
				t.Errorf("%s %s while silenced: %d %s, want 403 USER_SILENCED until %s", w[0], w[1], res.Code, res.Body, until)
			}
		}
		for _, read := range []string{api.PostPath(itoa(own)), api.PostPath(itoa(theirs)), api.PathUsers + "/" + itoa(member.ID), api.PathPosts} {
			if res := apptest.Do(t, app, "GET", read, memberH); res.Code != 200 {
				t.Errorf("GET %s while silenced: %d %s", read, res.Code, res.Body)
			}
		}
		detail := postAs(t, app, "GET", api.AdminV1UserPath(member.ID), admin, "", 200)
		if !strings.Contains(string(detail), `"silencedUntil":"`+until+`"`) {
			t.Errorf("the user's record does not show the silence: %.400s", detail)
		}

		// Time lifts it: no job, the check compares with now.
		clock.Advance(24*time.Hour + time.Second)
		memberH, admin = app.SessionFor(t, member.ID), app.SessionFor(t, mustRoot(t, app))
		postAs(t, app, "POST", api.PathPosts, memberH, `{"title":"Back","content":"hello"}`, http.StatusCreated)
		detail = postAs(t, app, "GET", api.AdminV1UserPath(member.ID), admin, "", 200)
		if !strings.Contains(string(detail), `"silencedUntil":null`) {
			t.Errorf("a silence that ran out still shows: %.400s", detail)
		}

		// Staff lift it: unsilence.
		postAs(t, app, "POST", api.AdminV1UserPath(member.ID)+"/silence", admin, `{"duration":"7d","reason":"Again"}`, 200)
		postAs(t, app, "PUT", api.PathUsers+"/"+itoa(member.ID), memberH, `{"bio":"x"}`, http.StatusForbidden)
		body = postAs(t, app, "POST", api.AdminV1UserPath(member.ID)+"/unsilence", admin, "", 200)
		if err := json.Unmarshal(body, &got); err != nil || got.Data.SilencedUntil != nil {
			t.Errorf("unsilence answered %s, want silencedUntil null", body)
		}
		for _, w := range memberWrites(member, own, theirs) {
			if res := apptest.DoBody(t, app, w[0], w[1], memberH, w[2]); res.Code >= 300 {
				t.Errorf("%s %s after unsilence: %d %s", w[0], w[1], res.Code, res.Body)
			}
		}
		// An unsilence of a user no silence holds changes nothing.
		postAs(t, app, "POST", api.AdminV1UserPath(member.ID)+"/unsilence", admin, "", 200)

		var names []string
		for _, e := range app.AuditEntries(t) {
			if strings.HasPrefix(e.Action, "user.") && strings.Contains(e.Action, "silence") && e.TargetID == itoa(member.ID) {
				names = append(names, e.Action)
			}
		}
		if strings.Join(names, ",") != "user.unsilence,user.unsilence,user.silence,user.silence" &&
			strings.Join(names, ",") != "user.silence,user.silence,user.unsilence,user.unsilence" {
			t.Errorf("audit entries %v, want two user.silence and two user.unsilence", names)
		}
	})
}

func mustRoot(t *testing.T, app *apptest.App) int64 {
	t.Helper()
	u, err := app.Store.Users.UserByEmail(context.Background(), "root@example.com")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestSilenceInput: the one check of a silence's input, the same through
// both admin families in each family's format; nobody silences themself,
// and an admin does not silence a super admin.
func TestSilenceInput(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := silenceApp(t, db)
		root, rootUser := app.Admin(t)
		member, _ := userWith(t, app, "quiet@example.com")
		_, bossH := userWith(t, app, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		v1 := api.AdminV1UserPath(member.ID) + "/silence"
		old := api.PathAdminUsers + "/" + itoa(member.ID) + "/silence"
		for _, c := range []struct{ body, field string }{
			{`{"reason":"x"}`, "duration"},
			{`{"duration":"soon","reason":"x"}`, "duration"},
			{`{"duration":"0h","reason":"x"}`, "duration"},
			{`{"duration":"31d","reason":"x"}`, "duration"},
			{`{"duration":"5w","reason":"x"}`, "duration"},
			{`{"duration":"1h"}`, "reason"},
			{`{"duration":"1h","reason":"   "}`, "reason"},
			{`{"duration":"1h","reason":"` + strings.Repeat("x", 501) + `"}`, "reason"},
		} {
			res := apptest.DoBody(t, app, "POST", v1, root, c.body)
			if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `"`+c.field+`"`) {
				t.Errorf("v1 %s: %d %s, want 422 on %s", c.body, res.Code, res.Body, c.field)
			}
			res = apptest.DoBody(t, app, "POST", old, root, c.body)
			if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), `"`+c.field+`"`) {
				t.Errorf("unversioned %s: %d %s, want 400 on %s", c.body, res.Code, res.Body, c.field)
			}
		}
		postAs(t, app, "POST", api.AdminV1UserPath(member.ID)+"/silence", root, `{"duration":"30d","reason":"the longest"}`, 200)

		res := apptest.DoBody(t, app, "POST", api.AdminV1UserPath(rootUser.ID)+"/silence", root, `{"duration":"1h","reason":"me"}`)
		if res.Code != http.StatusForbidden || !strings.Contains(res.Body.String(), api.CodeSelfActionForbidden) {
			t.Errorf("silencing oneself: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", api.AdminV1UserPath(rootUser.ID)+"/silence", bossH, `{"duration":"1h","reason":"up"}`)
		if res.Code != http.StatusForbidden {
			t.Errorf("an admin silencing a super admin: %d %s", res.Code, res.Body)
		}

		// The unversioned family: silence, unsilence, and 409 for a
		// second unsilence, as for an unban.
		body := postAs(t, app, "POST", old, root, `{"duration":"1h","reason":"x"}`, 200)
		if !strings.Contains(string(body), `"silencedUntil":"`) || !strings.Contains(string(body), `"success":true`) {
			t.Errorf("unversioned silence answered %s", body)
		}
		unsilence := api.PathAdminUsers + "/" + itoa(member.ID) + "/unsilence"
		postAs(t, app, "POST", unsilence, root, "", 200)
		postAs(t, app, "POST", unsilence, root, "", http.StatusConflict)
	})
}

// TestSilenceWebhook: a silence sends user.silenced to the endpoints that
// subscribe to it, queued in the silence's own transaction.
func TestSilenceWebhook(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		a := webhookApp(t, db, recv)
		admin, root := a.Admin(t)
		registerWebhook(t, a, admin, recv.URL, "user.silenced")
		member, _ := userWith(t, a, "quiet@example.com")
		postAs(t, a, "POST", api.AdminV1UserPath(member.ID)+"/silence", admin, `{"duration":"1h","reason":"Heated thread"}`, 200)
		var msg struct {
			Type string
			Data map[string]any
		}
		apptest.WaitFor(t, "the user.silenced message", func() bool {
			got := recv.Received()
			return len(got) > 0 && json.Unmarshal(got[0].Body, &msg) == nil
		})
		if msg.Type != "user.silenced" || msg.Data["userId"] != itoa(member.ID) || msg.Data["silencedBy"] != itoa(root.ID) ||
			msg.Data["reason"] != "Heated thread" || msg.Data["silencedUntil"] == nil {
			t.Errorf("message %+v", msg)
		}
	})
}
