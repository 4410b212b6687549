package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Analytics rolls events up, makes the events' monthly partitions ahead of
// time (PostgreSQL) and deletes events after the retention period (90
// days).
type Analytics interface {
	EnsureEventPartitions(ctx context.Context, now time.Time, keep time.Duration) (int, error)
	RollUpAnalytics(ctx context.Context, day time.Time) error
	DeleteOldEvents(ctx context.Context, before time.Time, batch int) (int64, error)
	RollUpActivity(ctx context.Context, day time.Time) error
	RollUpRecentHours(ctx context.Context) error
	RollUpPastActivity(ctx context.Context, max int) (int, error)
	RollUpActivityWithEventsBefore(ctx context.Context, cutoff time.Time) error
}

// pastActivityDays bounds how many past days one run rolls up for the
// user-activity report, so that catching up after an upgrade or a bulk
// load spreads over runs instead of making one long job.
const pastActivityDays = 31

// Retention is how long analytics events are kept.
const Retention = 90 * 24 * time.Hour

// retentionBatch bounds one delete statement, so the sweep never holds a
// long lock on a large table.
const retentionBatch = 5000

// AnalyticsArgs is the periodic roll-up of today and yesterday (yesterday
// again, so events that arrive just after midnight are counted), of their
// active users by day and by hour, and of past days whose active users
// were never rolled up after they ended; then the events' partitions of
// this month and the next ones (PostgreSQL); then the retention delete.
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
	if err := w.work(ctx, today); err != nil {
		w.metrics.Jobs.WithLabelValues("analytics_rollup", "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues("analytics_rollup", "completed").Inc()
	return nil
}

func (w *analyticsWorker) work(ctx context.Context, today time.Time) error {
	for _, day := range []time.Time{today.AddDate(0, 0, -1), today} {
		if err := w.analytics.RollUpAnalytics(ctx, day); err != nil {
			return err
		}
		if err := w.analytics.RollUpActivity(ctx, day); err != nil {
			return err
		}
	}
	if err := w.analytics.RollUpRecentHours(ctx); err != nil {
		return err
	}
	if _, err := w.analytics.RollUpPastActivity(ctx, pastActivityDays); err != nil {
		return err
	}
	made, err := w.analytics.EnsureEventPartitions(ctx, w.now(), Retention)
	if err != nil {
		return err
	}
	if made > 0 {
		w.log.Info("made analytics events partitions", "made", made)
	}
	cutoff := w.now().Add(-Retention)
	n, err := w.analytics.DeleteOldEvents(ctx, cutoff, retentionBatch)
	if err != nil {
		return err
	}
	if n > 0 {
		w.log.Info("deleted analytics events past retention", "deleted", n)
		// The days whose events went must count only what is left.
		return w.analytics.RollUpActivityWithEventsBefore(ctx, cutoff)
	}
	return nil
}
