package models_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

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
	rehash := map[string]func(audit.Entry) (string, error){
		"unkeyed":     audit.Hash,
		"another key": audit.NewHasher(audit.ChainKey("not the instance's secret, 32+ chars")).Hash,
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		for name, hash := range rehash {
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				if _, err := db.ExecContext(ctx, "DELETE FROM audit_log"); err != nil {
					t.Fatal(err)
				}
				s := models.NewStore(db)
				s.AuditKey = testKey
				appendEntries(t, s, 5)
				if v, err := s.Audit.VerifyAudit(ctx); err != nil || !v.Valid || v.Checked != 5 || v.Unkeyed != 0 {
					t.Fatalf("verify before = %+v, %v", v, err)
				}
				ids := rechain(t, db, "UPDATE audit_log SET action = 'nothing.happened' WHERE id = ?", hash)
				v, err := s.Audit.VerifyAudit(ctx)
				if err != nil || v.Valid || v.FirstBrokenID == nil || *v.FirstBrokenID != ids[0] {
					t.Errorf("verify after a re-chain = %+v, %v; want broken at %d, the first entry re-hashed without the key", v, err, ids[0])
				}
			})
		}
	})
}

var testKey = audit.ChainKey("the instance's audit secret, 32+ chars")

// legacyChain stores n entries as a release before the keyed chain wrote
// them: linked by their unkeyed SHA-256.
func legacyChain(t *testing.T, db *bun.DB, n int) {
	t.Helper()
	prev := audit.Genesis
	for i := range n {
		e := &models.AuditEntry{CreatedAt: time.Now().UTC().Truncate(audit.Precision), AdminUsername: "old", Action: "users.list",
			Status: 200, Details: map[string]any{"i": float64(i)}, PrevHash: prev}
		var err error
		e.Hash, err = audit.Hash(audit.Entry{CreatedAt: e.CreatedAt, AdminUsername: e.AdminUsername, Action: e.Action,
			Status: e.Status, Details: e.Details, PrevHash: prev})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.NewInsert().Model(e).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash
	}
}

// TestAuditUnkeyedEntriesBeforeCutOver: entries written before the chain
// was keyed still verify by their unkeyed hash, up to the cut-over the
// first keyed start records; later ones need the key. Editing an old
// entry, moving or dropping the cut-over, or cutting the chain back into
// the old entries is found.
func TestAuditUnkeyedEntriesBeforeCutOver(t *testing.T) {
	setup := func(t *testing.T, db *bun.DB) (*models.Store, []int64) {
		t.Helper()
		ctx := context.Background()
		for _, q := range []string{"DELETE FROM audit_log", "DELETE FROM settings WHERE key LIKE 'audit.%'"} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		legacyChain(t, db, 3)
		s := models.NewStore(db)
		s.AuditKey = testKey
		k, err := s.Audit.SealAuditChain(ctx)
		if err != nil || !k.Recorded || k.OtherKey {
			t.Fatalf("seal: %+v %v", k, err)
		}
		appendEntries(t, s, 3)
		var ids []int64
		if err := db.NewSelect().Model((*models.AuditEntry)(nil)).Column("id").Order("id").Scan(ctx, &ids); err != nil || len(ids) != 6 {
			t.Fatalf("ids %v %v", ids, err)
		}
		if k.KeyedAfter != ids[2] {
			t.Fatalf("keyed after %d, want %d (the last entry written before)", k.KeyedAfter, ids[2])
		}
		return s, ids
	}
	broken := func(t *testing.T, s *models.Store, want int64) {
		t.Helper()
		v, err := s.Audit.VerifyAudit(context.Background())
		if err != nil || v.Valid || v.FirstBrokenID == nil || (want != 0 && *v.FirstBrokenID != want) {
			t.Errorf("verify = %+v, %v; want broken at %d", v, err, want)
		}
	}
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		t.Run("both verify", func(t *testing.T) {
			s, ids := setup(t, db)
			v, err := s.Audit.VerifyAudit(ctx)
			if err != nil || !v.Valid || v.Checked != 6 || v.Unkeyed != 3 {
				t.Errorf("verify = %+v, %v; want 6 valid, 3 of them unkeyed", v, err)
			}
			again, err := s.Audit.SealAuditChain(ctx)
			if err != nil || again.Recorded || again.KeyedAfter != ids[2] || again.OtherKey {
				t.Errorf("a second start: %+v %v; want the cut-over recorded first", again, err)
			}
			other := models.NewStore(db)
			other.AuditKey = audit.ChainKey("some other secret of 32 characters")
			if k, err := other.Audit.SealAuditChain(ctx); err != nil || !k.OtherKey {
				t.Errorf("a start with another key: %+v %v; want OtherKey", k, err)
			}
		})
		t.Run("old entry edited and re-chained", func(t *testing.T) {
			s, ids := setup(t, db)
			if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id > ?", ids[2]); err != nil {
				t.Fatal(err)
			}
			rechain(t, db, "UPDATE audit_log SET action = 'nothing.happened' WHERE id = ?", audit.Hash)
			broken(t, s, ids[2]) // the last old entry is no longer the one the cut-over sealed
		})
		t.Run("cut-over moved to the end", func(t *testing.T) {
			s, ids := setup(t, db)
			rechain(t, db, "UPDATE audit_log SET action = 'nothing.happened' WHERE id = ?", audit.Hash)
			var last models.AuditEntry
			db.NewSelect().Model(&last).Order("id DESC").Limit(1).Scan(ctx)
			moved := fmt.Sprintf(`{"after":%d,"hash":%q,"keyId":%q,"at":"2026-01-01T00:00:00.000Z","seal":"hmac-sha256:00"}`, last.ID, last.Hash, audit.KeyID(testKey))
			if _, err := db.ExecContext(ctx, "UPDATE settings SET value = ? WHERE key = 'audit.keyed'", moved); err != nil {
				t.Fatal(err)
			}
			broken(t, s, ids[0])
		})
		t.Run("cut-over removed", func(t *testing.T) {
			s, ids := setup(t, db)
			if _, err := db.ExecContext(ctx, "DELETE FROM settings WHERE key = 'audit.keyed'"); err != nil {
				t.Fatal(err)
			}
			broken(t, s, ids[0]) // the old entries then need the key too
		})
		t.Run("cut back into the old entries", func(t *testing.T) {
			s, ids := setup(t, db)
			if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id >= ?", ids[2]); err != nil {
				t.Fatal(err)
			}
			broken(t, s, ids[2])
		})
	})
}

// TestAuditTruncationAgainstAnchor: removing the newest entries leaves a
// chain that verifies on its own; checked against an anchor taken before,
// the removal is found, also after Plaza has appended to the cut chain. An
// anchor made up or changed is refused.
func TestAuditTruncationAgainstAnchor(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		s.AuditKey = testKey
		appendEntries(t, s, 5)
		a, err := s.Audit.AuditAnchor(ctx)
		if err != nil || a.Count != 5 || !a.Signed(testKey) {
			t.Fatalf("anchor %+v %v", a, err)
		}
		appendEntries(t, s, 2)
		if v, err := s.Audit.VerifyAuditAgainst(ctx, &a); err != nil || !v.Valid || v.Truncated || v.Checked != 7 {
			t.Fatalf("verify against the anchor = %+v, %v; want 7 valid", v, err)
		}
		anchored, _ := a.ID()
		if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id >= ?", anchored); err != nil {
			t.Fatal(err)
		}
		if v, err := s.Audit.VerifyAudit(ctx); err != nil || !v.Valid {
			t.Fatalf("the cut chain on its own = %+v, %v; the test expects it to look whole", v, err)
		}
		v, err := s.Audit.VerifyAuditAgainst(ctx, &a)
		if err != nil || v.Valid || !v.Truncated || v.FirstBrokenID != nil {
			t.Errorf("verify of the cut chain against the anchor = %+v, %v; want truncated", v, err)
		}
		appendEntries(t, s, 2)
		v, err = s.Audit.VerifyAuditAgainst(ctx, &a)
		// (SQLite may hand the anchored id to a new entry: still not the one anchored.)
		if err != nil || v.Valid || !v.Truncated || v.FirstBrokenID == nil || *v.FirstBrokenID < anchored {
			t.Errorf("verify of the cut chain, appended to, against the anchor = %+v, %v; want truncated from %d on", v, err, anchored)
		}

		forged := a
		forged.Count--
		if _, err := s.Audit.VerifyAuditAgainst(ctx, &forged); !errors.Is(err, models.ErrAnchorSignature) {
			t.Errorf("a changed anchor: %v, want ErrAnchorSignature", err)
		}
		forged = a
		forged.Sign(audit.ChainKey("some other secret of 32 characters"))
		if _, err := s.Audit.VerifyAuditAgainst(ctx, &forged); !errors.Is(err, models.ErrAnchorSignature) {
			t.Errorf("an anchor signed with another key: %v, want ErrAnchorSignature", err)
		}
	})
}

// TestAuditStartCannotBeForged: deleting the first entries and recording
// a chain start past them, as retention would, is found: a start must be
// sealed with the key. Before, verify then said valid.
func TestAuditStartCannotBeForged(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		s.AuditKey = testKey
		appendEntries(t, s, 5)
		var rows []models.AuditEntry
		if err := db.NewSelect().Model(&rows).Order("id").Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id <= ?", rows[1].ID); err != nil {
			t.Fatal(err)
		}
		start := fmt.Sprintf(`{"id":%d,"hash":%q,"count":2}`, rows[1].ID, rows[1].Hash)
		if _, err := db.NewInsert().Model(&models.Setting{Key: "audit.anchor", Value: start, CreatedAt: time.Now()}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		v, err := s.Audit.VerifyAudit(ctx)
		if err != nil || v.Valid || v.FirstBrokenID == nil || *v.FirstBrokenID != rows[2].ID {
			t.Errorf("verify from a forged start = %+v, %v; want broken at %d", v, err, rows[2].ID)
		}
	})
}

// TestAuditAnchorAcrossArchive: an anchor taken before retention archived
// its entry still holds, and one taken after counts the archived entries.
func TestAuditAnchorAcrossArchive(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		s.AuditKey = testKey
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for day := range 6 {
			e := &models.AuditEntry{CreatedAt: base.AddDate(0, 0, day), Action: "test.day", Status: 200}
			if err := s.Audit.AppendAudit(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		early, err := s.Audit.AuditAnchor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, n, err := s.Audit.ArchiveAudit(ctx, base.AddDate(0, 0, 4), t.TempDir(), []byte("archive key")); err != nil || n != 4 {
			t.Fatalf("archive: %d %v", n, err)
		}
		late, err := s.Audit.AuditAnchor(ctx)
		if err != nil || late.Count != 6 || late.LastID != early.LastID {
			t.Fatalf("anchor after archiving = %+v, %v; want the same 6 entries counted", late, err)
		}
		for _, a := range []audit.Anchor{early, late} {
			if v, err := s.Audit.VerifyAuditAgainst(ctx, &a); err != nil || !v.Valid || v.Checked != 2 {
				t.Errorf("verify against %+v = %+v, %v; want the 2 entries left valid", a, v, err)
			}
		}
	})
}
