// Package jobs runs Plaza's background work on River, a job queue kept in
// the same database as everything else: periodic sweeps now, maintenance
// actions, scheduled broadcasts, webhook messages, outgoing mail and the
// staff's report digests. On several instances River
// elects one leader to enqueue periodic jobs, and any instance may work them.
package jobs

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/plazahq/plaza/internal/logging"
	"github.com/plazahq/plaza/internal/metrics"
)

// Runner owns the River client.
type Runner struct {
	client *river.Client[*sql.Tx]
	log    *slog.Logger
}

// Deps are what the workers act on.
type Deps struct {
	Sweeper   Sweeper
	Analytics Analytics
	// Broadcasts sends scheduled broadcasts (BroadcastArgs).
	Broadcasts Broadcaster
	// Maintenance works maintenance jobs (MaintenanceArgs).
	Maintenance Maintainer
	// Webhooks sends webhook messages (WebhookArgs).
	Webhooks WebhookDeliverer
	// WebhookBackoff is the wait after a webhook message's n-th failed
	// attempt; default WebhookBackoff. Tests shorten it.
	WebhookBackoff func(n int) time.Duration
	// Mail is the outbox of outgoing mail (MailArgs), and MailSender the
	// server it goes through; nil when SMTP_URL is unset, which holds
	// what is queued.
	Mail       MailOutbox
	MailSender MailSender
	// MailBackoff is the wait after a message's n-th failed attempt;
	// default MailBackoff. Tests shorten it.
	MailBackoff func(n int) time.Duration
	// BackupEvery is the period of scheduled backups; 0 means none.
	BackupEvery time.Duration
	// AuditRetention turns on the daily archiving of old audit entries.
	AuditRetention bool
	// Digests sends the staff's report digests every hour; nil sends
	// none.
	Digests ReportDigester
	// AuditAnchors sends the audit chain's anchor every AuditAnchorEvery
	// (0: never), and once as the queue starts.
	AuditAnchors     AuditAnchorer
	AuditAnchorEvery time.Duration
	// RescueAfter is how long a job may run before River takes it for
	// cut off (its instance died) and runs it again; default an hour.
	RescueAfter time.Duration
	Metrics     *metrics.Metrics
	Log         *slog.Logger
	// SweepEvery is the period of the sweep and of the analytics roll-up
	// (default 10 minutes).
	SweepEvery time.Duration
	Now        func() time.Time
}

// New builds a runner on db ("postgres" or "sqlite" dialect).
func New(db *sql.DB, dialect string, d Deps) (*Runner, error) {
	workers := river.NewWorkers()
	if d.Now == nil {
		d.Now = time.Now
	}
	river.AddWorker(workers, &sweepWorker{sweeper: d.Sweeper, metrics: d.Metrics, log: d.Log})
	river.AddWorker(workers, &analyticsWorker{analytics: d.Analytics, metrics: d.Metrics, log: d.Log, now: d.Now})
	river.AddWorker(workers, &broadcastWorker{broadcasts: d.Broadcasts, metrics: d.Metrics, log: d.Log})
	river.AddWorker(workers, &maintenanceWorker{maintainer: d.Maintenance, metrics: d.Metrics, log: d.Log})
	if d.WebhookBackoff == nil {
		d.WebhookBackoff = WebhookBackoff
	}
	river.AddWorker(workers, &webhookWorker{deliverer: d.Webhooks, backoff: d.WebhookBackoff, metrics: d.Metrics})
	if d.MailBackoff == nil {
		d.MailBackoff = MailBackoff
	}
	river.AddWorker(workers, &mailWorker{outbox: d.Mail, sender: d.MailSender, backoff: d.MailBackoff, metrics: d.Metrics})
	river.AddWorker(workers, &backupWorker{maintainer: d.Maintenance, metrics: d.Metrics})
	river.AddWorker(workers, &auditRetentionWorker{maintainer: d.Maintenance, metrics: d.Metrics})
	river.AddWorker(workers, &auditAnchorWorker{anchorer: d.AuditAnchors, metrics: d.Metrics})
	river.AddWorker(workers, &reportDigestWorker{digester: d.Digests, metrics: d.Metrics})
	// Every kind's outcomes are series from the start: a scrape shows 0
	// before the first run, and rates work from there.
	for _, kind := range []string{SweepArgs{}.Kind(), AnalyticsArgs{}.Kind(), BroadcastArgs{}.Kind(), MaintenanceArgs{}.Kind(), BackupArgs{}.Kind(), AuditRetentionArgs{}.Kind(), AuditAnchorArgs{}.Kind(), WebhookArgs{}.Kind(), MailArgs{}.Kind(), ReportDigestArgs{}.Kind()} {
		for _, outcome := range []string{"completed", "failed"} {
			d.Metrics.Jobs.WithLabelValues(kind, outcome)
		}
	}
	rescue := cmp.Or(d.RescueAfter, time.Hour)
	every := d.SweepEvery
	if every == 0 {
		every = 10 * time.Minute
	}
	cfg := &river.Config{
		Logger: logging.Demote(d.Log.With("component", "jobs"), slog.LevelWarn), // River announces its start-up at Info
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}},
		// Longer than any worker's timeout, so a job still running is never
		// taken for a dead one.
		RescueStuckJobsAfter: rescue,
		// River's default, or less when rescues come sooner (in tests),
		// which River requires.
		JobTimeout: min(time.Minute, rescue/2),
		Workers:    workers,
		PeriodicJobs: []*river.PeriodicJob{
			river.NewPeriodicJob(river.PeriodicInterval(every),
				func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true, ID: "sweep"}),
			river.NewPeriodicJob(river.PeriodicInterval(every),
				func() (river.JobArgs, *river.InsertOpts) { return AnalyticsArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true, ID: "analytics_rollup"}),
		},
	}
	if d.BackupEvery > 0 {
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, river.NewPeriodicJob(AlignedSchedule(d.BackupEvery),
			func() (river.JobArgs, *river.InsertOpts) { return BackupArgs{}, nil },
			&river.PeriodicJobOpts{ID: "scheduled_backup"}))
	}
	if d.AuditRetention {
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, river.NewPeriodicJob(AlignedSchedule(24*time.Hour),
			func() (river.JobArgs, *river.InsertOpts) { return AuditRetentionArgs{}, nil },
			&river.PeriodicJobOpts{ID: "audit_retention", RunOnStart: true}))
	}
	if d.AuditAnchorEvery > 0 && d.AuditAnchors != nil {
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, river.NewPeriodicJob(AlignedSchedule(d.AuditAnchorEvery),
			func() (river.JobArgs, *river.InsertOpts) { return AuditAnchorArgs{}, nil },
			&river.PeriodicJobOpts{ID: "audit_anchor", RunOnStart: true}))
	}
	if d.Digests != nil {
		// Aligned to the hour only: a period missed while no instance ran
		// is sent at the next hour, counting every report since the last
		// digest (ReportDigester), so nothing is skipped or repeated.
		cfg.PeriodicJobs = append(cfg.PeriodicJobs, river.NewPeriodicJob(AlignedSchedule(time.Hour),
			func() (river.JobArgs, *river.InsertOpts) { return ReportDigestArgs{}, nil },
			&river.PeriodicJobOpts{ID: "report_digest"}))
	}
	var (
		client *river.Client[*sql.Tx]
		err    error
	)
	if dialect == "sqlite" {
		client, err = river.NewClient(riversqlite.New(db), cfg)
	} else {
		client, err = river.NewClient(riverdatabasesql.New(db), cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	return &Runner{client: client, log: d.Log}, nil
}

// AlignedSchedule comes due at whole multiples of every since the Unix
// epoch (daily: at midnight UTC), so that restarts neither skip nor
// repeat a scheduled run, as a period counted from each start would.
func AlignedSchedule(every time.Duration) river.PeriodicSchedule { return alignedSchedule{every} }

type alignedSchedule struct{ every time.Duration }

func (s alignedSchedule) Next(current time.Time) time.Time {
	return current.UTC().Truncate(s.every).Add(s.every)
}

// Start begins working jobs until Stop.
func (r *Runner) Start(ctx context.Context) error { return r.client.Start(ctx) }

// Stop lets running jobs finish their current step (their context is
// cancelled when ctx ends) and stops.
func (r *Runner) Stop(ctx context.Context) error { return r.client.Stop(ctx) }

// Client is the River client, for enqueueing jobs.
func (r *Runner) Client() *river.Client[*sql.Tx] { return r.client }
