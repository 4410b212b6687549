package handlers_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// activityFixture stores three users' posts, sign-ins and events around
// now: ann posts twice in the window and once before it, bob signs in, cyd
// (named like a formula) sends events; dee does nothing in the window.
func activityFixture(t *testing.T, db *bun.DB, now time.Time) (ann, bob, cyd *models.User) {
	t.Helper()
	insert := func(rows ...any) { insertRows(t, db, rows...) }
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	user := func(name string) *models.User {
		return &models.User{Username: name, Email: strings.Trim(name, "=+") + "@example.com", Status: models.UserActive, IsActive: true,
			CreatedAt: at(100 * day), UpdatedAt: at(100 * day)}
	}
	ann, bob, cyd = user("ann"), user("bob"), user("=cmd|calc")
	insert(ann, bob, cyd, user("dee"))
	post := func(title string, when time.Duration) *models.Post {
		return &models.Post{Title: title, Content: "x", AuthorID: ann.ID, Status: models.PostPublished, CreatedAt: at(when), UpdatedAt: at(when)}
	}
	insert(post("Old", 40*day), post("First", 3*day), post("Second", day))
	insert(&models.Login{UserID: bob.ID, Method: "password", CreatedAt: at(2 * day)})
	event := func(u *models.User, typ string, when time.Duration) *models.AnalyticsEvent {
		return &models.AnalyticsEvent{ID: uuid.NewString(), EventType: typ, EventData: map[string]any{}, UserID: &u.ID,
			OccurredAt: at(when), ReceivedAt: at(when)}
	}
	insert(event(cyd, "page_view", 5*day), event(cyd, "click", 4*day), event(cyd, "click", 50*day), event(ann, "page_view", 2*time.Hour))
	return ann, bob, cyd
}

type activityAnswer struct {
	Data struct {
		Users []struct {
			UserID, Username      string
			Posts, Logins, Events int
			LastActiveAt          *string
			Activity              []struct{ Type, At, Details string }
		}
		Totals struct{ Users, Posts, Logins, Events int }
	}
	Meta struct {
		Pagination struct {
			Total   int
			HasMore bool
		}
	}
}

// TestUserActivityReport: the window's active users in id order with
// their counts, totals over every row, one user, details, a page; the
// CSV holds the same rows, formulas neutralised, as an attachment.
func TestUserActivityReport(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		now := time.Now().UTC().Truncate(time.Second)
		app := apptest.New(t, db, func(d *web.Deps) { d.Now = func() time.Time { return now } })
		ann, bob, cyd := activityFixture(t, db, now)
		root, _ := app.Admin(t)
		get := func(query string) activityAnswer {
			t.Helper()
			res := apptest.Do(t, app, "GET", "/api/v1/admin/reports/user-activity?"+query, root)
			var out activityAnswer
			if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 200 {
				t.Fatalf("%s: %d %s", query, res.Code, res.Body)
			}
			return out
		}
		got := get("")
		want := []string{fmt.Sprintf("%d ann 2 0 1", ann.ID), fmt.Sprintf("%d bob 0 1 0", bob.ID), fmt.Sprintf("%d =cmd|calc 0 0 2", cyd.ID)}
		var rows []string
		for _, u := range got.Data.Users {
			rows = append(rows, fmt.Sprintf("%s %s %d %d %d", u.UserID, u.Username, u.Posts, u.Logins, u.Events))
		}
		if strings.Join(rows, ";") != strings.Join(want, ";") {
			t.Fatalf("rows %q, want %q", rows, want)
		}
		if tot := got.Data.Totals; tot.Users != 3 || tot.Posts != 2 || tot.Logins != 1 || tot.Events != 3 || got.Meta.Pagination.Total != 3 {
			t.Errorf("totals %+v, pagination %+v", tot, got.Meta.Pagination)
		}
		if last := got.Data.Users[0].LastActiveAt; last == nil || *last != now.Add(-2*time.Hour).Format("2006-01-02T15:04:05.000Z") {
			t.Errorf("ann last active at %v", last)
		}
		one := get(fmt.Sprintf("userId=%d&includeDetails=true", ann.ID))
		if len(one.Data.Users) != 1 || len(one.Data.Users[0].Activity) != 3 || one.Data.Users[0].Activity[0].Type != "event" ||
			one.Data.Users[0].Activity[1].Details != "Second" {
			t.Errorf("ann with details: %+v", one.Data.Users)
		}
		page := get("limit=2&offset=1")
		if len(page.Data.Users) != 2 || page.Data.Users[0].Username != "bob" || page.Meta.Pagination.HasMore || page.Data.Totals.Users != 3 {
			t.Errorf("page 2 of 2: %+v", page)
		}
		res := apptest.Do(t, app, "GET", "/api/v1/admin/reports/user-activity?format=csv", root)
		if res.Code != 200 || res.Header().Get("Content-Type") != "text/csv; charset=utf-8" ||
			!strings.HasPrefix(res.Header().Get("Content-Disposition"), `attachment; filename="user-activity-`) {
			t.Fatalf("CSV: %d %v", res.Code, res.Header())
		}
		records, err := csv.NewReader(bytes.NewReader(res.Body.Bytes())).ReadAll()
		if err != nil || len(records) != 4 || strings.Join(records[0], ",") != "userId,username,posts,logins,events,lastActiveAt" {
			t.Fatalf("CSV %q: %v", res.Body, err)
		}
		for i, u := range got.Data.Users {
			name := u.Username
			if strings.HasPrefix(name, "=") {
				name = "'" + name
			}
			if r := records[i+1]; r[0] != u.UserID || r[1] != name || r[2] != fmt.Sprint(u.Posts) || r[3] != fmt.Sprint(u.Logins) ||
				r[4] != fmt.Sprint(u.Events) || r[5] != *u.LastActiveAt {
				t.Errorf("CSV row %d %q differs from %+v", i+1, r, u)
			}
		}
	})
}

// TestModerationReport: the window's reports and actions summed by action
// and moderator, the most reported posts, one admin's share; the CSV lists
// the actions, as many of each as byAction counts.
func TestModerationReport(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, rootUser := app.Admin(t)
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		author := app.User(t, "author@example.com")
		ids := map[string]int64{}
		for _, title := range []string{"Spam", "Rude", "Fine"} {
			newPostAs(t, app, author.ID, title)
			ids[title] = postByTitle(t, db, title)
		}
		reporters := []*models.User{app.User(t, "r1@example.com"), app.User(t, "r2@example.com")}
		for title, n := range map[string]int{"Spam": 2, "Rude": 1} {
			for _, r := range reporters[:n] {
				res := apptest.DoBody(t, app, "POST", fmt.Sprintf("/api/posts/%d/report", ids[title]), app.SessionFor(t, r.ID), `{"reason":"spam"}`)
				if res.Code != 201 && res.Code != 200 {
					t.Fatalf("report: %d %s", res.Code, res.Body)
				}
			}
		}
		moderate := func(h http.Header, title, action, reason string) {
			t.Helper()
			if res := apptest.DoBody(t, app, "POST", fmt.Sprintf("/api/v1/admin/posts/%d/moderate", ids[title]), h, `{"action":"`+action+`","reason":"`+reason+`"}`); res.Code != 200 {
				t.Fatalf("%s %s: %d %s", action, title, res.Code, res.Body)
			}
		}
		modSession := app.SessionFor(t, mod.ID)
		moderate(root, "Spam", "flag", "=HYPERLINK(1)")
		moderate(root, "Spam", "approve", "fine after all")
		moderate(modSession, "Rude", "hide", "rude")
		res := apptest.Do(t, app, "GET", "/api/v1/admin/reports/moderation", root)
		var got struct {
			Data struct {
				Totals      struct{ ReportsReceived, ReportsResolved, Pending int }
				ByAction    struct{ Approve, Hide, Delete, Flag int }
				ByModerator []struct {
					AdminID, Username string
					Actions           int
				}
				TopReportedPosts []struct {
					ID, Title   string
					ReportCount int
				}
			}
		}
		if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		d := got.Data
		// Approving the spam and hiding the rude post settle both: all three
		// reports are resolved.
		if d.Totals.ReportsReceived != 3 || d.Totals.ReportsResolved != 3 || d.Totals.Pending != 0 {
			t.Errorf("totals: %+v", d.Totals)
		}
		if d.ByAction.Approve != 1 || d.ByAction.Flag != 1 || d.ByAction.Hide != 1 || d.ByAction.Delete != 0 {
			t.Errorf("by action: %+v", d.ByAction)
		}
		if len(d.ByModerator) != 2 || d.ByModerator[0].Username != rootUser.Username || d.ByModerator[0].Actions != 2 || d.ByModerator[1].Actions != 1 {
			t.Errorf("by moderator: %+v", d.ByModerator)
		}
		if len(d.TopReportedPosts) != 2 || d.TopReportedPosts[0].Title != "Spam" || d.TopReportedPosts[0].ReportCount != 2 {
			t.Errorf("top reported: %+v", d.TopReportedPosts)
		}
		res = apptest.Do(t, app, "GET", fmt.Sprintf("/api/v1/admin/reports/moderation?adminId=%d", mod.ID), root)
		if !strings.Contains(res.Body.String(), `"byAction":{"approve":0,"hide":1,"delete":0,"flag":0,"dismiss":0}`) {
			t.Errorf("one admin: %s", res.Body)
		}
		res = apptest.Do(t, app, "GET", "/api/v1/admin/reports/moderation?format=csv", root)
		records, err := csv.NewReader(bytes.NewReader(res.Body.Bytes())).ReadAll()
		if err != nil || len(records) != 4 || records[0][4] != "action" {
			t.Fatalf("CSV %q: %v", res.Body, err)
		}
		if r := records[1]; r[4] != "flag" || r[7] != "'=HYPERLINK(1)" || r[6] != "Spam" || r[3] != rootUser.Username {
			t.Errorf("first action row: %q", r)
		}
	})
}

// TestReportRefusals: bad formats, dates and ids are 422 naming the
// field; callers without admin:read are refused.
func TestReportRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		for query, field := range map[string]string{
			"user-activity?format=xml":                              "format",
			"user-activity?startDate=soon":                          "startDate",
			"user-activity?startDate=2026-05-02&endDate=2026-05-01": "endDate",
			"user-activity?userId=abc":                              "userId",
			"user-activity?includeDetails=maybe":                    "includeDetails",
			"user-activity?limit=500":                               "limit",
			"moderation?adminId=0":                                  "adminId",
			"moderation?format=pdf":                                 "format",
			"moderation?endDate=yesterday":                          "endDate",
		} {
			wantInvalid(t, app, "GET", "/api/v1/admin/reports/"+query, root, "", field)
		}
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		for _, path := range []string{"user-activity", "moderation?format=csv"} {
			wantAdminOnly(t, app, app.SessionFor(t, mod.ID), "GET", "/api/v1/admin/reports/"+path, "")
		}
	})
}

// TestActivityCSVStreamsInFlatMemory: a 200,000-row user-activity CSV
// goes out as it is read: the live heap, sampled before the request and
// every 40,000 rows the client receives, grows by far less than the body.
//
// The client's small receive buffer makes the server block soon after the
// client stops reading, so each sample is taken while the handler holds
// what it holds mid-stream but allocates nothing; a sample taken while it
// runs would also count what it allocated during the collection.
func TestActivityCSVStreamsInFlatMemory(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		const users = 200_000
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		now := app.Store.Timestamp()
		ctx := context.Background()
		for _, q := range []string{
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
			 INSERT INTO users (username, email, created_at, updated_at) SELECT 'stream' || i, 'stream' || i || '@example.com', ?, ? FROM n`,
			`INSERT INTO logins (user_id, method, created_at) SELECT id, 'password', ? FROM users WHERE username LIKE 'stream%'`,
		} {
			args := []any{users, now, now}
			if strings.Contains(q, "logins") {
				args = []any{now}
			}
			if _, err := db.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		srv := httptest.NewServer(app)
		defer srv.Close()
		client := smallWindowClient()
		get := func(query string) (*http.Response, error) {
			req, _ := http.NewRequest("GET", srv.URL+"/api/v1/admin/reports/user-activity?format=csv"+query, nil)
			req.Header = root
			return client.Do(req)
		}
		// A short report first, so that what the first request sets up once
		// is not counted as the long one's; and a users list, which brings
		// the instance's users index up to the 200,000 new users now
		// rather than at the warmer's next tick, in the middle of the
		// stream.
		for _, url := range []string{srv.URL + "/api/v1/admin/reports/user-activity?format=csv&limit=10", srv.URL + "/api/v1/admin/users?limit=1"} {
			req, _ := http.NewRequest("GET", url, nil)
			req.Header = root
			warm, err := client.Do(req)
			if err != nil || warm.StatusCode != http.StatusOK {
				t.Fatalf("%s: %v %v", url, err, warm)
			}
			io.Copy(io.Discard, warm.Body)
			warm.Body.Close()
		}
		before := settledHeap()
		res, err := get("")
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%v %v", err, res)
		}
		defer res.Body.Close()
		var heaps []uint64
		rows, size := 0, 0
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			rows++
			size += len(sc.Bytes()) + 1
			if rows%40_000 == 0 {
				heaps = append(heaps, settledHeap())
			}
		}
		if err := sc.Err(); err != nil || rows != users+1 {
			t.Fatalf("%d lines (%v), want %d", rows, err, users+1)
		}
		growth := slices.Max(heaps) - min(before, slices.Min(heaps))
		t.Logf("%d rows, %.1f MB; live heap %.1f MB before, at most %.1f MB more while streaming", rows, float64(size)/1e6,
			float64(before)/1e6, float64(growth)/1e6)
		if growth > uint64(size)/2 {
			t.Errorf("the live heap grew by %d bytes while %d were sent", growth, size)
		}
	})
}

// smallWindowClient reads through a 64 KiB socket receive buffer, which
// also stops the kernel from growing it.
func smallWindowClient() *http.Client {
	dialer := &net.Dialer{}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return conn, conn.(*net.TCPConn).SetReadBuffer(64 << 10)
	}
	return &http.Client{Transport: transport}
}

// settledHeap is the live heap once two collections in a row agree within
// 64 KiB, that is once nothing is allocating; after 50 collections it
// gives the smallest reading.
func settledHeap() uint64 {
	last := liveHeap()
	for range 50 {
		now := liveHeap()
		if max(now, last)-min(now, last) < 64<<10 {
			return now
		}
		last = min(last, now)
	}
	return last
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
