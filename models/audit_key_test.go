package models_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// rechain recomputes, as someone with write access to the database but
// not the key would, every entry's link and hash from the first one on
// with hash, after the edit stmt; it returns the ids in order.
func rechain(t *testing.T, db *bun.DB, stmt string, hash func(audit.Entry) (string, error)) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	if err := db.NewSelect().Model((*models.AuditEntry)(nil)).Column("id").Order("id").Scan(ctx, &ids); err != nil || len(ids) < 3 {
		t.Fatalf("ids %v, %v", ids, err)
	}
	if _, err := db.NewRaw(stmt, ids[1]).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	var rows []models.AuditEntry
	if err := db.NewSelect().Model(&rows).Order("id").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	prev := audit.Genesis
	for _, e := range rows {
		h, err := hash(audit.Entry{CreatedAt: e.CreatedAt, AdminID: e.AdminID, AdminUsername: e.AdminUsername,
			Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID, IPAddress: e.IPAddress,
			UserAgent: e.UserAgent, Status: e.Status, Details: e.Details, PrevHash: prev})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewUpdate().Model((*models.AuditEntry)(nil)).Set("prev_hash = ?", prev).Set("hash = ?", h).
			Where("id = ?", e.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		prev = h
	}
	return ids
}

// TestAuditRechainedWithoutKeyDetected: whoever can write the database
// but does not hold the key edits an entry and re-chains everything after
// it with the unkeyed SHA-256 the chain used to be; verify names the
// edited entry. Before the chain was keyed, verify said valid.
func TestAuditRechainedWithoutKeyDetected(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s := models.NewStore(db)
		appendEntries(t, s, 5)
		ids := rechain(t, db, "UPDATE audit_log SET action = 'nothing.happened' WHERE id = ?", audit.Hash)
		v, err := s.VerifyAudit(context.Background())
		if err != nil || v.Valid || v.FirstBrokenID == nil || *v.FirstBrokenID != ids[0] {
			t.Errorf("verify after an unkeyed re-chain = %+v, %v; want broken at %d, the first entry re-hashed without the key", v, err, ids[0])
		}
	})
}
