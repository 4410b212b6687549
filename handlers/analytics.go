package handlers

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// AnalyticsStore is what the analytics handler needs.
type AnalyticsStore interface {
	UserAnalytics(ctx context.Context, w models.AnalyticsWindow) (*models.UserFigures, error)
	ContentAnalytics(ctx context.Context, w models.AnalyticsWindow) (*models.ContentFigures, error)
	EngagementAnalytics(ctx context.Context, w models.AnalyticsWindow) (*models.EngagementFigures, error)
	ModerationAnalytics(ctx context.Context, w models.AnalyticsWindow) (*models.ModerationFigures, error)
	AnalyticsSeries(ctx context.Context, w models.AnalyticsWindow, wants models.SeriesWants) ([]models.SeriesPoint, error)
}

// Analytics answers GET /api/v1/admin/analytics.
type Analytics struct {
	Store AnalyticsStore
	Now   func() time.Time
}

// hourlyUpTo is the longest window whose series is by hour.
const hourlyUpTo = 48 * time.Hour

// Get answers the sections the query asks for (all by default) over its
// window, with the window's series. Statuses: 200, 401, 403, 422.
func (h Analytics) Get(c echo.Context) error {
	out, err := h.Result(c.Request().Context(), c.QueryParams())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(out))
}

// Result is the analytics a query asks for, as Get answers them and the
// console's dashboard shows them.
func (h Analytics) Result(ctx context.Context, q url.Values) (api.V1Analytics, error) {
	now := h.Now().UTC()
	p, err := api.ParseAnalytics(q, now)
	if err != nil {
		return api.V1Analytics{}, err
	}
	w := models.AnalyticsWindow{Start: p.Start, End: p.End, Hourly: p.End.Sub(p.Start) <= hourlyUpTo, ToNow: !p.End.Before(now)}
	out := api.V1Analytics{Period: p.Period, StartDate: api.Timestamp(p.Start), EndDate: api.Timestamp(p.End)}
	for _, section := range []struct {
		name string
		fill func(context.Context, models.AnalyticsWindow, *api.V1Analytics) error
	}{{"users", h.users}, {"content", h.content}, {"engagement", h.engagement}, {"moderation", h.moderation}} {
		if p.Sections[section.name] {
			if err := section.fill(ctx, w, &out); err != nil {
				return out, err
			}
		}
	}
	out.Series, err = h.series(ctx, w, p.Sections)
	return out, err
}

func (h Analytics) users(ctx context.Context, w models.AnalyticsWindow, out *api.V1Analytics) error {
	f, err := h.Store.UserAnalytics(ctx, w)
	if err == nil {
		out.Users = &api.V1UserAnalytics{Total: f.Total, Active: f.Active, New: f.New, Growth: api.Growth(f.New, f.NewBefore)}
	}
	return err
}

func (h Analytics) content(ctx context.Context, w models.AnalyticsWindow, out *api.V1Analytics) error {
	f, err := h.Store.ContentAnalytics(ctx, w)
	if err == nil {
		out.Content = &api.V1ContentAnalytics{TotalPosts: f.TotalPosts, NewPosts: f.NewPosts,
			ModeratedPosts: f.ModeratedPosts, FlaggedPosts: f.FlaggedPosts}
	}
	return err
}

func (h Analytics) engagement(ctx context.Context, w models.AnalyticsWindow, out *api.V1Analytics) error {
	f, err := h.Store.EngagementAnalytics(ctx, w)
	if err != nil {
		return err
	}
	var avg time.Duration
	if f.Sessions > 0 {
		avg = time.Duration(float64(f.SessionSeconds) / float64(f.Sessions) * float64(time.Second))
	}
	perUser := 0.0
	if f.ActiveUsers > 0 {
		perUser = math.Round(float64(f.NewPosts)/float64(f.ActiveUsers)*100) / 100
	}
	out.Engagement = &api.V1EngagementAnalytics{AvgSessionDuration: api.MinutesSeconds(avg),
		DailyActiveUsers: int(math.Round(f.DailyActive)), PostsPerUser: perUser}
	return nil
}

func (h Analytics) moderation(ctx context.Context, w models.AnalyticsWindow, out *api.V1Analytics) error {
	f, err := h.Store.ModerationAnalytics(ctx, w)
	if err == nil {
		out.Moderation = &api.V1ModerationAnalytics{ReportsReceived: f.Received, ReportsResolved: f.Resolved,
			AverageResolutionTime: api.HoursMinutes(f.AvgResolution)}
	}
	return err
}

// series carries the counts of the sections asked for.
func (h Analytics) series(ctx context.Context, w models.AnalyticsWindow, sections map[string]bool) (api.V1Series, error) {
	wants := models.SeriesWants{Users: sections["users"], Posts: sections["content"], Events: sections["engagement"], Moderation: sections["moderation"]}
	points, err := h.Store.AnalyticsSeries(ctx, w, wants)
	if err != nil {
		return api.V1Series{}, err
	}
	out := api.V1Series{Bucket: "day", Points: make([]api.V1SeriesPoint, len(points))}
	if w.Hourly {
		out.Bucket = "hour"
	}
	for i := range points {
		pt := &points[i]
		out.Points[i] = api.V1SeriesPoint{At: api.Timestamp(pt.At),
			NewUsers: countIf(wants.Users, pt.NewUsers), NewPosts: countIf(wants.Posts, pt.NewPosts),
			Events: countIf(wants.Events, pt.Events), ModerationActions: countIf(wants.Moderation, pt.ModerationActions)}
	}
	return out, nil
}

func countIf(want bool, n int) *int {
	if !want {
		return nil
	}
	return &n
}
