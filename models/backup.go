package models

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/plazahq/plaza/internal/config"
)

// Backup writes a consistent copy of the database into dir and returns its
// path: VACUUM INTO on SQLite (a transactionally consistent file, written
// while the app keeps running), pg_dump's custom format on PostgreSQL
// (restore with pg_restore), or, without pg_dump on the PATH, Plaza's own
// logical dump (logicalDump; restore with plaza restore). databaseURL is
// the DATABASE_URL, which pg_dump needs to connect.
func (s Maintenance) Backup(ctx context.Context, dir, databaseURL string) (string, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("create backup folder: %w", err)
	}
	stamp := s.now().Format("20060102T150405.000000Z")
	if s.Dialect() == config.DialectSQLite {
		path := filepath.Join(dir, "plaza-"+stamp+".db")
		if _, err := s.DB.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
			return "", fmt.Errorf("vacuum into %s: %w", path, err)
		}
		return path, nil
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		path := filepath.Join(dir, "plaza-"+stamp+LogicalDumpExt)
		return path, s.logicalDump(ctx, path)
	}
	path := filepath.Join(dir, "plaza-"+stamp+".dump")
	cmd := exec.CommandContext(ctx, "pg_dump", "--format=custom", "--no-owner", "--file="+path, "--dbname="+databaseURL)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(path)
		return "", fmt.Errorf("pg_dump: %w: %s", err, out)
	}
	return path, nil
}
