package metrics

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestInstrumentsAreRegistered(t *testing.T) {
	m := New(nil)
	m.Requests.WithLabelValues("/api/health", "GET", "200").Inc()
	m.Duration.WithLabelValues("/api/health", "GET").Observe(0.002)
	m.EventsIngested.Add(3)
	m.Jobs.WithLabelValues("cache_clear", "completed").Inc()
	n, err := testutil.GatherAndCount(m.Registry)
	if err != nil || n < 10 {
		t.Fatalf("gathered %d series, %v", n, err)
	}
	want := `
# HELP plaza_analytics_events_ingested_total Analytics events durably stored.
# TYPE plaza_analytics_events_ingested_total counter
plaza_analytics_events_ingested_total 3
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "plaza_analytics_events_ingested_total"); err != nil {
		t.Error(err)
	}
}
