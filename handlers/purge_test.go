package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"reflect"
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
	"github.com/plazahq/plaza/web"
)

// purgeApp is an app on a clock the test moves, with PURGE_CONFIRM_ABOVE
// at above.
func purgeApp(t *testing.T, db *bun.DB, above int) (*apptest.App, *silenceClock) {
	t.Helper()
	clock := &silenceClock{}
	clock.at.Store(time.Now().UTC().Truncate(time.Second).UnixNano())
	app := apptest.New(t, db, func(d *web.Deps) {
		d.Now, d.Store.Now = clock.Now, clock.Now
		d.Config.PurgeConfirmAbove = above
	})
	return app, clock
}

// rows reads every column of the rows of table whose column is in ids,
// in id order, as text: what a test compares before and after.
func rows(t *testing.T, app *apptest.App, table, column string, ids ...int64) []map[string]string {
	t.Helper()
	var got []map[string]any
	err := app.Store.DB.NewRaw("SELECT * FROM "+table+" WHERE "+column+" IN (?) ORDER BY id", bun.In(ids)).Scan(context.Background(), &got)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]string, len(got))
	for i, r := range got {
		out[i] = map[string]string{}
		for k, v := range r {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if tm, ok := v.(time.Time); ok {
				v = tm.UTC().Format(time.RFC3339Nano)
			}
			out[i][k] = fmt.Sprint(v)
		}
	}
	return out
}

func purgeCount(t *testing.T, app *apptest.App, query string, args ...any) int {
	t.Helper()
	var n int
	if err := app.Store.DB.NewRaw(query, args...).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func userIDs(us ...*models.User) string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = `"` + itoa(u.ID) + `"`
	}
	return "[" + strings.Join(out, ",") + "]"
}

func decodeData[T any](t *testing.T, body []byte) T {
	t.Helper()
	var out struct{ Data T }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return out.Data
}

func writeDraft(t *testing.T, app *apptest.App, author int64) int64 {
	t.Helper()
	var id int64
	err := app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: "Draft", Content: "text"})
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

// TestPurge follows a purge from its preview to the undo of one account,
// then of the rest: the preview counts what the purge changes; the purge
// bans, hides and blocks with one audit entry; undoing one account puts
// its rows back exactly and leaves the others purged; a post decided on
// since is left alone; the last undo removes the purge's blocks.
func TestPurge(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := purgeApp(t, db, 20)
		admin, root := app.Admin(t)
		a, _ := userWith(t, app, "ann@spam.example")
		b, _ := userWith(t, app, "bob@spam.example")
		c := app.User(t, "cid@spam.example")
		a1, a2, aDraft := silenceWritePost(t, app, a.ID, "Buy now"), silenceWritePost(t, app, a.ID, "Cheap"), writeDraft(t, app, a.ID)
		b1 := silenceWritePost(t, app, b.ID, "Click")
		postAs(t, app, "POST", api.AdminV1UserPath(c.ID)+"/ban", admin, `{"action":"ban","reason":"earlier"}`, 200)
		usersBefore := rows(t, app, "users", "id", a.ID, b.ID)
		postsBefore := rows(t, app, "posts", "author_id", a.ID)
		clock.Advance(time.Minute) // so that every time the purge writes differs from the rows' own

		body := `{"userIds":` + userIDs(a, b, c) + `,"reason":"Spam wave","blockDomains":["Spam.Example"],"blockRanges":["2001:db8:7::/64"]}`
		pv := decodeData[api.V1PurgePreview](t, postAs(t, app, "POST", api.PathAdminV1PurgePreview, admin, body, 200))
		if pv.ToBan != 2 || pv.AlreadyBanned != 1 || pv.PostsToHide != 3 || pv.SessionsToEnd != 2 || pv.BlocksToCreate != 2 ||
			len(pv.Refused) != 0 || pv.NeedsConfirmation || len(pv.Domains) != 1 || pv.Domains[0] != (api.V1PurgeShare{Value: "spam.example", Accounts: 3}) {
			t.Fatalf("preview %+v", pv)
		}
		if got := rows(t, app, "users", "id", a.ID, b.ID); !reflect.DeepEqual(got, usersBefore) {
			t.Fatalf("the preview changed the users: %v", got)
		}

		res := decodeData[api.V1PurgeResult](t, postAs(t, app, "POST", api.PathAdminV1Purge, admin, body, 200))
		if res.Banned != pv.ToBan || res.AlreadyBanned != pv.AlreadyBanned || res.HiddenPosts != pv.PostsToHide ||
			res.EndedSessions != pv.SessionsToEnd || res.CreatedBlocks != pv.BlocksToCreate {
			t.Fatalf("purge did %+v, the preview said %+v", res, pv)
		}
		id := res.Purge.ID
		if n := purgeCount(t, app, "SELECT count(*) FROM users WHERE id IN (?) AND status = 'banned'", bun.In([]int64{a.ID, b.ID})); n != 2 {
			t.Errorf("%d of the 2 accounts banned", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM posts WHERE id IN (?) AND status = 'hidden'", bun.In([]int64{a1, a2, b1})); n != 3 {
			t.Errorf("%d of the 3 posts hidden", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM posts WHERE id = ? AND status = 'draft'", aDraft); n != 1 {
			t.Error("the draft changed")
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM sessions WHERE user_id IN (?) AND expiry > ?", bun.In([]int64{a.ID, b.ID}), clock.Now()); n != 0 {
			t.Errorf("%d sessions live after the purge", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM blocks WHERE value IN ('spam.example', '2001:db8:7::/64')"); n != 2 {
			t.Errorf("%d of the 2 blocks", n)
		}
		var entries []models.AuditEntry
		for _, e := range app.AuditEntries(t) {
			if e.Action == "users.purge" {
				entries = append(entries, e)
			}
		}
		if len(entries) != 1 || entries[0].TargetType != "purge" || entries[0].TargetID != id || entries[0].Status != 200 {
			t.Fatalf("audit entries %+v, want one users.purge of purge %s", entries, id)
		}
		users, _ := entries[0].Details["users"].([]any)
		if len(users) != 2 || !strings.Contains(fmt.Sprint(users), "before:map[isActive:true status:active]") ||
			!strings.Contains(fmt.Sprint(users), "after:map[isActive:true status:banned]") {
			t.Errorf("the entry's accounts %v", users)
		}

		// One legitimate account back: its rows exactly as before.
		u := decodeData[api.V1PurgeUndoResult](t, postAs(t, app, "POST", api.AdminV1PurgeUndoPath(id), admin, `{"userIds":["`+itoa(a.ID)+`"]}`, 200))
		if !slices.Equal(u.Restored, []string{itoa(a.ID)}) || u.RestoredPosts != 2 || u.PostsLeft != 0 || u.RemovedBlocks != 0 || !u.Purge.CanUndo {
			t.Fatalf("undo of one %+v", u)
		}
		if got := rows(t, app, "users", "id", a.ID); !reflect.DeepEqual(got, usersBefore[:1]) {
			t.Errorf("the account after the undo\n%v\nbefore the purge\n%v", got, usersBefore[:1])
		}
		if got := rows(t, app, "posts", "author_id", a.ID); !reflect.DeepEqual(got, postsBefore) {
			t.Errorf("the posts after the undo\n%v\nbefore the purge\n%v", got, postsBefore)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM bans WHERE user_id = ?", a.ID); n != 0 {
			t.Errorf("%d bans left on the account put back", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM moderation_actions WHERE post_id IN (?)", bun.In([]int64{a1, a2})); n != 0 {
			t.Errorf("%d hide records left on the posts put back", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM users WHERE id = ? AND status = 'banned'", b.ID); n != 1 {
			t.Error("the other account was undone too")
		}

		// Someone decides on b's post since: the undo leaves it alone.
		postAs(t, app, "POST", api.AdminV1ModeratePath(b1), admin, `{"action":"delete"}`, 200)
		u = decodeData[api.V1PurgeUndoResult](t, postAs(t, app, "POST", api.AdminV1PurgeUndoPath(id), admin, `{}`, 200))
		if !slices.Equal(u.Undone, []string{itoa(b.ID)}) || u.RestoredPosts != 0 || u.PostsLeft != 1 || u.RemovedBlocks != 2 || u.Purge.CanUndo || u.Purge.UndoneAt == nil {
			t.Fatalf("undo of the rest %+v", u)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM blocks WHERE value IN ('spam.example', '2001:db8:7::/64')"); n != 0 {
			t.Errorf("%d of the purge's blocks left after its whole undo", n)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM users WHERE id = ? AND status = 'banned'", c.ID); n != 1 {
			t.Error("the account banned before the purge was unbanned")
		}
		postAs(t, app, "POST", api.AdminV1PurgeUndoPath(id), admin, `{}`, http.StatusUnprocessableEntity)
		postAs(t, app, "POST", api.AdminV1PurgeUndoPath(id), admin, `{"userIds":["`+itoa(root.ID)+`"]}`, http.StatusNotFound)
		got := decodeData[api.V1Purge](t, postAs(t, app, "GET", api.AdminV1PurgePath(id), admin, "", 200))
		if len(got.Accounts) != 2 || !got.Accounts[0].Restored || got.Accounts[1].UndoneAt == nil {
			t.Errorf("the purge reads %+v", got)
		}
	})
}

// TestPurgeRefusesStaff: a purge naming a moderator, an admin or the caller
// is refused whole, naming each; nothing changes.
func TestPurgeRefusesStaff(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := purgeApp(t, db, 20)
		caller, callerH := userWith(t, app, "admin@example.com", access.RoleAdmin)
		member := app.User(t, "member@spam.example")
		silenceWritePost(t, app, member.ID, "Spam")
		mod := app.User(t, "mod@example.com", access.RoleModerator)
		other := app.User(t, "other-admin@example.com", access.RoleAdmin)
		before := rows(t, app, "users", "id", member.ID, mod.ID, other.ID)

		body := `{"userIds":` + userIDs(member, mod, other, caller) + `,"reason":"Spam wave","blockDomains":["spam.example"]}`
		pv := decodeData[api.V1PurgePreview](t, postAs(t, app, "POST", api.PathAdminV1PurgePreview, callerH, body, 200))
		want := []api.V1PurgeRefusal{{ID: itoa(mod.ID), Username: mod.Username, Reason: "staff"},
			{ID: itoa(other.ID), Username: other.Username, Reason: "rank"}, {ID: itoa(caller.ID), Username: caller.Username, Reason: "self"}}
		slices.SortFunc(want, func(x, y api.V1PurgeRefusal) int { return strings.Compare(x.ID, y.ID) })
		slices.SortFunc(pv.Refused, func(x, y api.V1PurgeRefusal) int { return strings.Compare(x.ID, y.ID) })
		if !reflect.DeepEqual(pv.Refused, want) {
			t.Errorf("preview refuses %+v, want %+v", pv.Refused, want)
		}
		res := apptest.DoBody(t, app, "POST", api.PathAdminV1Purge, callerH, body)
		var e api.V1Error
		if err := json.Unmarshal(res.Body.Bytes(), &e); err != nil || res.Code != http.StatusForbidden ||
			!strings.Contains(e.Error.Message, mod.Username+" (staff)") || !strings.Contains(e.Error.Message, caller.Username+" (yourself)") ||
			!strings.Contains(fmt.Sprint(e.Error.Details), other.Username) {
			t.Fatalf("purge with staff: %d %s", res.Code, res.Body)
		}
		if got := rows(t, app, "users", "id", member.ID, mod.ID, other.ID); !reflect.DeepEqual(got, before) {
			t.Errorf("a refused purge changed the users: %v", got)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM purges") + purgeCount(t, app, "SELECT count(*) FROM blocks") +
			purgeCount(t, app, "SELECT count(*) FROM posts WHERE status = 'hidden'"); n != 0 {
			t.Errorf("a refused purge left %d rows", n)
		}
		// A super admin outranks every admin, but a purge takes no staff.
		super, _ := app.Admin(t)
		postAs(t, app, "POST", api.PathAdminV1Purge, super, `{"userIds":`+userIDs(member, other)+`,"reason":"x"}`, http.StatusForbidden)
		postAs(t, app, "POST", api.PathAdminV1Purge, super, `{"userIds":`+userIDs(member)+`,"reason":"x"}`, 200)
	})
}

// TestPurgeUndoWindow: an undo after 10 minutes is refused and changes
// nothing; undoing someone else's purge takes a role above theirs.
func TestPurgeUndoWindow(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := purgeApp(t, db, 20)
		admin, _ := userWith(t, app, "admin@example.com", access.RoleAdmin)
		adminH := app.SessionFor(t, admin.ID)
		peer, peerH := userWith(t, app, "peer@example.com", access.RoleAdmin)
		_ = peer
		member := app.User(t, "member@spam.example")
		res := decodeData[api.V1PurgeResult](t, postAs(t, app, "POST", api.PathAdminV1Purge, adminH, `{"userIds":`+userIDs(member)+`,"reason":"Spam"}`, 200))
		postAs(t, app, "POST", api.AdminV1PurgeUndoPath(res.Purge.ID), peerH, `{}`, http.StatusForbidden)

		clock.Advance(models.UndoWindow + time.Second)
		adminH = app.SessionFor(t, admin.ID)
		before := rows(t, app, "users", "id", member.ID)
		postAs(t, app, "POST", api.AdminV1PurgeUndoPath(res.Purge.ID), adminH, `{}`, http.StatusUnprocessableEntity)
		if got := rows(t, app, "users", "id", member.ID); !reflect.DeepEqual(got, before) || got[0]["status"] != "banned" {
			t.Errorf("a late undo changed the account: %v", got)
		}
		got := decodeData[api.V1Purge](t, postAs(t, app, "GET", api.AdminV1PurgePath(res.Purge.ID), adminH, "", 200))
		if got.CanUndo {
			t.Error("the purge still offers its undo")
		}
	})
}

// TestPurgeConfirmation: a purge banning more than PURGE_CONFIRM_ABOVE
// accounts needs a confirmation within 10 minutes; fewer do not.
func TestPurgeConfirmation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := purgeApp(t, db, 2)
		admin, _ := userWith(t, app, "admin@example.com", access.RoleAdmin)
		var members []*models.User
		for i := range 5 {
			members = append(members, app.User(t, fmt.Sprintf("m%d@spam.example", i)))
		}
		clock.Advance(11 * time.Minute)
		stale := app.SessionFor(t, admin.ID)
		clock.Advance(11 * time.Minute) // its confirmation is now 11 minutes old

		pv := decodeData[api.V1PurgePreview](t, postAs(t, app, "POST", api.PathAdminV1PurgePreview, stale, `{"userIds":`+userIDs(members[:3]...)+`,"reason":"x"}`, 200))
		if !pv.NeedsConfirmation || pv.ConfirmAbove != 2 {
			t.Errorf("preview %+v, want needsConfirmation above 2", pv)
		}
		res := apptest.DoBody(t, app, "POST", api.PathAdminV1Purge, stale, `{"userIds":`+userIDs(members[:3]...)+`,"reason":"x"}`)
		if res.Code != http.StatusForbidden || res.Header().Get(web.SudoHeader) != "required" || !strings.Contains(res.Body.String(), api.CodeSudoRequired) {
			t.Fatalf("3 accounts from a stale session: %d %s", res.Code, res.Body)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM users WHERE status = 'banned'"); n != 0 {
			t.Errorf("%d banned after the refusal", n)
		}
		postAs(t, app, "POST", api.PathAdminV1Purge, stale, `{"userIds":`+userIDs(members[:2]...)+`,"reason":"x"}`, 200)
		fresh := app.SessionFor(t, admin.ID)
		postAs(t, app, "POST", api.PathAdminV1Purge, fresh, `{"userIds":`+userIDs(members[2:]...)+`,"reason":"x"}`, 200)
	})
}

// TestPurgeIsOneTransaction: a purge failing at its last write (a
// trigger the test adds refuses the record of its blocks) leaves nothing:
// no ban, no hidden post, no ended session, no purge.
func TestPurgeIsOneTransaction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _ := purgeApp(t, db, 20)
		admin, _ := app.Admin(t)
		a, _ := userWith(t, app, "ann@spam.example")
		silenceWritePost(t, app, a.ID, "Spam")
		before := rows(t, app, "users", "id", a.ID)
		posts := rows(t, app, "posts", "author_id", a.ID)
		fail := []string{`CREATE TRIGGER purge_fails BEFORE INSERT ON purge_blocks BEGIN SELECT RAISE(ABORT, 'injected'); END`}
		if models.Dialect(db) == "postgres" {
			fail = []string{`CREATE FUNCTION purge_fails() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`,
				`CREATE TRIGGER purge_fails BEFORE INSERT ON purge_blocks FOR EACH ROW EXECUTE FUNCTION purge_fails()`}
		}
		for _, q := range fail {
			if _, err := db.ExecContext(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		}
		postAs(t, app, "POST", api.PathAdminV1Purge, admin, `{"userIds":`+userIDs(a)+`,"reason":"x","blockDomains":["spam.example"]}`, http.StatusInternalServerError)
		if got := rows(t, app, "users", "id", a.ID); !reflect.DeepEqual(got, before) {
			t.Errorf("the account changed: %v", got)
		}
		if got := rows(t, app, "posts", "author_id", a.ID); !reflect.DeepEqual(got, posts) {
			t.Errorf("the posts changed: %v", got)
		}
		if n := purgeCount(t, app, "SELECT count(*) FROM sessions WHERE user_id = ? AND expiry > ?", a.ID, time.Now()); n != 1 {
			t.Errorf("%d live sessions, want the 1 left", n)
		}
		for _, table := range []string{"purges", "purge_accounts", "bans", "blocks", "moderation_actions"} {
			if n := purgeCount(t, app, "SELECT count(*) FROM "+table); n != 0 {
				t.Errorf("%d rows in %s", n, table)
			}
		}
	})
}

// TestPurgeWebhooks: one user.banned message per account banned, each
// naming the purge.
func TestPurgeWebhooks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		a := webhookApp(t, db, recv)
		admin, _ := a.Admin(t)
		registerWebhook(t, a, admin, recv.URL, "user.banned")
		var members []*models.User
		for i := range 3 {
			members = append(members, a.User(t, fmt.Sprintf("w%d@spam.example", i)))
		}
		res := decodeData[api.V1PurgeResult](t, postAs(t, a, "POST", api.PathAdminV1Purge, admin, `{"userIds":`+userIDs(members...)+`,"reason":"Spam"}`, 200))
		apptest.WaitFor(t, "3 user.banned messages", func() bool { return len(recv.Received()) >= 3 })
		seen := map[string]bool{}
		for _, r := range recv.Received() {
			var msg struct {
				Type string
				Data map[string]any
			}
			if err := json.Unmarshal(r.Body, &msg); err != nil || msg.Type != "user.banned" || msg.Data["purgeId"] != res.Purge.ID {
				t.Errorf("message %s", r.Body)
			}
			seen[fmt.Sprint(msg.Data["userId"])] = true
		}
		if len(seen) != 3 || len(recv.Received()) != 3 {
			t.Errorf("messages for %v (%d in all), want one for each of the 3", seen, len(recv.Received()))
		}
	})
}

// TestUsersListAddressAndSignupFilters: the users list keeps the users
// who signed up or signed in from an address or a range, and those who
// signed up within a window, alone or with the other filters.
func TestUsersListAddressAndSignupFilters(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock := purgeApp(t, db, 20)
		admin, _ := app.Admin(t)
		start := clock.Now()
		signup := func(email, ip string, at time.Time) *models.User {
			u := app.User(t, email)
			_, err := db.NewRaw("UPDATE users SET signup_ip = ?, signup_net = ?, created_at = ? WHERE id = ?",
				ip, rangeOf(ip), at, u.ID).Exec(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		a := signup("a@wave.example", "2001:db8:1:2::10", start.Add(time.Hour))
		b := signup("b@wave.example", "2001:db8:1:2::11", start.Add(2*time.Hour))
		c := signup("c@else.example", "203.0.113.7", start.Add(48*time.Hour))
		d := signup("d@else.example", "198.51.100.9", start.Add(72*time.Hour)) // signs in from a's address later
		if err := app.Store.Users.RecordLogin(context.Background(), d.ID, "password", "2001:db8:1:2::10", "test"); err != nil {
			t.Fatal(err)
		}
		list := func(query string) []string {
			t.Helper()
			var got []string
			for _, u := range decodeData[[]api.V1User](t, postAs(t, app, "GET", api.PathAdminV1Users+"?limit=100&sort=username&order=asc&"+query, admin, "", 200)) {
				got = append(got, u.Username)
			}
			return got
		}
		names := func(us ...*models.User) []string {
			var out []string
			for _, u := range us {
				out = append(out, u.Username)
			}
			slices.Sort(out)
			return out
		}
		day := start.Add(24 * time.Hour).Format(time.DateOnly)
		for query, want := range map[string][]string{
			"address=2001:db8:1:2::10":                    names(a, d),
			"address=2001:db8:1:2::/64":                   names(a, b, d),
			"address=2001:db8:1:2::/64&search=wave":       names(a, b),
			"address=203.0.113.0/24":                      names(c),
			"address=198.51.100.1":                        nil,
			"signedUpFrom=" + day:                         names(c, d),
			"address=2001:db8:1:2::/64&signedUpTo=" + day: names(a, b),
			"signedUpFrom=" + url.QueryEscape(api.Timestamp(start.Add(90*time.Minute))) + "&signedUpTo=" + day: names(b),
		} {
			if got := list(query); !slices.Equal(got, want) {
				t.Errorf("?%s lists %v, want %v", query, got, want)
			}
		}
		for _, bad := range []string{"address=2001:db8::/48", "address=nowhere", "signedUpFrom=yesterday"} {
			postAs(t, app, "GET", api.PathAdminV1Users+"?"+bad, admin, "", http.StatusUnprocessableEntity)
		}
	})
}

// rangeOf is the /24 or /64 of ip, as sign-ups store it.
func rangeOf(ip string) string {
	a := netip.MustParseAddr(ip)
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, _ := a.Prefix(bits)
	return p.String()
}
