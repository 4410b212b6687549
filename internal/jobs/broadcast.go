package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Broadcaster delivers a broadcast to its recipients' inboxes, resuming
// where an earlier attempt stopped, and says how many inboxes hold it.
type Broadcaster interface {
	DeliverBroadcast(ctx context.Context, id int64) (int, error)
}

// BroadcastArgs is the delivery of one broadcast, queued in the
// transaction that stores it, to run at once or at its scheduled time.
type BroadcastArgs struct {
	ID int64 `json:"id"`
}

// Kind names the job in River's tables.
func (BroadcastArgs) Kind() string { return "broadcast" }

// InsertOpts makes a broadcast's delivery unique: queued twice, it runs
// once.
func (BroadcastArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

type broadcastWorker struct {
	river.WorkerDefaults[BroadcastArgs]
	broadcasts Broadcaster
	metrics    *metrics.Metrics
	log        *slog.Logger
}

func (w *broadcastWorker) Work(ctx context.Context, job *river.Job[BroadcastArgs]) error {
	n, err := w.broadcasts.DeliverBroadcast(ctx, job.Args.ID)
	if err != nil {
		w.metrics.Jobs.WithLabelValues(BroadcastArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(BroadcastArgs{}.Kind(), "completed").Inc()
	w.log.Info("broadcast delivered", "broadcast", job.Args.ID, "inboxes", n)
	return nil
}

// Timeout lets a delivery to millions run past River's default minute; a
// delivery cut off anyway resumes on retry from its last committed step.
func (w *broadcastWorker) Timeout(*river.Job[BroadcastArgs]) time.Duration { return 30 * time.Minute }

// QueueBroadcast queues the delivery of broadcast id at at (zero: now), in
// tx: the job exists if and only if tx commits. River holds a job with a
// time for its scheduler, which looks every few seconds, so an immediate
// one has none.
func (r *Runner) QueueBroadcast(ctx context.Context, tx *sql.Tx, id int64, at time.Time) error {
	_, err := r.client.InsertTx(ctx, tx, BroadcastArgs{ID: id}, &river.InsertOpts{ScheduledAt: at})
	return err
}
