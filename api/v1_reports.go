package api

import (
	"net/url"
	"strconv"
	"time"
)

// DefaultReportSpan is a report's window when no dates are given: the 30
// days ending now.
const DefaultReportSpan = 30 * 24 * time.Hour

// V1ActivityQuery documents the query of GET /api/v1/admin/reports/user-activity.
type V1ActivityQuery struct {
	UserID         string `query:"userId" description:"One user's row only."`
	StartDate      string `query:"startDate" description:"An ISO date (midnight UTC) or RFC 3339 time; default 30 days before endDate."`
	EndDate        string `query:"endDate" description:"An ISO date (its whole day) or RFC 3339 time; default now."`
	IncludeDetails bool   `query:"includeDetails" description:"Each user's latest 100 activities in the window (JSON only)."`
	Limit          int    `query:"limit" minimum:"1" maximum:"100" default:"50" description:"JSON only; CSV lists every row unless given."`
	Offset         int    `query:"offset" minimum:"0" default:"0"`
	Format         string `query:"format" enum:"json,csv" default:"json"`
}

// V1ModerationReportQuery documents the query of GET /api/v1/admin/reports/moderation.
type V1ModerationReportQuery struct {
	StartDate string `query:"startDate" description:"An ISO date (midnight UTC) or RFC 3339 time; default 30 days before endDate."`
	EndDate   string `query:"endDate" description:"An ISO date (its whole day) or RFC 3339 time; default now."`
	AdminID   string `query:"adminId" description:"One admin's actions and resolutions only."`
	Format    string `query:"format" enum:"json,csv" default:"json" description:"csv lists the moderation actions, one a row."`
}

// ReportParams are the checked parameters common to the reports.
type ReportParams struct {
	Start, End time.Time
	CSV        bool
	// Page is given for JSON always, for CSV only when the query names
	// limit or offset (else Paged is false and every row comes).
	Page  PageParams
	Paged bool
}

// ParseReport reads the window, format and page of a report's query.
func ParseReport(q url.Values, now time.Time) (ReportParams, []Issue) {
	p := ReportParams{End: now}
	start, issues := ParseTime(q, "startDate", false)
	end, more := ParseTime(q, "endDate", true)
	issues = append(issues, more...)
	if end != nil {
		p.End = *end
	}
	p.Start = p.End.Add(-DefaultReportSpan)
	if start != nil {
		p.Start = *start
	}
	if len(issues) == 0 {
		span := AnalyticsParams{Start: p.Start, End: p.End}
		issues = span.checkSpan()
	}
	switch f, _ := param(q, "format"); f {
	case "", "json":
	case "csv":
		p.CSV = true
	default:
		issues = append(issues, FieldIssue("format", "invalid_enum_value", "format must be json or csv"))
	}
	page, more := ParsePage(q)
	p.Page, p.Paged = page, !p.CSV || q.Has("limit") || q.Has("offset")
	return p, append(issues, more...)
}

// ParseBool reads an optional true/false parameter.
func ParseBool(q url.Values, name string) (bool, []Issue) {
	v, ok := param(q, name)
	if !ok {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, []Issue{FieldIssue(name, "invalid_type", name+" must be true or false")}
	}
	return b, nil
}

// ReportPeriod is a report's window.
type ReportPeriod struct {
	StartDate string `json:"startDate" format:"date-time"`
	EndDate   string `json:"endDate" format:"date-time"`
}

// V1ActivityReport answers the user-activity report; Plaza has no
// comments, so rows carry none.
type V1ActivityReport struct {
	Period ReportPeriod     `json:"period"`
	Users  []V1ActivityRow  `json:"users"`
	Totals V1ActivityTotals `json:"totals"`
}

// V1ActivityRow is one user's activity in the window.
type V1ActivityRow struct {
	UserID       string       `json:"userId"`
	Username     string       `json:"username"`
	Posts        int          `json:"posts"`
	Logins       int          `json:"logins"`
	Events       int          `json:"events"`
	LastActiveAt *string      `json:"lastActiveAt" format:"date-time"`
	Activity     []V1Activity `json:"activity,omitempty" description:"With includeDetails: the latest 100, newest first."`
}

// V1Activity is one thing a user did.
type V1Activity struct {
	Type    string `json:"type" enum:"post,login,event"`
	At      string `json:"at" format:"date-time"`
	Details string `json:"details" description:"The post's title, the sign-in's method or the event's type."`
}

// V1ActivityTotals sums every row of the report, not only the page's.
type V1ActivityTotals struct {
	Users  int `json:"users"`
	Posts  int `json:"posts"`
	Logins int `json:"logins"`
	Events int `json:"events"`
}

// ActivityCSVHeader is the header row of the user-activity CSV.
var ActivityCSVHeader = []string{"userId", "username", "posts", "logins", "events", "lastActiveAt"}

// V1ModerationReport answers the moderation report.
type V1ModerationReport struct {
	Period           ReportPeriod         `json:"period"`
	Totals           V1ModerationTotals   `json:"totals"`
	ByAction         V1ActionCounts       `json:"byAction"`
	ByModerator      []V1ModeratorActions `json:"byModerator"`
	TopReportedPosts []V1ReportedPost     `json:"topReportedPosts"`
}

// V1ModerationTotals are the window's reports.
type V1ModerationTotals struct {
	ReportsReceived       int    `json:"reportsReceived"`
	ReportsResolved       int    `json:"reportsResolved"`
	Pending               int    `json:"pending" description:"Reports filed in the window and still open."`
	AverageResolutionTime string `json:"averageResolutionTime" description:"e.g. 2h 15m."`
}

// V1ActionCounts counts the window's moderation actions by action; undos
// are corrections, not decisions, and are not counted.
type V1ActionCounts struct {
	Approve int `json:"approve"`
	Hide    int `json:"hide"`
	Delete  int `json:"delete"`
	Flag    int `json:"flag"`
	Dismiss int `json:"dismiss"`
}

// V1ModeratorActions counts one admin's actions.
type V1ModeratorActions struct {
	AdminID  *string `json:"adminId" description:"Null for an account since deleted."`
	Username *string `json:"username"`
	Actions  int     `json:"actions"`
}

// V1ReportedPost is one of the window's most reported posts.
type V1ReportedPost struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	ReportCount int    `json:"reportCount" description:"Reports filed in the window."`
}

// ModerationCSVHeader is the header row of the moderation CSV: one row per
// moderation action.
var ModerationCSVHeader = []string{"id", "createdAt", "adminId", "adminUsername", "action", "postId", "postTitle",
	"reason", "notes", "fromStatus", "toStatus"}
