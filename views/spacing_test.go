package views_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// TestWordsAroundTimesAreSpaced renders every sentence that wraps a time
// in words: templ drops the line breaks around a component call, so each
// needs its spaces written out, or the page says "From30 days agotoin 12
// hours" and "expiresin 1 hour". A word may not touch a <time> element.
func TestWordsAroundTimesAreSpaced(t *testing.T) {
	at, later, ended, mod := "2026-11-20T10:00:00.000Z", "2026-11-27T10:00:00.000Z", "2026-11-21T10:00:00.000Z", "mod"
	user := api.V1UserDetail{V1User: api.V1User{ID: "7", Username: "ada", Status: "active", Role: "user", CreatedAt: at},
		Bans:    []api.V1BanRecord{{ID: "1", Reason: "spam", CreatedAt: at, ExpiresAt: &later, EndedAt: &ended}},
		Strikes: []api.V1Strike{{Kind: "warning", Reason: "rude", At: at, By: &mod}}}
	period := api.ReportPeriod{StartDate: at, EndDate: later}
	glued := regexp.MustCompile(`[\pL\pN,;]<time|</time>[\pL\pN]`)
	for name, c := range map[string]templ.Component{
		"activity report":   views.ActivityReportTable(views.ActivityReport{Report: api.V1ActivityReport{Period: period}}),
		"moderation report": views.ModerationReportBody(views.ModerationReport{Report: api.V1ModerationReport{Period: period}}),
		"new token":         views.NewTokenPanel(api.NewToken{ID: "j", Token: "t", ExpiresAt: later}),
		"two-factor on":     views.TwoFactorPanel(api.TwoFactorStatus{Enabled: true, EnabledAt: &at}),
		"user page":         views.UserLive(views.UserPage{User: user, LockedBy: "bob", LockedAt: at}),
	} {
		var buf bytes.Buffer
		if err := c.Render(views.WithViewer(context.Background(), staff), &buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		times := bytes.Count(buf.Bytes(), []byte("<time"))
		if times == 0 {
			t.Errorf("%s shows no time; the test proves nothing", name)
		}
		for _, m := range glued.FindAllIndex(buf.Bytes(), -1) {
			from, to := max(m[0]-60, 0), min(m[1]+60, buf.Len())
			t.Errorf("%s: a word touches a time: …%s…", name, buf.Bytes()[from:to])
		}
	}
}

// TestTimeWindowsReadNaturally: a ban's end and a report's window read as
// people say them, not as two relative times glued together ("until in
// 24 hours", "From 29 days ago to in 22 hours").
func TestTimeWindowsReadNaturally(t *testing.T) {
	now := time.Date(2026, 12, 7, 14, 0, 0, 0, time.UTC)
	ctx := views.WithNow(views.WithViewer(context.Background(), staff), now)
	stamp := func(t time.Time) string { return t.Format(time.RFC3339Nano) }
	ban := func(created, expires time.Time) string {
		exp := stamp(expires)
		user := api.V1UserDetail{V1User: api.V1User{ID: "7", Username: "ada", Status: "banned", Role: "user", CreatedAt: stamp(created)},
			Bans: []api.V1BanRecord{{ID: "1", Reason: "spam", Active: true, CreatedAt: stamp(created), ExpiresAt: &exp}}}
		return renderText(t, ctx, views.UserLive(views.UserPage{User: user}))
	}
	period := func(start, end time.Time) string {
		return renderText(t, ctx, views.ModerationReportBody(views.ModerationReport{Report: api.V1ModerationReport{
			Period: api.ReportPeriod{StartDate: stamp(start), EndDate: stamp(end)}}}))
	}
	midnight := time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{ban(now.Add(-2*time.Hour), now.Add(24*time.Hour)), "From 2 hours ago, until tomorrow 14:00 UTC"},
		{ban(now.Add(-2*24*time.Hour), now.Add(3*time.Hour)), "From 2 days ago, until today 17:00 UTC"},
		{ban(now.Add(-10*24*time.Hour), now.Add(5*24*time.Hour)), "From 10 days ago, until Saturday 12 Dec 14:00 UTC"},
		{ban(now.Add(-10*24*time.Hour), now.Add(-2*24*time.Hour)), "From 10 days ago, expired 2 days ago"},
		{period(midnight.Add(-30*24*time.Hour), midnight), "From 8 Nov to today, 7 Dec (30 days, UTC)"},
		{period(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)), "From 1 Oct to 31 Oct 2026 (31 days, UTC)"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("want %q in %q", c.want, c.got)
		}
	}
}

// renderText renders c in ctx and gives its words, one space apart.
func renderText(t *testing.T, ctx context.Context, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(doc.Text()), " ")
}
