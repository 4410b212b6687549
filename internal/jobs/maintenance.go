package jobs

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/plazahq/plaza/internal/metrics"
)

// Maintainer works a maintenance job to its end, recording its progress
// and outcome itself; an error means the outcome could not be recorded.
type Maintainer interface {
	RunMaintenance(ctx context.Context, id, keepKey string) error
	// ScheduledBackup backs the database up as a job of its own, unless a
	// backup is under way.
	ScheduledBackup(ctx context.Context) error
	// ArchiveAudit moves the audit entries past retention into a signed
	// archive.
	ArchiveAudit(ctx context.Context) error
}

// AuditRetentionArgs is the daily archiving of old audit entries
// (AUDIT_RETENTION_DAYS).
type AuditRetentionArgs struct{}

// Kind names the job in River's tables.
func (AuditRetentionArgs) Kind() string { return "audit_retention" }

type auditRetentionWorker struct {
	river.WorkerDefaults[AuditRetentionArgs]
	maintainer Maintainer
	metrics    *metrics.Metrics
}

func (w *auditRetentionWorker) Timeout(*river.Job[AuditRetentionArgs]) time.Duration {
	return 50 * time.Minute
}

func (w *auditRetentionWorker) Work(ctx context.Context, _ *river.Job[AuditRetentionArgs]) error {
	if err := w.maintainer.ArchiveAudit(ctx); err != nil {
		w.metrics.Jobs.WithLabelValues(AuditRetentionArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(AuditRetentionArgs{}.Kind(), "completed").Inc()
	return nil
}

// BackupArgs is the scheduled backup (BACKUP_EVERY).
type BackupArgs struct{}

// Kind names the job in River's tables.
func (BackupArgs) Kind() string { return "scheduled_backup" }

type backupWorker struct {
	river.WorkerDefaults[BackupArgs]
	maintainer Maintainer
	metrics    *metrics.Metrics
}

// Timeout lets a backup of a large database run long.
func (w *backupWorker) Timeout(*river.Job[BackupArgs]) time.Duration { return 50 * time.Minute }

func (w *backupWorker) Work(ctx context.Context, _ *river.Job[BackupArgs]) error {
	if err := w.maintainer.ScheduledBackup(ctx); err != nil {
		w.metrics.Jobs.WithLabelValues(BackupArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(BackupArgs{}.Kind(), "completed").Inc()
	return nil
}

// MaintenanceArgs is one maintenance job, queued by the admin API in the
// transaction that records it.
type MaintenanceArgs struct {
	ID string `json:"id"`
	// KeepSessionKey names the session a sign-out of everyone spares (the
	// caller's) by its stored key, the SHA-256 of its token: job arguments
	// are stored and listed, and must not hold a credential.
	KeepSessionKey string `json:"keepSessionKey,omitempty"`
}

// Kind names the job in River's tables.
func (MaintenanceArgs) Kind() string { return "maintenance" }

type maintenanceWorker struct {
	river.WorkerDefaults[MaintenanceArgs]
	maintainer Maintainer
	metrics    *metrics.Metrics
	log        *slog.Logger
}

// Timeout lets a backup or an index rebuild of a large database run long.
func (w *maintenanceWorker) Timeout(*river.Job[MaintenanceArgs]) time.Duration {
	return 50 * time.Minute
}

func (w *maintenanceWorker) Work(ctx context.Context, job *river.Job[MaintenanceArgs]) error {
	if err := w.maintainer.RunMaintenance(ctx, job.Args.ID, job.Args.KeepSessionKey); err != nil {
		w.metrics.Jobs.WithLabelValues(MaintenanceArgs{}.Kind(), "failed").Inc()
		return err
	}
	w.metrics.Jobs.WithLabelValues(MaintenanceArgs{}.Kind(), "completed").Inc()
	w.log.Info("maintenance job done", "job", job.Args.ID)
	return nil
}

// QueueMaintenance queues maintenance job id in tx: the job exists if and
// only if tx commits.
func (r *Runner) QueueMaintenance(ctx context.Context, tx *sql.Tx, id, keepKey string) error {
	_, err := r.client.InsertTx(ctx, tx, MaintenanceArgs{ID: id, KeepSessionKey: keepKey}, nil)
	return err
}
