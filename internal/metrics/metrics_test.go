package metrics

import (
	"context"
	"errors"
	"slices"
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

func TestJobQueueDepth(t *testing.T) {
	m := New(nil)
	calls := 0
	m.WatchJobQueue(func(context.Context) (map[string]int64, error) {
		calls++
		return map[string]int64{"available": 2, "retryable": 1}, nil
	})
	want := `
# HELP plaza_river_jobs Jobs in the River queue, by state, counted at scrape time.
# TYPE plaza_river_jobs gauge
plaza_river_jobs{state="available"} 2
plaza_river_jobs{state="cancelled"} 0
plaza_river_jobs{state="completed"} 0
plaza_river_jobs{state="discarded"} 0
plaza_river_jobs{state="pending"} 0
plaza_river_jobs{state="retryable"} 1
plaza_river_jobs{state="running"} 0
plaza_river_jobs{state="scheduled"} 0
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "plaza_river_jobs"); err != nil {
		t.Error(err)
	}
	if calls != 1 {
		t.Errorf("counted %d times in one scrape, want 1", calls)
	}
}

// TestJobQueueDepthFailure checks that a failed count spoils only its own
// family: the rest of the scrape is still gathered.
func TestJobQueueDepthFailure(t *testing.T) {
	m := New(nil)
	m.EventsIngested.Add(1)
	m.WatchJobQueue(func(context.Context) (map[string]int64, error) { return nil, errors.New("database down") })
	mfs, err := m.Registry.Gather()
	if err == nil || !strings.Contains(err.Error(), "database down") {
		t.Errorf("gather error %v, want the count's", err)
	}
	var names []string
	for _, mf := range mfs {
		names = append(names, mf.GetName())
	}
	if !slices.Contains(names, "plaza_analytics_events_ingested_total") || slices.Contains(names, "plaza_river_jobs") {
		t.Errorf("gathered %v", names)
	}
}
