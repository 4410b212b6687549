package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// Pinger checks that the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// ReplicaChecker reports on the read replica, if there is one.
type ReplicaChecker interface {
	ReplicaStatus(ctx context.Context) (models.ReplicaStatus, bool)
}

// healthTimeout is how long the database may take to answer.
const healthTimeout = 2 * time.Second

// Health answers GET /api/health: 200 when the database
// answers within 2 s, else 503 with status unhealthy, database
// disconnected and Retry-After. The console's status cards show the same
// result.
type Health struct {
	DB Pinger
	// Replica, when set, reports the read replica (models.Store).
	Replica ReplicaChecker
	// Limiter says where rate limits are counted (ratelimit.Limiter).
	Limiter interface{ Status() string }
	Version string
	Started time.Time
	Now     func() time.Time
}

// Handle answers GET /api/health and, for htmx, the dashboard's status cards.
func (h Health) Handle(c echo.Context) error {
	res := h.Check(c.Request().Context())
	status := http.StatusOK
	if res.Status != api.StatusHealthy {
		status = http.StatusServiceUnavailable
		c.Response().Header().Set("Retry-After", strconv.Itoa(api.DatabaseRetryAfter))
	}
	noStore(c)
	return respond(c, status, res, View{Partial: views.HealthCards(res)})
}

// Check pings the database and reports.
func (h Health) Check(ctx context.Context) api.Health {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	now := h.Now()
	res := api.Health{
		Status:    api.StatusHealthy,
		Timestamp: api.Timestamp(now),
		Version:   h.Version,
		Database:  api.DatabaseConnected,
		Uptime:    FormatUptime(now.Sub(h.Started)),
	}
	if h.Limiter != nil {
		res.RateLimiter = h.Limiter.Status()
	}
	if err := h.DB.Ping(ctx); err != nil {
		res.Status, res.Database = api.StatusUnhealthy, api.DatabaseUnreachable
	}
	if h.Replica != nil {
		res.Replica = replicaHealth(h.Replica.ReplicaStatus(ctx))
	}
	return res
}

// replicaHealth is the replica part of the health answer; nil without a
// replica.
func replicaHealth(st models.ReplicaStatus, ok bool) *api.ReplicaHealth {
	if !ok {
		return nil
	}
	out := &api.ReplicaHealth{Database: api.DatabaseUnreachable}
	if st.Reachable {
		out.Database = api.DatabaseConnected
	}
	if st.Lag != nil {
		secs := st.Lag.Seconds()
		out.LagSeconds = &secs
	}
	return out
}

// FormatUptime writes a duration as hours, minutes and seconds: "3h 2m 1s".
func FormatUptime(d time.Duration) string {
	s := int64(d.Truncate(time.Second).Seconds())
	return fmt.Sprintf("%dh %dm %ds", s/3600, s%3600/60, s%60)
}
