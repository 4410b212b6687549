// Package metrics holds Plaza's Prometheus instruments in one registry of
// its own (no global state), exposed at /api/metrics.
package metrics

import (
	"context"
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/riverqueue/river/rivertype"
)

// Metrics are the instruments the request pipeline, the jobs and the
// analytics collector update.
type Metrics struct {
	Registry *prometheus.Registry

	Requests       *prometheus.CounterVec   // by route, method, status
	Duration       *prometheus.HistogramVec // by route, method
	EventsIngested prometheus.Counter
	Jobs           *prometheus.CounterVec // by kind, outcome
	// DatabaseUnavailable counts the requests answered 503 because the
	// database could not be reached: the series to alert on for an outage.
	DatabaseUnavailable prometheus.Counter
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
		DatabaseUnavailable: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "plaza", Name: "database_unavailable_total",
			Help: "Requests answered 503 because the database could not be reached.",
		}),
	}
	reg.MustRegister(m.Requests, m.Duration, m.EventsIngested, m.Jobs, m.DatabaseUnavailable,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(db, "plaza"))
	}
	return m
}

// WatchJobQueue reports the job queue's depth at every scrape, from count
// (Store.JobCounts): plaza_river_jobs{state} for each of River's job
// states, 0 where there is none. A count that fails or outlasts
// jobCountTimeout fails this family only; the rest of the scrape is served.
func (m *Metrics) WatchJobQueue(count func(ctx context.Context) (map[string]int64, error)) {
	m.Registry.MustRegister(jobQueue{count: count, desc: prometheus.NewDesc("plaza_river_jobs",
		"Jobs in the River queue, by state, counted at scrape time.", []string{"state"}, nil)})
}

// jobCountTimeout bounds the query a scrape runs.
const jobCountTimeout = 2 * time.Second

type jobQueue struct {
	count func(ctx context.Context) (map[string]int64, error)
	desc  *prometheus.Desc
}

func (q jobQueue) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q jobQueue) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), jobCountTimeout)
	defer cancel()
	counts, err := q.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(q.desc, err)
		return
	}
	for _, st := range rivertype.JobStates() {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, float64(counts[string(st)]), string(st))
	}
}

// WatchRateLimiter reports plaza_ratelimit_fallback at every scrape: 1
// while the rate limits are counted in this instance's memory because
// Redis does not answer (fallback, ratelimit.Limiter's Status), else 0.
func (m *Metrics) WatchRateLimiter(fallback func() bool) {
	m.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: "plaza", Name: "ratelimit_fallback",
		Help: "1 while rate limits are counted per instance because Redis does not answer, else 0.",
	}, func() float64 {
		if fallback() {
			return 1
		}
		return 0
	}))
}
