// Package metrics holds Plaza's Prometheus instruments in one registry of
// its own (no global state), exposed at /api/metrics.
package metrics

import (
	"database/sql"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are the instruments the request pipeline, the jobs and the
// analytics collector update.
type Metrics struct {
	Registry *prometheus.Registry

	Requests       *prometheus.CounterVec   // by route, method, status
	Duration       *prometheus.HistogramVec // by route, method
	EventsIngested prometheus.Counter
	Jobs           *prometheus.CounterVec // by kind, outcome
}

// New registers Plaza's instruments, the Go runtime and process collectors
// and, when db is not nil, the database pool's statistics.
func New(db *sql.DB) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "plaza", Name: "http_requests_total", Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "plaza", Name: "http_request_duration_seconds", Help: "Time to answer HTTP requests, by route pattern and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		EventsIngested: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "plaza", Name: "analytics_events_ingested_total", Help: "Analytics events durably stored.",
		}),
		Jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "plaza", Name: "jobs_total", Help: "Background jobs finished, by kind and outcome.",
		}, []string{"kind", "outcome"}),
	}
	reg.MustRegister(m.Requests, m.Duration, m.EventsIngested, m.Jobs,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(db, "plaza"))
	}
	return m
}
