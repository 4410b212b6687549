package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Broadcaster marks a scheduled broadcast sent when its time comes, once
// however often it is asked; asked early, it says how long to wait.
type Broadcaster interface {
	SendScheduledBroadcast(ctx context.Context, id int64) (time.Duration, error)
}

// BroadcastArgs is the sending of one scheduled broadcast, queued in the
// transaction that stores it, to run at its time. The broadcast reaches
// inboxes at that time whether or not the job has run: the job records
// its recipients and tells of it (webhook, the sender's note).
type BroadcastArgs struct {
	ID int64 `json:"id"`
}

// Kind names the job in River's tables.
func (BroadcastArgs) Kind() string { return "broadcast" }

// InsertOpts makes a broadcast's job unique: queued twice, it runs once.
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
	wait, err := w.broadcasts.SendScheduledBroadcast(ctx, job.Args.ID)
	if err != nil {
		w.metrics.Jobs.WithLabelValues(BroadcastArgs{}.Kind(), "failed").Inc()
		return err
	}
	if wait > 0 { // this instance's clock is behind the one that queued it
		return river.JobSnooze(wait)
	}
	w.metrics.Jobs.WithLabelValues(BroadcastArgs{}.Kind(), "completed").Inc()
	w.log.Info("broadcast sent", "broadcast", job.Args.ID)
	return nil
}

// QueueBroadcast queues the sending of scheduled broadcast id at at, in
// tx: the job exists if and only if tx commits.
func (r *Runner) QueueBroadcast(ctx context.Context, tx *sql.Tx, id int64, at time.Time) error {
	_, err := r.client.InsertTx(ctx, tx, BroadcastArgs{ID: id}, &river.InsertOpts{ScheduledAt: at})
	return err
}
