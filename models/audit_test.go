package models_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func appendEntries(t *testing.T, s *models.Store, n int) {
	t.Helper()
	for i := range n {
		e := &models.AuditEntry{AdminUsername: "ada", Action: "users.list", Status: 200, IPAddress: "127.0.0.1",
			Details: map[string]any{"i": i, "nested": map[string]any{"b": 1, "a": "x"}}}
		if err := s.Audit.AppendAudit(context.Background(), s.DB, e); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAuditChainVerifies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		appendEntries(t, s, 5)
		rows, total, err := s.Audit.ListAudit(context.Background(), models.AuditFilter{Limit: 10})
		if err != nil || total != 5 || len(rows) != 5 {
			t.Fatalf("list: %d rows of %d, %v", len(rows), total, err)
		}
		if rows[4].PrevHash != audit.Genesis || rows[0].PrevHash != rows[1].Hash {
			t.Errorf("entries are not linked newest→oldest: %+v", rows)
		}
		v, err := s.Audit.VerifyAudit(context.Background())
		if err != nil || !v.Valid || v.Checked != 5 || v.FirstBrokenID != nil {
			t.Errorf("verify = %+v, %v", v, err)
		}
	})
}

// TestAuditTamperingDetected changes one stored column at a time, behind
// Plaza's back, and expects verify to name that entry.
func TestAuditTamperingDetected(t *testing.T) {
	tampers := map[string]string{
		"action":   "UPDATE audit_log SET action = 'user.delete' WHERE id = ?",
		"status":   "UPDATE audit_log SET status = 500 WHERE id = ?",
		"details":  `UPDATE audit_log SET details = '{"i": 99}' WHERE id = ?`,
		"ip":       "UPDATE audit_log SET ip_address = '10.9.9.9' WHERE id = ?",
		"admin":    "UPDATE audit_log SET admin_username = 'eve' WHERE id = ?",
		"hash":     "UPDATE audit_log SET hash = CASE WHEN substr(hash, 1, 1) = 'f' THEN 'e' ELSE 'f' END || substr(hash, 2) WHERE id = ?",
		"deletion": "DELETE FROM audit_log WHERE id = ?",
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		for name, stmt := range tampers {
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				s := models.NewStore(db)
				if _, err := db.ExecContext(ctx, "DELETE FROM audit_log"); err != nil {
					t.Fatal(err)
				}
				appendEntries(t, s, 4)
				var ids []int64
				if err := db.NewSelect().Model((*models.AuditEntry)(nil)).Column("id").Order("id").Scan(ctx, &ids); err != nil || len(ids) != 4 {
					t.Fatalf("ids %v, %v; want the 4 entries just appended", ids, err)
				}
				if _, err := db.NewRaw(stmt, ids[1]).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				v, err := s.Audit.VerifyAudit(ctx)
				want := ids[1]
				if name == "deletion" {
					want = ids[2] // the entry after the gap no longer links
				}
				if err != nil || v.Valid || v.FirstBrokenID == nil || *v.FirstBrokenID != want {
					t.Errorf("verify = %+v, %v; want broken at %d", v, err, want)
				}
			})
		}
	})
}

// TestAuditConcurrentAppends proves the chain stays linear under concurrent writers.
func TestAuditConcurrentAppends(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		var wg sync.WaitGroup
		errs := make(chan error, 16*10)
		for w := range 16 {
			wg.Go(func() {
				for i := range 10 {
					e := &models.AuditEntry{AdminUsername: fmt.Sprint("w", w), Action: "x.y", Status: 200, Details: map[string]any{"i": i}}
					if err := s.Audit.AppendAudit(context.Background(), s.DB, e); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		v, err := s.Audit.VerifyAudit(context.Background())
		if err != nil || !v.Valid || v.Checked != 160 {
			t.Errorf("verify after concurrent appends = %+v, %v", v, err)
		}
	})
}

func TestAuditBatcher(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		b := s.Audit.NewAuditBatcher(discard())
		appendEntries(t, s, 2) // entries written in-transaction interleave with batched ones
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 25 {
					e := &models.AuditEntry{AdminUsername: fmt.Sprint("w", w), Action: "users.list", Status: 200, Details: map[string]any{"i": i}}
					if i%2 == 0 {
						b.Enqueue(e)
					} else if err := b.Append(ctx, e); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		appendEntries(t, s, 1)
		b.Close()
		v, err := s.Audit.VerifyAudit(ctx)
		if err != nil || !v.Valid || v.Checked != 203 {
			t.Errorf("verify = %+v, %v; want 203 valid entries", v, err)
		}
	})
}

// A batch that fails part-way (here PostgreSQL refuses a NUL in text, in
// COPY, after the batch's transaction began) rolls its transaction back and
// keeps its connection: the next batch on the same, only, connection
// commits and the chain still verifies.
func TestAuditBatchFailureLeavesNoTransaction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		db.SetMaxOpenConns(1)
		s := models.NewStore(db)
		pg := db.Dialect().Name().String() == "pg"
		backend := func() (pid int) {
			if pg {
				if err := db.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
					t.Fatal(err)
				}
			}
			return pid
		}
		before := backend()
		bad := &models.AuditEntry{AdminUsername: "nul\x00", Action: "users.list", Status: 200}
		if err := models.AppendAuditBatch(s, ctx, []*models.AuditEntry{bad}); err == nil && pg {
			t.Fatal("a NUL in text was accepted by PostgreSQL")
		}
		if after := backend(); after != before {
			t.Errorf("the failed batch's connection was dropped (backend %d, then %d), not rolled back and kept", before, after)
		}
		good := []*models.AuditEntry{{AdminUsername: "ada", Action: "users.list", Status: 200}}
		if err := models.AppendAuditBatch(s, ctx, good); err != nil {
			t.Fatalf("the batch after a failed one: %v", err)
		}
		if v, err := s.Audit.VerifyAudit(ctx); err != nil || !v.Valid {
			t.Errorf("verify = %+v, %v", v, err)
		}
	})
}
