package web

import (
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/plazahq/plaza/internal/metrics"
)

// metricsHandler answers GET /api/metrics in the Prometheus text format.
func metricsHandler(m *metrics.Metrics) echo.HandlerFunc {
	h := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
	return echo.WrapHandler(h)
}
