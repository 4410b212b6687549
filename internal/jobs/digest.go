package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// ReportDigester sends the staff's report digests whose period has run,
// each once however many runs there are at a time.
type ReportDigester interface {
	SendReportDigests(ctx context.Context) error
}

// ReportDigestArgs is the hourly run of the report digests: the hourly
// and daily mails of new reports to the staff who asked for them.
type ReportDigestArgs struct{}

// Kind names the job in River's tables.
func (ReportDigestArgs) Kind() string { return "report_digest" }

type reportDigestWorker struct {
	river.WorkerDefaults[ReportDigestArgs]
	digester ReportDigester
	metrics  *metrics.Metrics
}

func (w *reportDigestWorker) Work(ctx context.Context, _ *river.Job[ReportDigestArgs]) error {
	if err := w.digester.SendReportDigests(ctx); err != nil {
		w.metrics.Jobs.WithLabelValues(ReportDigestArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(ReportDigestArgs{}.Kind(), "completed").Inc()
	return nil
}
