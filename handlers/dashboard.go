package handlers

import (
	"context"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// StatsReader counts what the dashboard shows to every member of staff:
// the open reports, and the posts they are on (the queue's count).
type StatsReader interface {
	OpenReports(ctx context.Context) (int, error)
	QueueCount(ctx context.Context) (int, error)
}

// Dashboard answers GET /admin, the console's landing page: service
// health and open reports for all staff, and for those with admin:read the
// analytics of GET /api/v1/admin/analytics over the chosen period.
type Dashboard struct {
	Health    Health
	Stats     StatsReader
	Analytics Analytics
	Policy    policy.Policy
}

// dashboardPeriods maps the dashboard's period switch to analytics periods.
var dashboardPeriods = map[string]string{"day": "1d", "week": "7d", "month": "30d", "year": "1y"}

// Handle renders the dashboard; an htmx request for another period gets
// the analytics part alone. Statuses: 200, 401, 403, 422 (period).
func (h Dashboard) Handle(c echo.Context) error {
	ctx := c.Request().Context()
	period := c.QueryParam("period")
	if period == "" {
		period = "week"
	}
	if _, ok := dashboardPeriods[period]; !ok {
		return api.Invalid(api.FieldIssue("period", "invalid_enum_value", "period must be day, week, month or year"))
	}
	who := access.PrincipalFrom(ctx)
	d := views.Dashboard{Health: h.Health.Check(ctx), Period: period,
		MayModerate: h.Policy.May(who, policy.ModeratePost, policy.Platform)}
	var err error
	if d.OpenReports, err = h.Stats.OpenReports(ctx); err != nil {
		return err
	}
	if d.QueuePosts, err = h.Stats.QueueCount(ctx); err != nil {
		return err
	}
	if h.Policy.May(who, policy.SeeAnalytics, policy.Platform) {
		a, err := h.Analytics.Result(ctx, url.Values{"period": {dashboardPeriods[period]}})
		if err != nil {
			return err
		}
		d.Analytics = &a
	}
	if api.FormatOf(c.Request()) == api.FormatPartial && d.Analytics != nil {
		return render(c, http.StatusOK, views.DashboardInsight(d))
	}
	return render(c, http.StatusOK, views.DashboardPage(d))
}
