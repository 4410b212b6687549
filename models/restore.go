package models

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ServingLeader names the instance that leads the database's job queue
// now (River's leader row, renewed every few seconds while it serves), if
// any: a server is using the database.
func (s Maintenance) ServingLeader(ctx context.Context) (string, bool, error) {
	var rows []struct {
		LeaderID  string  `bun:"leader_id"`
		ExpiresAt anyTime `bun:"expires_at"`
	}
	err := s.DB.NewSelect().Table("river_leader").Column("leader_id", "expires_at").Scan(ctx, &rows)
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "no such table") || strings.Contains(msg, "does not exist") {
			return "", false, nil // never served
		}
		return "", false, fmt.Errorf("read the job queue's leader: %w", err)
	}
	for _, r := range rows {
		if r.ExpiresAt.valid && r.ExpiresAt.t.After(time.Now()) {
			return r.LeaderID, true, nil
		}
	}
	return "", false, nil
}

// RestorePostgres replaces the database dsn names with the pg_dump file
// backup (Store.Backup's custom format), in one transaction: all of it or,
// on any error, none.
func RestorePostgres(ctx context.Context, backup, dsn string) error {
	cmd := exec.CommandContext(ctx, "pg_restore", "--clean", "--if-exists", "--no-owner", "--exit-on-error",
		"--single-transaction", "--dbname="+dsn, backup)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_restore: %w: %s", err, out)
	}
	return nil
}

// RestoreSQLite replaces the database file path with the backup file (a
// VACUUM INTO copy): it copies the backup beside it, drops the old
// write-ahead log, which belongs to the old file, and renames the copy
// over the database, so the file is either the old one or the new one.
// Nothing may have the database open.
func RestoreSQLite(backup, path string) error {
	src, err := os.Open(backup)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".restore-*")
	if err != nil {
		return fmt.Errorf("restore beside %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; left on failure
	if _, err := io.Copy(tmp, src); err != nil {
		tmp.Close()
		return fmt.Errorf("copy %s: %w", backup, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return os.Rename(tmp.Name(), path)
}
