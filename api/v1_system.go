package api

// V1MaintenanceRequest is the body of POST /api/v1/admin/system/maintenance.
type V1MaintenanceRequest struct {
	Action string `json:"action" required:"true" enum:"cache_clear,rebuild_search,cleanup_uploads,backup_database"`
	Scope  string `json:"scope,omitempty" default:"all" description:"cache_clear: all, sessions, previews, queries; rebuild_search: all, users, posts; cleanup_uploads: all, avatars, attachments; backup_database: all."`
	Notify bool   `json:"notify,omitempty" description:"Put the outcome in every admin's inbox."`
	// Confirm is how many other sessions the caller agreed to end.
	Confirm *int `json:"confirm,omitempty" minimum:"0" description:"cache_clear with scope all: how many sessions other than the caller's it agreed to end. Optional for API clients; when given and no longer the count, 409. The console always asks for it."`
}

// V1QueuedJob answers the 202 of a maintenance request.
type V1QueuedJob struct {
	JobID    string `json:"jobId"`
	Action   string `json:"action"`
	Scope    string `json:"scope"`
	Status   string `json:"status" enum:"queued"`
	QueuedAt string `json:"queuedAt" format:"date-time"`
}

// V1Job is a maintenance job as GET /system/jobs answers it.
type V1Job struct {
	JobID      string         `json:"jobId"`
	Action     string         `json:"action"`
	Scope      string         `json:"scope"`
	Status     string         `json:"status" enum:"queued,running,completed,failed"`
	Progress   int            `json:"progress" minimum:"0" maximum:"100"`
	Notify     bool           `json:"notify"`
	QueuedAt   string         `json:"queuedAt" format:"date-time"`
	QueuedBy   *string        `json:"queuedBy" description:"The admin's id; null once that account is deleted."`
	StartedAt  *string        `json:"startedAt" format:"date-time"`
	FinishedAt *string        `json:"finishedAt" format:"date-time"`
	Attempts   int            `json:"attempts" description:"Runs begun: more than one when a run was cut off and started over."`
	Result     map[string]any `json:"result" nullable:"true" description:"What the job did, when it completed."`
	Error      *string        `json:"error" description:"Why it failed, when it did."`
}

// V1Backup is a backup file in BACKUP_DIR.
type V1Backup struct {
	File      string `json:"file"`
	SizeBytes int64  `json:"sizeBytes"`
	CreatedAt string `json:"createdAt" format:"date-time"`
}

// DeletedBackup answers a backup's deletion.
type DeletedBackup struct {
	Deleted bool   `json:"deleted"`
	File    string `json:"file"`
}
