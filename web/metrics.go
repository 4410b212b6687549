package web

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/plazahq/plaza/internal/metrics"
)

// instrument counts every request and its latency by route pattern (not raw
// path, which would let clients mint unbounded series).
func instrument(m *metrics.Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			status := c.Response().Status
			if err != nil {
				status = classify(err).Status
			}
			route := c.Path()
			if route == "" || c.Get(unmatchedKey) != nil {
				route = "unmatched"
			}
			method := c.Request().Method
			m.Requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
			m.Duration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
			return err
		}
	}
}

// metricsHandler answers GET /api/metrics in the Prometheus text format.
func metricsHandler(m *metrics.Metrics) echo.HandlerFunc {
	h := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
	return echo.WrapHandler(h)
}
