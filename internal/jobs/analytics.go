package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Analytics rolls events up and deletes them after the retention period
// (interface.md part 6: 90 days).
type Analytics interface {
	RollUpAnalytics(ctx context.Context, day time.Time) error
	DeleteOldEvents(ctx context.Context, before time.Time, batch int) (int64, error)
}

// Retention is how long analytics events are kept.
const Retention = 90 * 24 * time.Hour

// retentionBatch bounds one delete statement, so the sweep never holds a
// long lock on a large table.
const retentionBatch = 5000

// AnalyticsArgs is the periodic roll-up of today and yesterday (yesterday
// again, so events that arrive just after midnight are counted) followed by
// the retention delete.
type AnalyticsArgs struct{}

// Kind names the job in River's tables.
func (AnalyticsArgs) Kind() string { return "analytics_rollup" }

type analyticsWorker struct {
	river.WorkerDefaults[AnalyticsArgs]
	analytics Analytics
	metrics   *metrics.Metrics
	log       *slog.Logger
	now       func() time.Time
}

func (w *analyticsWorker) Work(ctx context.Context, _ *river.Job[AnalyticsArgs]) error {
	today := w.now().UTC().Truncate(24 * time.Hour)
	for _, day := range []time.Time{today.AddDate(0, 0, -1), today} {
		if err := w.analytics.RollUpAnalytics(ctx, day); err != nil {
			w.metrics.Jobs.WithLabelValues("analytics_rollup", "failed").Inc()
			return err
		}
	}
	n, err := w.analytics.DeleteOldEvents(ctx, w.now().Add(-Retention), retentionBatch)
	if err != nil {
		w.metrics.Jobs.WithLabelValues("analytics_rollup", "failed").Inc()
		return err
	}
	if n > 0 {
		w.log.Info("deleted analytics events past retention", "deleted", n)
	}
	w.metrics.Jobs.WithLabelValues("analytics_rollup", "completed").Inc()
	return nil
}
