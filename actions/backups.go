package actions

import (
	"context"
	"os"
	"path/filepath"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/backups"
	"github.com/plazahq/plaza/models"
)

// OpenBackup opens the backup file name in the folder dir for download;
// backups.ErrNotFound when the folder holds no backup of that name. The
// caller closes the file. A backup holds every session token and secret,
// so a download asks a session for a fresh confirmation, as the much
// smaller audit export does.
func (a *Actions) OpenBackup(ctx context.Context, who *access.Principal, dir, name string) (*os.File, backups.File, error) {
	audit.Target(ctx, "backup", name, nil)
	if err := a.Policy.Check(who, policy.DownloadBackup, policy.Platform); err != nil {
		return nil, backups.File{}, err
	}
	return backups.Open(dir, name)
}

// DeleteBackup removes the backup file name from the folder dir for good.
func (a *Actions) DeleteBackup(ctx context.Context, who *access.Principal, dir, name string) error {
	audit.Target(ctx, "backup", name, nil)
	if err := a.Policy.Check(who, policy.DeleteBackup, policy.Platform); err != nil {
		return err
	}
	return backups.Delete(dir, name)
}

// RestoreInput is a restore of the whole database from a backup file.
type RestoreInput struct {
	File string
	// Force replaces the database even while a server is serving it.
	Force bool
	// Replace swaps the database for the file's copy. It runs once the
	// checks passed and lets go of the store first: nothing of Plaza's may
	// hold the database while it is replaced.
	Replace func(ctx context.Context) error
}

// ServingError refuses a restore under a serving instance, which would
// go on writing to the database being replaced.
type ServingError struct{ Leader string }

func (e *ServingError) Error() string {
	return "a Plaza server (" + e.Leader + ") is serving this database: stop every instance first"
}

// Restore replaces the database with a backup: never through a bearer
// token, never under a serving instance unless forced.
func (a *Actions) Restore(ctx context.Context, who *access.Principal, in RestoreInput) error {
	if err := a.Policy.Check(who, policy.Restore, policy.Platform); err != nil {
		return err
	}
	leader, serving, err := a.Store.Maintenance.ServingLeader(ctx)
	switch {
	case err != nil:
		return err
	case serving && !in.Force:
		return &ServingError{Leader: leader}
	}
	return in.Replace(ctx)
}

// Restored records on the restored database that it was restored, and
// from which file: the log that came back with the backup ends with the
// restore, so the chain tells what happened to the data since.
func (a *Actions) Restored(ctx context.Context, who *access.Principal, in RestoreInput) error {
	if err := a.Policy.Check(who, policy.Restore, policy.Platform); err != nil {
		return err
	}
	return a.Store.Change(ctx, func(ctx context.Context) error { // the entry commits with a change, even one that writes nothing else
		audit.Target(ctx, "backup", filepath.Base(in.File), map[string]any{"file": in.File, "forced": in.Force})
		return nil
	})
}

// AuditExport is an export of the audit log: the entries Filter selects,
// and how the caller asked for them (kept in the export's own entry).
type AuditExport struct {
	Filter models.AuditFilter
	Format string
	Query  string
}

// ExportAudit checks that who may export the audit log and returns the
// function that reads the entries the export selects, newest first, for
// the caller to stream.
func (a *Actions) ExportAudit(ctx context.Context, who *access.Principal, in AuditExport) (func(fn func(*models.AuditEntry) error) error, error) {
	audit.Target(ctx, "", "", map[string]any{"format": in.Format, "query": in.Query})
	if err := a.Policy.Check(who, policy.ExportAudit, policy.Platform); err != nil {
		return nil, err
	}
	return func(fn func(*models.AuditEntry) error) error { return a.Store.Audit.EachAuditEntry(ctx, in.Filter, fn) }, nil
}
