package jobs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/metrics"
)

// MailMaxAttempts is how many times a message is sent at most.
const MailMaxAttempts = 8

// mailBackoff is the wait after each failed attempt: about seven hours
// from the first attempt to the eighth, long enough to outlast a mail
// server's restart or a provider's outage.
var mailBackoff = []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour}

// MailBackoff is the wait after the n-th failed attempt of a message (n
// from 1).
func MailBackoff(n int) time.Duration {
	return mailBackoff[min(max(n, 1), len(mailBackoff))-1]
}

// MailOutbox is the outbox as the mail job sees it.
type MailOutbox interface {
	// OutgoingMail is queued message id; false when it is no longer
	// queued (sent, failed or held already): nothing to send.
	OutgoingMail(ctx context.Context, id int64) (mail.Message, bool, error)
	// RecordMailAttempt logs one attempt: errText "" when sent; final
	// marks a failure as the last attempt.
	RecordMailAttempt(ctx context.Context, id int64, errText string, final bool) error
	// HoldMail keeps a queued message unsent when there is no server.
	HoldMail(ctx context.Context, id int64) error
}

// MailSender delivers one message (*mail.Sender).
type MailSender interface {
	Send(ctx context.Context, m mail.Message) error
}

// MailArgs is one outgoing message, queued in the transaction of the
// change that caused it.
type MailArgs struct {
	MessageID int64 `json:"messageId"`
}

// Kind names the job in River's tables.
func (MailArgs) Kind() string { return "mail_send" }

// InsertOpts caps the attempts.
func (MailArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: MailMaxAttempts} }

type mailWorker struct {
	river.WorkerDefaults[MailArgs]
	outbox  MailOutbox
	sender  MailSender
	backoff func(n int) time.Duration
	metrics *metrics.Metrics
}

func (w *mailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error {
	err := w.send(ctx, job)
	outcome := "completed"
	if err != nil {
		outcome = "failed"
	}
	w.metrics.Jobs.WithLabelValues(MailArgs{}.Kind(), outcome).Inc()
	return err
}

func (w *mailWorker) send(ctx context.Context, job *river.Job[MailArgs]) error {
	id := job.Args.MessageID
	if w.sender == nil {
		return w.outbox.HoldMail(ctx, id)
	}
	m, ok, err := w.outbox.OutgoingMail(ctx, id)
	if err != nil || !ok {
		return err
	}
	sent := w.sender.Send(ctx, m)
	permanent := mail.Permanent(sent)
	var text string
	if sent != nil {
		text = sent.Error()
	}
	if err := w.outbox.RecordMailAttempt(ctx, id, text, permanent || job.Attempt >= job.MaxAttempts); err != nil {
		return errors.Join(sent, err)
	}
	if permanent {
		return river.JobCancel(sent) // the server will refuse it again: kept failed for an admin to see
	}
	return sent
}

// NextRetry follows the mail schedule rather than River's default.
func (w *mailWorker) NextRetry(job *river.Job[MailArgs]) time.Time {
	return time.Now().Add(w.backoff(job.Attempt))
}

// Timeout is longer than the sender's own, which should cut a slow server
// off first.
func (w *mailWorker) Timeout(*river.Job[MailArgs]) time.Duration {
	return mail.DefaultTimeout + 30*time.Second
}

// QueueMail queues the sending of outbox message messageID in tx: the job
// exists if and only if tx commits.
func (r *Runner) QueueMail(ctx context.Context, tx *sql.Tx, messageID int64) error {
	_, err := r.client.InsertTx(ctx, tx, MailArgs{MessageID: messageID}, nil)
	return err
}
