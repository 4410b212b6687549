package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Maintenance job statuses.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobCompleted = "completed"
	JobFailed    = "failed"
)

// MaintenanceJob is a maintenance action queued by an admin.
type MaintenanceJob struct {
	bun.BaseModel `bun:"table:maintenance_jobs,alias:mj"`

	ID         string         `bun:",pk"`
	Action     string         `bun:",notnull"`
	Scope      string         `bun:",notnull"`
	Notify     bool           `bun:",notnull"`
	Status     string         `bun:",notnull"`
	Progress   int            `bun:",notnull"`
	Result     map[string]any `bun:"type:jsonb"`
	Error      *string        `bun:""`
	Attempts   int            `bun:",notnull"`
	QueuedBy   *int64         `bun:""`
	QueuedAt   time.Time      `bun:",notnull"`
	StartedAt  *time.Time     `bun:""`
	FinishedAt *time.Time     `bun:""`
}

// BusyError refuses a job while another of its action is queued or running.
type BusyError struct {
	Action string
	JobID  string
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("a %s job is already queued or running (%s)", e.Action, e.JobID)
}

// QueueMaintenance stores j as queued and queues its run, in one change;
// keepSession is the token of the session a sign-out of everyone spares,
// which the job's arguments keep only as its SessionKey. Another job of
// the action queued or running is a *BusyError. Call it inside a change.
func (s Maintenance) QueueMaintenance(ctx context.Context, j *MaintenanceJob, keepSession string) error {
	if s.Queue == nil {
		return ErrNoJobQueue
	}
	db := s.db(ctx)
	var running MaintenanceJob
	err := db.NewSelect().Model(&running).Where("mj.action = ? AND mj.status IN (?)", j.Action, bun.In([]string{JobQueued, JobRunning})).
		Limit(1).Scan(ctx)
	if err == nil {
		return &BusyError{Action: j.Action, JobID: running.ID}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	j.Status, j.QueuedAt = JobQueued, s.now()
	if _, err := db.NewInsert().Model(j).Exec(ctx); err != nil {
		if IsUniqueViolation(err) { // another instance queued one meanwhile
			return &BusyError{Action: j.Action}
		}
		return fmt.Errorf("queue %s: %w", j.Action, err)
	}
	tx, ok := db.(*bun.Tx)
	if !ok {
		return errors.New("queue maintenance: call it inside a change")
	}
	var keep string
	if keepSession != "" {
		keep = SessionKey(keepSession)
	}
	return s.Queue.QueueMaintenance(ctx, tx.Tx, j.ID, keep)
}

// MaintenanceJobByID reads one job; an unknown id is ErrNotFound.
func (s Maintenance) MaintenanceJobByID(ctx context.Context, id string) (*MaintenanceJob, error) {
	j := new(MaintenanceJob)
	err := s.db(ctx).NewSelect().Model(j).Where("mj.id = ?", id).Scan(ctx)
	return j, notFound(err, "job")
}

// MaintenanceJobs lists a page of jobs, newest first, with the total.
func (s Maintenance) MaintenanceJobs(ctx context.Context, limit, offset int) ([]MaintenanceJob, int, error) {
	jobs := []MaintenanceJob{}
	n, err := s.db(ctx).NewSelect().Model(&jobs).OrderExpr("mj.queued_at DESC, mj.id DESC").
		Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	return jobs, int(n), err
}

// MaintenanceConfig is where the actions find their files and database,
// and how many backups to keep.
type MaintenanceConfig struct {
	UploadsDir  string
	BackupDir   string
	DatabaseURL string
	BackupKeep  int
}

// ScheduledBackup records and runs a backup_database job now, as the
// schedule asks, unless one is queued or running already.
func (s Maintenance) ScheduledBackup(ctx context.Context, cfg MaintenanceConfig) error {
	j := &MaintenanceJob{ID: uuid.NewString(), Action: "backup_database", Scope: "all"}
	err := s.Change(ctx, func(ctx context.Context) error {
		j.Status, j.QueuedAt = JobQueued, s.now()
		_, err := s.db(ctx).NewInsert().Model(j).Exec(ctx)
		return err
	})
	if IsUniqueViolation(err) {
		return nil // a backup is on its way already
	}
	if err != nil {
		return fmt.Errorf("schedule a backup: %w", err)
	}
	return s.RunMaintenance(ctx, j.ID, "", cfg)
}

// RunMaintenance works job id: it marks it running, does its action with
// progress, and records the result or the error (and, when asked, tells
// every admin), so a failed action is a finished job, not a retry. A job
// cut off by shutdown, or found running already (its instance died), is
// run again from the start by the job queue: every action is safe to
// repeat.
//
// keepKey is the SessionKey of the session a sign-out of everyone spares.
func (s Maintenance) RunMaintenance(ctx context.Context, id, keepKey string, cfg MaintenanceConfig) error {
	j, err := s.startJob(ctx, id)
	if err != nil || j.Status != JobRunning {
		return err
	}
	progress := func(pct int) { s.setProgress(ctx, id, pct) }
	var result map[string]any
	switch j.Action {
	case "cache_clear":
		result, err = s.clearCaches(ctx, j.Scope, keepKey)
	case "rebuild_search":
		result, err = s.rebuildSearch(ctx, j.Scope, progress)
	case "cleanup_uploads":
		result, err = s.cleanupUploads(ctx, j.Scope, cfg.UploadsDir, progress)
	case "backup_database":
		result, err = s.backupWithChecksum(ctx, cfg)
	default:
		err = fmt.Errorf("unknown action %q", j.Action)
	}
	if ctx.Err() != nil {
		return ctx.Err() // cut off by shutdown, not failed: River runs it again
	}
	return s.finishJob(ctx, j, result, err)
}

// startJob marks job id running; a job already finished is left alone.
func (s *Store) startJob(ctx context.Context, id string) (*MaintenanceJob, error) {
	j, err := s.Maintenance.MaintenanceJobByID(ctx, id)
	if err != nil || j.Status == JobCompleted || j.Status == JobFailed {
		return j, err
	}
	now := s.now()
	j.Status, j.StartedAt, j.Progress, j.Attempts = JobRunning, &now, 0, j.Attempts+1
	_, err = s.DB.NewUpdate().Model(j).Column("status", "started_at", "progress", "attempts").WherePK().Exec(ctx)
	return j, err
}

// setProgress records a job's progress, short of 100 until it finishes;
// losing one update is harmless.
func (s *Store) setProgress(ctx context.Context, id string, pct int) {
	pct = min(max(pct, 0), 99)
	s.DB.NewUpdate().Model((*MaintenanceJob)(nil)).Set("progress = ?", pct).Where("id = ?", id).Exec(ctx) //nolint:errcheck
	if s.Progressed != nil {
		s.Progressed(id, pct)
	}
}

// finishJob records j's outcome and, when asked, puts it in every admin's
// inbox, in one transaction with the alerts of a failure (JobFailed).
func (s *Store) finishJob(ctx context.Context, j *MaintenanceJob, result map[string]any, failure error) error {
	now := s.now()
	j.FinishedAt, j.Result, j.Status, j.Progress = &now, result, JobCompleted, 100
	if failure != nil {
		msg := failure.Error()
		j.Status, j.Error = JobFailed, &msg
	}
	return s.Change(ctx, func(ctx context.Context) error {
		_, err := s.db(ctx).NewUpdate().Model(j).Column("status", "progress", "result", "error", "finished_at").WherePK().Exec(ctx)
		if err != nil {
			return err
		}
		if j.Status == JobFailed && s.JobFailed != nil {
			if err := s.JobFailed(ctx, j); err != nil {
				return err
			}
		}
		if !j.Notify {
			return nil
		}
		return s.tellAdmins(ctx, j)
	})
}

// tellAdmins puts j's outcome in the inbox of every admin and super admin.
func (s *Store) tellAdmins(ctx context.Context, j *MaintenanceJob) error {
	kind, title := "success", "Maintenance finished: "+j.Action
	message := fmt.Sprintf("The %s job (%s) completed.", j.Action, j.Scope)
	if j.Status == JobFailed {
		kind, title, message = "critical", "Maintenance failed: "+j.Action, fmt.Sprintf("The %s job (%s) failed: %s", j.Action, j.Scope, *j.Error)
	}
	admins := s.db(ctx).NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
		ColumnExpr("DISTINCT ur.user_id").Where("r.rank >= 2")
	_, err := s.db(ctx).NewRaw("INSERT INTO notifications (user_id, title, message, type, created_at) SELECT a.user_id, ?, ?, ?, ? FROM (?) AS a",
		title, message, kind, s.now(), admins).Exec(ctx)
	return err
}
