package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// ReportStore is what the report handlers need.
type ReportStore interface {
	EachUserActivity(ctx context.Context, q models.ActivityQuery, fn func(*models.UserActivity) error) error
	UserActivityPage(ctx context.Context, q models.ActivityQuery) ([]models.UserActivity, models.ActivityTotals, error)
	UserActivities(ctx context.Context, users []int64, start, end time.Time) (map[int64][]models.Activity, error)
	ModerationReport(ctx context.Context, q models.ModerationQuery) (*models.ModerationSummary, error)
	EachModerationAction(ctx context.Context, q models.ModerationQuery, fn func(*models.ModeratedPostRow) error) error
}

// Reports answers the admin reports, as JSON or as CSV streamed row by row.
type Reports struct {
	Store  ReportStore
	People People
	Now    func() time.Time
	Log    *slog.Logger
}

// UserActivity answers GET /api/v1/admin/reports/user-activity: the users
// active in the window (posts, sign-ins, events), in id order.
func (h Reports) UserActivity(c echo.Context) error {
	q := consoleWindow(c, h.Now())
	p, issues := api.ParseReport(q, h.Now().UTC())
	user, more, err := personFilter(c, q, "userId", h.People)
	if err != nil {
		return err
	}
	details, evenMore := api.ParseBool(q, "includeDetails")
	if issues = append(append(issues, more...), evenMore...); len(issues) > 0 {
		return api.Invalid(issues...)
	}
	aq := models.ActivityQuery{Start: p.Start, End: p.End, UserID: user}
	if p.Paged {
		aq.Limit, aq.Offset = p.Page.Limit, p.Page.Offset
	}
	if p.CSV {
		return h.activityCSV(c, aq)
	}
	ctx := c.Request().Context()
	rows, totals, err := h.Store.UserActivityPage(ctx, aq)
	if err != nil {
		return err
	}
	out := api.V1ActivityReport{Period: period(p), Users: make([]api.V1ActivityRow, len(rows)),
		Totals: api.V1ActivityTotals{Users: totals.Users, Posts: totals.Posts, Logins: totals.Logins, Events: totals.Events}}
	for i, r := range rows {
		out.Users[i] = api.V1ActivityRow{UserID: itoa(r.UserID), Username: r.Username, Posts: r.Posts, Logins: r.Logins,
			Events: r.Events, LastActiveAt: api.OptionalTimestamp(r.LastActiveAt)}
	}
	if details {
		if err := h.addActivities(ctx, &out, rows, p); err != nil {
			return err
		}
	}
	res := api.Page(out, totals.Users, p.Page)
	view := views.ActivityReport{Report: out, Pagination: res.Meta.Pagination, Query: reportQuery(c, q), UserID: idText(user)}
	return respond(c, http.StatusOK, res, View{Partial: views.ActivityReportTable(view), Page: views.ActivityReportPage(view)})
}

// consoleWindow is a report's query, where a console report without
// dates gets the last 30 UTC days, today included, as dates: its form
// shows them, and whole days read the daily roll-ups. The API's default
// stays the 30 days before now.
func consoleWindow(c echo.Context, now time.Time) url.Values {
	q := c.QueryParams()
	if !strings.HasPrefix(c.Path(), api.PathConsoleReports) || q.Get("startDate") != "" || q.Get("endDate") != "" {
		return q
	}
	today := now.UTC().Truncate(24 * time.Hour)
	q = cloneValues(q)
	q.Set("startDate", today.Add(-api.DefaultReportSpan).AddDate(0, 0, 1).Format(time.DateOnly))
	q.Set("endDate", today.Format(time.DateOnly))
	return q
}

// reportQuery is a console report's URL state, with the window it shows.
func reportQuery(c echo.Context, q url.Values) views.Query {
	return views.Query{Path: c.Request().URL.Path, Values: q}
}

func (h Reports) addActivities(ctx context.Context, out *api.V1ActivityReport, rows []models.UserActivity, p api.ReportParams) error {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.UserID
	}
	acts, err := h.Store.UserActivities(ctx, ids, p.Start, p.End)
	if err != nil {
		return err
	}
	for i, r := range rows {
		list := make([]api.V1Activity, len(acts[r.UserID]))
		for j, a := range acts[r.UserID] {
			list[j] = api.V1Activity{Type: a.Type, At: api.Timestamp(a.At), Details: a.Details}
		}
		out.Users[i].Activity = list
	}
	return nil
}

func (h Reports) activityCSV(c echo.Context, q models.ActivityQuery) error {
	name := "user-activity-" + q.Start.Format(time.DateOnly) + "-to-" + q.End.Format(time.DateOnly) + ".csv"
	return streamCSV(c, h.Log, name, api.ActivityCSVHeader, func(row func(...string) error) error {
		return h.Store.EachUserActivity(c.Request().Context(), q, func(r *models.UserActivity) error {
			last := ""
			if r.LastActiveAt != nil {
				last = api.Timestamp(*r.LastActiveAt)
			}
			return row(itoa(r.UserID), r.Username, strconv.Itoa(r.Posts), strconv.Itoa(r.Logins), strconv.Itoa(r.Events), last)
		})
	})
}

// Moderation answers GET /api/v1/admin/reports/moderation: the window's
// reports and moderation actions summed, or with format=csv the actions
// themselves, one a row.
func (h Reports) Moderation(c echo.Context) error {
	q := consoleWindow(c, h.Now())
	p, issues := api.ParseReport(q, h.Now().UTC())
	admin, more, err := personFilter(c, q, "adminId", h.People)
	if err != nil {
		return err
	}
	if issues = append(issues, more...); len(issues) > 0 {
		return api.Invalid(issues...)
	}
	mq := models.ModerationQuery{Start: p.Start, End: p.End, AdminID: admin}
	if p.CSV {
		return h.moderationCSV(c, mq)
	}
	r, err := h.Store.ModerationReport(c.Request().Context(), mq)
	if err != nil {
		return err
	}
	out := api.V1ModerationReport{Period: period(p),
		Totals: api.V1ModerationTotals{ReportsReceived: r.Received, ReportsResolved: r.Resolved, Pending: r.Pending,
			AverageResolutionTime: api.HoursMinutes(r.AvgResolution)},
		ByAction: api.V1ActionCounts{Approve: r.ByAction["approve"], Hide: r.ByAction["hide"], Delete: r.ByAction["delete"], Flag: r.ByAction["flag"],
			Dismiss: r.ByAction["dismiss"]},
		ByModerator: make([]api.V1ModeratorActions, len(r.ByModerator)), TopReportedPosts: make([]api.V1ReportedPost, len(r.TopReported))}
	for i, m := range r.ByModerator {
		out.ByModerator[i] = api.V1ModeratorActions{AdminID: optionalID(m.AdminID), Username: m.Username, Actions: m.Actions}
	}
	for i, t := range r.TopReported {
		out.TopReportedPosts[i] = api.V1ReportedPost{ID: itoa(t.ID), Title: t.Title, ReportCount: t.Reports}
	}
	view := views.ModerationReport{Report: out, Query: reportQuery(c, q), AdminID: idText(admin)}
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.ModerationReportBody(view), Page: views.ModerationReportPage(view)})
}

func (h Reports) moderationCSV(c echo.Context, q models.ModerationQuery) error {
	name := "moderation-" + q.Start.Format(time.DateOnly) + "-to-" + q.End.Format(time.DateOnly) + ".csv"
	return streamCSV(c, h.Log, name, api.ModerationCSVHeader, func(row func(...string) error) error {
		return h.Store.EachModerationAction(c.Request().Context(), q, func(r *models.ModeratedPostRow) error {
			admin, username := "", ""
			if r.AdminID != nil {
				admin = itoa(*r.AdminID)
			}
			if r.AdminUsername != nil {
				username = *r.AdminUsername
			}
			return row(itoa(r.ID), api.Timestamp(r.CreatedAt), admin, username, r.Action, itoa(r.PostID), r.PostTitle,
				r.Reason, r.Notes, r.FromStatus, r.ToStatus)
		})
	})
}

func period(p api.ReportParams) api.ReportPeriod {
	return api.ReportPeriod{StartDate: api.Timestamp(p.Start), EndDate: api.Timestamp(p.End)}
}
