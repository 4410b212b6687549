package models_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestArchiveAudit: entries older than the cutoff (never the newest) go
// into a signed archive and out of the log; verify still proves the rest,
// new entries link on, a second archive continues from the first; a
// changed archive fails its signature, and a changed entry still breaks
// the chain.
func TestArchiveAudit(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		key, dir := []byte("archive key"), t.TempDir()
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		add := func(day int) {
			t.Helper()
			e := &models.AuditEntry{CreatedAt: base.AddDate(0, 0, day), Action: fmt.Sprint("test.day", day), Status: 200, Details: map[string]any{"day": day}}
			if err := s.Audit.AppendAudit(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		for day := range 6 {
			add(day)
		}
		path, n, err := s.Audit.ArchiveAudit(ctx, base.AddDate(0, 0, 3), dir, key)
		if err != nil || n != 3 {
			t.Fatalf("archive: %s %d %v", path, n, err)
		}
		sig, err := models.VerifyArchive(path, key)
		if err != nil || sig.Entries != 3 {
			t.Fatalf("the archive's signature: %+v %v", sig, err)
		}
		verify := func(want int) {
			t.Helper()
			v, err := s.Audit.VerifyAudit(ctx)
			if err != nil || !v.Valid || v.Checked != want {
				t.Fatalf("verify: %+v %v, want %d checked", v, err, want)
			}
		}
		verify(3)
		add(7)
		verify(4)
		if _, n, err := s.Audit.ArchiveAudit(ctx, base.AddDate(1, 0, 0), dir, key); err != nil || n != 3 {
			t.Fatalf("second archive (all but the newest): %d %v", n, err)
		}
		verify(1)
		if _, n, _ := s.Audit.ArchiveAudit(ctx, base.AddDate(1, 0, 0), dir, key); n != 0 {
			t.Errorf("the newest entry was archived")
		}
		body, _ := os.ReadFile(path)
		os.WriteFile(path, bytes.Replace(body, []byte(`"day":1`), []byte(`"day":9`), 1), 0o600)
		if _, err := models.VerifyArchive(path, key); err == nil {
			t.Error("a changed archive passed its signature")
		}
		if _, err := models.VerifyArchive(path, []byte("another key")); err == nil {
			t.Error("another key passed the signature")
		}
		db.ExecContext(ctx, "UPDATE audit_log SET status = 500")
		if v, _ := s.Audit.VerifyAudit(ctx); v.Valid {
			t.Error("a changed entry passed after archiving")
		}
	})
}
