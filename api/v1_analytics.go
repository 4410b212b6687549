package api

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
)

// AnalyticsPeriods are the periods of GET /api/v1/admin/analytics
// (1d, 7d, 30d, 90d, 1y), with the words day, week, month and year as
// Plaza's spellings of 1d, 7d, 30d and 1y.
var AnalyticsPeriods = map[string]time.Duration{
	"1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "30d": 30 * 24 * time.Hour, "90d": 90 * 24 * time.Hour, "1y": 365 * 24 * time.Hour,
	"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour,
}

// periodNames maps Plaza's spellings to the contract's.
var periodNames = map[string]string{"day": "1d", "week": "7d", "month": "30d", "year": "1y"}

// AnalyticsSections are the sections metrics may name, in answer order.
var AnalyticsSections = []string{"users", "content", "engagement", "moderation"}

// MaxAnalyticsSpan bounds a window given by dates.
const MaxAnalyticsSpan = 2 * 366 * 24 * time.Hour

// V1AnalyticsQuery documents the query of GET /api/v1/admin/analytics.
type V1AnalyticsQuery struct {
	Period    string   `query:"period" enum:"1d,7d,30d,90d,1y,day,week,month,year" default:"7d" description:"The span ending now; day, week, month and year mean 1d, 7d, 30d and 1y."`
	StartDate string   `query:"startDate" description:"Instead of period: an ISO date (midnight UTC) or RFC 3339 time."`
	EndDate   string   `query:"endDate" description:"With startDate: an ISO date (its whole day) or RFC 3339 time; default now."`
	Metrics   []string `query:"metrics" description:"The sections to answer: all (the default), or any of users, content, engagement, moderation, as a comma list (metrics=users,content), repeated (metrics=users&metrics=content) or in the bracket form (metrics[]=users&metrics[]=content)."`
}

// AnalyticsParams are the checked parameters: the window, the period's
// name ("custom" for dates) and the sections asked for.
type AnalyticsParams struct {
	Start, End time.Time
	Period     string
	Sections   map[string]bool
}

// ParseAnalytics reads the query against now, or says what is wrong.
func ParseAnalytics(q url.Values, now time.Time) (AnalyticsParams, error) {
	p := AnalyticsParams{End: now, Period: "7d"}
	issues := p.window(q, now)
	p.Sections, issues = parseSections(q, issues)
	if len(issues) > 0 {
		return p, Invalid(issues...)
	}
	return p, nil
}

func (p *AnalyticsParams) window(q url.Values, now time.Time) []Issue {
	start, issues := ParseTime(q, "startDate", false)
	end, more := ParseTime(q, "endDate", true)
	issues = append(issues, more...)
	period, hasPeriod := param(q, "period")
	switch {
	case len(issues) > 0:
		return issues
	case hasPeriod && (start != nil || end != nil):
		return []Issue{FieldIssue("period", "invalid_union", "give period or startDate and endDate, not both")}
	case start == nil && end != nil:
		return []Issue{FieldIssue("startDate", "invalid_type", "startDate is required with endDate")}
	case start != nil:
		p.Start, p.Period = *start, "custom"
		if end != nil {
			p.End = *end
		}
		return p.checkSpan()
	}
	if hasPeriod {
		d, ok := AnalyticsPeriods[period]
		if !ok {
			return []Issue{FieldIssue("period", "invalid_enum_value", "period must be 1d, 7d, 30d, 90d or 1y (or day, week, month, year)")}
		}
		p.Period = period
		if name, ok := periodNames[period]; ok {
			p.Period = name
		}
		p.Start = now.Add(-d)
		return nil
	}
	p.Start = now.Add(-AnalyticsPeriods["7d"])
	return nil
}

func (p *AnalyticsParams) checkSpan() []Issue {
	switch span := p.End.Sub(p.Start); {
	case span <= 0:
		return []Issue{FieldIssue("endDate", "too_small", "endDate must be after startDate")}
	case span > MaxAnalyticsSpan:
		return []Issue{FieldIssue("endDate", "too_big", "a window may span at most two years")}
	}
	return nil
}

// parseSections reads the sections asked for. Clients spell a list of
// metrics three ways, and any mix of them works: metrics=users,content,
// metrics=users&metrics=content and metrics[]=users&metrics[]=content;
// all, like leaving metrics out, asks for every section.
func parseSections(q url.Values, issues []Issue) (map[string]bool, []Issue) {
	out := map[string]bool{}
	vals := append(append([]string(nil), q["metrics"]...), q["metrics[]"]...)
	if len(vals) == 0 {
		vals = []string{"all"}
	}
	for _, v := range vals {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			switch {
			case name == "all":
				for _, s := range AnalyticsSections {
					out[s] = true
				}
			case oneOf(name, AnalyticsSections):
				out[name] = true
			default:
				return out, append(issues, FieldIssue("metrics", "invalid_enum_value",
					fmt.Sprintf("unknown metric %q: metrics are all, users, content, engagement and moderation", name)))
			}
		}
	}
	return out, issues
}

// V1Analytics answers GET /api/v1/admin/analytics:
// only the sections asked for, and the window's series.
type V1Analytics struct {
	Period     string                 `json:"period" description:"1d, 7d, 30d, 90d, 1y, or custom for dates."`
	StartDate  string                 `json:"startDate" format:"date-time"`
	EndDate    string                 `json:"endDate" format:"date-time"`
	Users      *V1UserAnalytics       `json:"users,omitempty"`
	Content    *V1ContentAnalytics    `json:"content,omitempty"`
	Engagement *V1EngagementAnalytics `json:"engagement,omitempty"`
	Moderation *V1ModerationAnalytics `json:"moderation,omitempty"`
	Series     V1Series               `json:"series"`
}

// V1UserAnalytics is the users section.
type V1UserAnalytics struct {
	Total  int    `json:"total" description:"Every account."`
	Active int    `json:"active" description:"Accounts whose latest sign-in falls in the window."`
	New    int    `json:"new" description:"Accounts made in the window."`
	Growth string `json:"growth" description:"New accounts against the window before, e.g. +12.5%; +100.0% from none."`
}

// V1ContentAnalytics is the content section.
type V1ContentAnalytics struct {
	TotalPosts     int `json:"totalPosts"`
	NewPosts       int `json:"newPosts" description:"Posts made in the window."`
	ModeratedPosts int `json:"moderatedPosts" description:"Distinct posts with a moderation action in the window."`
	FlaggedPosts   int `json:"flaggedPosts" description:"Posts flagged now."`
}

// V1EngagementAnalytics is the engagement section, from the daily roll-ups.
type V1EngagementAnalytics struct {
	AvgSessionDuration string  `json:"avgSessionDuration" description:"e.g. 4m 32s."`
	DailyActiveUsers   int     `json:"dailyActiveUsers" description:"The average over the UTC days the window touches of each day's active users (rounded)."`
	PostsPerUser       float64 `json:"postsPerUser" description:"Posts made in the window per active user, two decimals."`
}

// V1ModerationAnalytics is the moderation section.
type V1ModerationAnalytics struct {
	ReportsReceived       int    `json:"reportsReceived"`
	ReportsResolved       int    `json:"reportsResolved"`
	AverageResolutionTime string `json:"averageResolutionTime" description:"Of the reports resolved in the window, e.g. 2h 15m."`
}

// V1Series is the window's buckets for charts: by hour for a window of
// two days or less, else by UTC day.
type V1Series struct {
	Bucket string          `json:"bucket" enum:"hour,day"`
	Points []V1SeriesPoint `json:"points"`
}

// V1SeriesPoint is one bucket; each count comes with its section.
type V1SeriesPoint struct {
	At                string `json:"at" format:"date-time"`
	NewUsers          *int   `json:"newUsers,omitempty" description:"With users."`
	NewPosts          *int   `json:"newPosts,omitempty" description:"With content."`
	Events            *int   `json:"events,omitempty" description:"With engagement; by day from the roll-ups, whole days."`
	ModerationActions *int   `json:"moderationActions,omitempty" description:"With moderation."`
}

// Growth writes the change from before to now as a signed percentage with
// one decimal; from none to some is +100.0%.
func Growth(now, before int) string {
	switch {
	case before == 0 && now == 0:
		return "+0.0%"
	case before == 0:
		return "+100.0%"
	}
	pct := math.Round(float64(now-before)/float64(before)*1000) / 10
	if pct >= 0 { // a change that rounds to nothing is +0.0%, never -0.0%
		return fmt.Sprintf("+%.1f%%", math.Abs(pct))
	}
	return fmt.Sprintf("%.1f%%", pct)
}

// MinutesSeconds writes d as "4m 32s" (hours count as minutes).
func MinutesSeconds(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%dm %ds", s/60, s%60)
}

// HoursMinutes writes d as "2h 15m".
func HoursMinutes(d time.Duration) string {
	m := int64(d.Round(time.Minute) / time.Minute)
	return fmt.Sprintf("%dh %dm", m/60, m%60)
}
