package views_test

import (
	"bytes"
	"context"
	"regexp"
	"testing"

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
