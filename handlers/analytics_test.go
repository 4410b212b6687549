package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

const day = 24 * time.Hour

// insertRows inserts each of rows, each a pointer to a model.
func insertRows(t *testing.T, db *bun.DB, rows ...any) {
	t.Helper()
	for _, r := range rows {
		if _, err := db.NewInsert().Model(r).Exec(context.Background()); err != nil {
			t.Fatalf("insert %T: %v", r, err)
		}
	}
}

// analyticsFixture stores a small community around now, by hand, and
// returns a signed-in super admin (made an hour before now).
func analyticsFixture(t *testing.T, app *apptest.App, db *bun.DB, now time.Time) http.Header {
	t.Helper()
	insert := func(rows ...any) { insertRows(t, db, rows...) }
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	ptr := func(t time.Time) *time.Time { return &t }
	user := func(name string, made time.Duration, login *time.Time) *models.User {
		return &models.User{Username: name, Email: name + "@example.com", Status: models.UserActive, IsActive: true,
			CreatedAt: at(made), UpdatedAt: at(made), LastLoginAt: login}
	}
	u1, u2, u3 := user("u1", day, ptr(at(2*time.Hour))), user("u2", 3*day, ptr(at(8*day))), user("u3", 6*day, nil)
	u4, u5, u6 := user("u4", 8*day, ptr(at(day))), user("u5", 13*day, nil), user("u6", 30*day, nil)
	insert(u1, u2, u3, u4, u5, u6)
	post := func(title, status string, made time.Duration) *models.Post {
		return &models.Post{Title: title, Content: "x", AuthorID: u1.ID, Status: status, CreatedAt: at(made), UpdatedAt: at(made)}
	}
	p1, p2, p3, p4 := post("p1", models.PostPublished, day), post("p2", models.PostFlagged, 2*day), post("p3", models.PostHidden, 9*day), post("p4", models.PostFlagged, 20*day)
	insert(p1, p2, p3, p4)
	action := func(p *models.Post, when time.Duration) *models.ModerationAction {
		return &models.ModerationAction{PostID: p.ID, PostTitle: p.Title, Action: "flag", FromStatus: "published", ToStatus: "flagged", CreatedAt: at(when)}
	}
	insert(action(p1, day), action(p1, 2*day), action(p3, 3*day), action(p4, 10*day))
	report := func(p *models.Post, by *models.User, made time.Duration, resolved *time.Time) *models.PostReport {
		status := models.ReportOpen
		if resolved != nil {
			status = "resolved"
		}
		return &models.PostReport{PostID: p.ID, ReporterID: by.ID, Reason: "spam", Status: status, CreatedAt: at(made), ResolvedAt: resolved}
	}
	insert(report(p2, u2, 2*day, nil), report(p1, u2, 5*day, ptr(at(day))), report(p3, u2, 9*day, ptr(at(8*day))),
		report(p4, u2, 3*day, ptr(at(3*day-2*time.Hour))))
	dayOf := func(d time.Duration) time.Time { return at(d).Truncate(day) }
	insert(&models.AnalyticsDailyStats{Day: dayOf(0), ActiveUsers: 10, Sessions: 4, TotalSessionSeconds: 400},
		&models.AnalyticsDailyStats{Day: dayOf(2 * day), ActiveUsers: 20, Sessions: 6, TotalSessionSeconds: 1000},
		&models.AnalyticsDailyStats{Day: dayOf(10 * day), ActiveUsers: 99, Sessions: 99, TotalSessionSeconds: 9999},
		&models.AnalyticsDailyEvents{Day: dayOf(0), EventType: "page_view", Events: 5},
		&models.AnalyticsDailyEvents{Day: dayOf(2 * day), EventType: "click", Events: 3},
		&models.AnalyticsDailyEvents{Day: dayOf(10 * day), EventType: "click", Events: 100})
	// Stored events: the hourly series counts them as they are stored.
	var events []models.AnalyticsEvent
	for i := range 16 {
		when := at(2 * time.Hour)
		if i >= 7 {
			when = at(30 * time.Hour)
		}
		events = append(events, models.AnalyticsEvent{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), EventType: "page_view",
			EventData: map[string]any{}, PagePath: "/", OccurredAt: when, ReceivedAt: when})
	}
	if err := app.Store.Analytics.InsertEvents(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	app.Store.Now = func() time.Time { return at(time.Hour) }
	root, _ := app.Admin(t)
	return root
}

type analyticsAnswer struct {
	Data struct {
		Period, StartDate, EndDate string
		Users                      *struct {
			Total, Active, New int
			Growth             string
		}
		Content    *struct{ TotalPosts, NewPosts, ModeratedPosts, FlaggedPosts int }
		Engagement *struct {
			AvgSessionDuration string
			DailyActiveUsers   int
			PostsPerUser       float64
		}
		Moderation *struct {
			ReportsReceived, ReportsResolved int
			AverageResolutionTime            string
		}
		Series struct {
			Bucket string
			Points []struct {
				At                                            string
				NewUsers, NewPosts, Events, ModerationActions *int
			}
		}
	}
}

func getAnalytics(t *testing.T, app *apptest.App, h http.Header, query string) analyticsAnswer {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/v1/admin/analytics?"+query, h)
	var out analyticsAnswer
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 200 {
		t.Fatalf("%s: %d %s", query, res.Code, res.Body)
	}
	return out
}

// TestAnalyticsSections: each section of the last 7 days against the
// fixture's hand-counted figures, with the clock fixed at noon UTC.
func TestAnalyticsSections(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		now := time.Now().UTC().Truncate(day).Add(12 * time.Hour)
		app := apptest.New(t, db, func(d *web.Deps) { d.Now = func() time.Time { return now } })
		root := analyticsFixture(t, app, db, now)
		got := getAnalytics(t, app, root, "period=7d").Data
		if got.Period != "7d" || got.EndDate != now.Format("2006-01-02T15:04:05.000Z") {
			t.Errorf("period %s ending %s", got.Period, got.EndDate)
		}
		// New: u1, u2, u3 and the admin against u4 and u5; active: u1 and u4.
		if u := got.Users; u == nil || u.Total != 7 || u.New != 4 || u.Active != 2 || u.Growth != "+100.0%" {
			t.Errorf("users: %+v", u)
		}
		// New: p1, p2; moderated: p1 (twice) and p3; flagged now: p2, p4.
		if c := got.Content; c == nil || c.TotalPosts != 4 || c.NewPosts != 2 || c.ModeratedPosts != 2 || c.FlaggedPosts != 2 {
			t.Errorf("content: %+v", c)
		}
		// 1,400 s over 10 sessions; 30 active over the 8 days the window
		// touches; 2 new posts per 2 active users.
		if e := got.Engagement; e == nil || e.AvgSessionDuration != "2m 20s" || e.DailyActiveUsers != 4 || e.PostsPerUser != 1 {
			t.Errorf("engagement: %+v", e)
		}
		// Filed: on p2, p1 and p4; resolved: after 96 h and 2 h.
		if m := got.Moderation; m == nil || m.ReportsReceived != 3 || m.ReportsResolved != 2 || m.AverageResolutionTime != "49h 0m" {
			t.Errorf("moderation: %+v", m)
		}
		wantSeries := map[int][4]int{0: {1, 0, 5, 0}, 1: {1, 1, 0, 1}, 2: {0, 1, 3, 1}, 3: {1, 0, 0, 1}, 6: {1, 0, 0, 0}}
		if s := got.Series; s.Bucket != "day" || len(s.Points) != 8 {
			t.Fatalf("series: %s with %d points", s.Bucket, len(s.Points))
		}
		for i, p := range got.Series.Points {
			daysAgo := 7 - i
			w := wantSeries[daysAgo]
			if p.At != now.Add(-time.Duration(daysAgo)*day).Truncate(day).Format("2006-01-02T15:04:05.000Z") ||
				*p.NewUsers != w[0] || *p.NewPosts != w[1] || *p.Events != w[2] || *p.ModerationActions != w[3] {
				t.Errorf("%d days ago: %s users %d posts %d events %d actions %d, want %v", daysAgo, p.At, *p.NewUsers, *p.NewPosts, *p.Events, *p.ModerationActions, w)
			}
		}
	})
}

// TestAnalyticsWindowsAndMetrics: metrics keep only their sections (and
// their series counts); dates make a custom window of whole days; a day
// is by the hour.
func TestAnalyticsWindowsAndMetrics(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		now := time.Now().UTC().Truncate(day).Add(12 * time.Hour)
		app := apptest.New(t, db, func(d *web.Deps) { d.Now = func() time.Time { return now } })
		root := analyticsFixture(t, app, db, now)
		got := getAnalytics(t, app, root, "metrics=users&metrics=moderation").Data
		p := got.Series.Points[0]
		if got.Users == nil || got.Moderation == nil || got.Content != nil || got.Engagement != nil ||
			p.NewUsers == nil || p.ModerationActions == nil || p.NewPosts != nil || p.Events != nil {
			t.Errorf("metrics=users,moderation answered %+v", got)
		}
		// Every spelling of a list of metrics picks the same sections; all
		// picks every one, as leaving metrics out does.
		for query, want := range map[string]string{
			"metrics=users,moderation":                  "users moderation",
			"metrics[]=users&metrics[]=moderation":      "users moderation",
			"metrics%5B%5D=users&metrics%5B%5D=content": "users content",
			"metrics=engagement&metrics[]=users":        "users engagement",
			"metrics=all":                               "users content engagement moderation",
			"metrics[]=all":                             "users content engagement moderation",
			"metrics=users,all":                         "users content engagement moderation",
			"metrics=%20content%20,%20engagement":       "content engagement",
			"":                                          "users content engagement moderation",
		} {
			if got := getAnalytics(t, app, root, query).sections(); got != want {
				t.Errorf("%s: sections %q, want %q", query, got, want)
			}
		}
		// Three whole days: u1 and u2 are new, against u3 in the three before.
		from, to := now.Add(-3*day).Format(time.DateOnly), now.Add(-day).Format(time.DateOnly)
		custom := getAnalytics(t, app, root, fmt.Sprintf("startDate=%s&endDate=%s&metrics=users", from, to)).Data
		if custom.Period != "custom" || custom.Users.New != 2 || custom.Users.Growth != "+100.0%" || len(custom.Series.Points) != 3 {
			t.Errorf("%s to %s: %+v (%d points)", from, to, custom.Users, len(custom.Series.Points))
		}
		// The last 24 hours' events come from the hourly counters: 7 two
		// hours ago; the 9 of 30 hours ago are outside.
		events := getAnalytics(t, app, root, "period=day&metrics=engagement").Data.Series.Points
		total := 0
		for _, p := range events {
			total += *p.Events
		}
		if total != 7 || *events[22].Events != 7 {
			t.Errorf("hourly events: %d in all, %d two hours ago", total, *events[22].Events)
		}
		hourly := getAnalytics(t, app, root, "period=day&metrics=users").Data
		if hourly.Period != "1d" || hourly.Series.Bucket != "hour" || len(hourly.Series.Points) != 24 || *hourly.Series.Points[23].NewUsers != 1 {
			t.Errorf("a day: %s by %s, %d points", hourly.Period, hourly.Series.Bucket, len(hourly.Series.Points))
		}
	})
}

// sections names the sections an answer holds, in answer order.
func (ans analyticsAnswer) sections() string {
	a := ans.Data
	var out []string
	for _, s := range []struct {
		name string
		in   bool
	}{{"users", a.Users != nil}, {"content", a.Content != nil}, {"engagement", a.Engagement != nil}, {"moderation", a.Moderation != nil}} {
		if s.in {
			out = append(out, s.name)
		}
	}
	return strings.Join(out, " ")
}

// TestAnalyticsRefusals: bad periods, dates and metrics are 422 naming
// the field; callers without admin:read are refused.
func TestAnalyticsRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		for query, field := range map[string]string{
			"period=2d":            "period",
			"period=":              "period",
			"metrics=users,visits": "metrics",
			"metrics=":             "metrics",
			"metrics[]=visits":     "metrics",
			"startDate=yesterday":  "startDate",
			"startDate=2026-05-01&endDate=2026-04-30": "endDate",
			"startDate=2020-01-01&endDate=2026-01-01": "endDate",
			"endDate=2026-04-30":                      "startDate",
			"period=7d&startDate=2026-04-01":          "period",
		} {
			wantInvalid(t, app, "GET", "/api/v1/admin/analytics?"+query, root, "", field)
		}
		mod := app.User(t, "mod@example.com", access.ImpliedRoles(access.RoleModerator)...)
		wantAdminOnly(t, app, app.SessionFor(t, mod.ID), "GET", "/api/v1/admin/analytics", "")
	})
}
