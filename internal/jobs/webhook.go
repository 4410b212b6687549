package jobs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// WebhookMaxAttempts is how many times a webhook message is sent at most.
const WebhookMaxAttempts = 8

// webhookBackoff is the wait after each failed attempt (the first, the
// second, …): about five hours from the first attempt to the eighth.
var webhookBackoff = []time.Duration{10 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute,
	30 * time.Minute, time.Hour, 3 * time.Hour}

// WebhookBackoff is the wait after the n-th failed attempt of a webhook
// message (n from 1).
func WebhookBackoff(n int) time.Duration {
	return webhookBackoff[min(max(n, 1), len(webhookBackoff))-1]
}

// WebhookDeliverer makes one attempt at delivering a webhook message and
// records it; final says the queue will not try again, retryIn when it
// would (NextRetry's wait). An error means the attempt failed and the
// queue retries it.
type WebhookDeliverer interface {
	DeliverWebhook(ctx context.Context, deliveryID int64, final bool, retryIn time.Duration) error
}

// GiveUp marks a failed attempt as one that retrying cannot mend (a
// target the address policy refuses): the job stops at once.
func GiveUp(err error) error { return giveUpError{err} }

type giveUpError struct{ err error }

func (e giveUpError) Error() string { return e.err.Error() }
func (e giveUpError) Unwrap() error { return e.err }

// WebhookArgs is one webhook message's delivery, queued in the
// transaction of the change it tells of.
type WebhookArgs struct {
	DeliveryID int64 `json:"deliveryId"`
}

// Kind names the job in River's tables.
func (WebhookArgs) Kind() string { return "webhook" }

// InsertOpts caps the attempts.
func (WebhookArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: WebhookMaxAttempts}
}

type webhookWorker struct {
	river.WorkerDefaults[WebhookArgs]
	deliverer WebhookDeliverer
	backoff   func(n int) time.Duration
	metrics   *metrics.Metrics
}

func (w *webhookWorker) Work(ctx context.Context, job *river.Job[WebhookArgs]) error {
	if err := w.deliverer.DeliverWebhook(ctx, job.Args.DeliveryID, job.Attempt >= job.MaxAttempts, w.backoff(job.Attempt)); err != nil {
		w.metrics.Jobs.WithLabelValues(WebhookArgs{}.Kind(), "failed").Inc()
		var g giveUpError
		if errors.As(err, &g) {
			return river.JobCancel(g.err)
		}
		return err
	}
	w.metrics.Jobs.WithLabelValues(WebhookArgs{}.Kind(), "completed").Inc()
	return nil
}

// NextRetry follows the webhook schedule rather than River's default.
func (w *webhookWorker) NextRetry(job *river.Job[WebhookArgs]) time.Time {
	return time.Now().Add(w.backoff(job.Attempt))
}

// Timeout is longer than the sender's own per-attempt timeout, which is
// the one that should cut a slow receiver off.
func (w *webhookWorker) Timeout(*river.Job[WebhookArgs]) time.Duration { return time.Minute }

// QueueWebhook queues the delivery of webhook message deliveryID in tx:
// the job exists if and only if tx commits.
func (r *Runner) QueueWebhook(ctx context.Context, tx *sql.Tx, deliveryID int64) error {
	_, err := r.client.InsertTx(ctx, tx, WebhookArgs{DeliveryID: deliveryID}, nil)
	return err
}
