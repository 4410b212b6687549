package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/webhook"
)

// AuditAnchorer is what the job needs of the store: the chain's anchor,
// and the outbox to queue it to the webhooks subscribed to it.
type AuditAnchorer interface {
	WebhookSubscribed(ctx context.Context, event string) (bool, error)
	AuditAnchor(ctx context.Context) (audit.Anchor, error)
	Timestamp() time.Time
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	QueueWebhookEvent(ctx context.Context, event string, body []byte) error
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
	if err := sendAuditAnchor(ctx, w.anchorer); err != nil {
		w.metrics.Jobs.WithLabelValues(AuditAnchorArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(AuditAnchorArgs{}.Kind(), "completed").Inc()
	return nil
}

// sendAuditAnchor queues the chain's anchor to every active endpoint
// subscribed to audit.anchor; none subscribed, it does nothing.
func sendAuditAnchor(ctx context.Context, s AuditAnchorer) error {
	if ok, err := s.WebhookSubscribed(ctx, webhook.EventAuditAnchor); err != nil || !ok {
		return err // the count is not free on a long log: taken only when wanted
	}
	a, err := s.AuditAnchor(ctx)
	if err != nil {
		return err
	}
	body, err := webhook.Message(webhook.EventAuditAnchor, s.Timestamp(), map[string]any{"count": a.Count,
		"lastId": a.LastID, "lastHash": a.LastHash, "at": a.At, "signature": a.Signature})
	if err != nil {
		return err
	}
	return s.Change(ctx, func(ctx context.Context) error {
		return s.QueueWebhookEvent(ctx, webhook.EventAuditAnchor, body)
	})
}
