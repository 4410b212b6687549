package jobs

import (
	"context"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Sweeper deletes what has expired.
type Sweeper interface {
	DeleteExpiredSessions(ctx context.Context) (int64, error)
	DeleteExpiredLocks(ctx context.Context) (int64, error)
	DeleteExpiredAPITokens(ctx context.Context) (int64, error)
	LiftExpiredBans(ctx context.Context) (int64, error)
	DeleteExpiredBlocks(ctx context.Context) (int64, error)
	// RefreshPlannerStats analyzes the tables whose planner statistics
	// have gone stale and says how many.
	RefreshPlannerStats(ctx context.Context) (int64, error)
	// PruneUserIndexLog deletes the users change log's old entries.
	PruneUserIndexLog(ctx context.Context) (int64, error)
	// SplitTitleMarks splits the buckets of posts by title that have grown
	// too large and says how many marks it added.
	SplitTitleMarks(ctx context.Context) (int64, error)
}

// SweepArgs is the periodic clean-up of expired sessions, locks, tokens
// and blocks, the lifting of bans that have run out, the refresh of stale
// planner statistics and of the users change log, and the splitting of
// the posts' title buckets grown too large.
type SweepArgs struct{}

// Kind names the job in River's tables.
func (SweepArgs) Kind() string { return "sweep" }

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	sweeper Sweeper
	metrics *metrics.Metrics
	log     *slog.Logger
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	steps := []struct {
		what string
		fn   func(context.Context) (int64, error)
	}{
		{"sessions", w.sweeper.DeleteExpiredSessions},
		{"locks", w.sweeper.DeleteExpiredLocks},
		{"tokens", w.sweeper.DeleteExpiredAPITokens},
		{"bans", w.sweeper.LiftExpiredBans},
		{"blocks", w.sweeper.DeleteExpiredBlocks},
		{"planner statistics", w.sweeper.RefreshPlannerStats},
		{"users change log", w.sweeper.PruneUserIndexLog},
		{"title marks", w.sweeper.SplitTitleMarks},
	}
	for _, s := range steps {
		n, err := s.fn(ctx)
		if err != nil {
			w.metrics.Jobs.WithLabelValues("sweep", "failed").Inc()
			return err
		}
		if n > 0 {
			w.log.Info("swept", "what", s.what, "count", n)
		}
	}
	w.metrics.Jobs.WithLabelValues("sweep", "completed").Inc()
	return nil
}
