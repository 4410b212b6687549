package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// AuditAnchorer sends the audit chain's anchor to the webhooks subscribed
// to it.
type AuditAnchorer interface {
	SendAuditAnchor(ctx context.Context) error
}

// AuditAnchorArgs is the scheduled sending of the audit chain's anchor
// (AUDIT_ANCHOR_EVERY).
type AuditAnchorArgs struct{}

// Kind names the job in River's tables.
func (AuditAnchorArgs) Kind() string { return "audit_anchor" }

type auditAnchorWorker struct {
	river.WorkerDefaults[AuditAnchorArgs]
	anchorer AuditAnchorer
	metrics  *metrics.Metrics
}

func (w *auditAnchorWorker) Work(ctx context.Context, _ *river.Job[AuditAnchorArgs]) error {
	if err := w.anchorer.SendAuditAnchor(ctx); err != nil {
		w.metrics.Jobs.WithLabelValues(AuditAnchorArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(AuditAnchorArgs{}.Kind(), "completed").Inc()
	return nil
}
