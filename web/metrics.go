package web

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/plazahq/plaza/internal/metrics"
)

// metricsHandler answers GET /api/metrics in the Prometheus text format.
// A family that cannot be gathered (the job queue's count when the
// database does not answer) is logged and left out; the rest is served.
func metricsHandler(m *metrics.Metrics, log *slog.Logger) echo.HandlerFunc {
	h := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, ErrorLog: gatherLog{log}})
	return echo.WrapHandler(h)
}

// gatherLog hands promhttp's gathering errors to the logger.
type gatherLog struct{ log *slog.Logger }

func (l gatherLog) Println(v ...any) { l.log.Warn("gather metrics", "error", fmt.Sprint(v...)) }

// methodLabel bounds the method label of the request metrics: a client may
// send any token as a method, and each would make a series of its own.
func methodLabel(m string) string {
	if slices.Contains(methods, m) {
		return m
	}
	return "OTHER"
}
