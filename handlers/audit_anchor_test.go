package handlers_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAuditAnchorSentToWebhook: with AUDIT_ANCHOR_EVERY set, the job queue
// sends the chain's anchor (on start, then on the schedule) to the
// endpoints subscribed to audit.anchor, through the signed webhook
// delivery; the message a receiver keeps is an anchor verify accepts, and
// it catches the newest entries being removed afterwards. Both databases.
func TestAuditAnchorSentToWebhook(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		recv := apptest.NewReceiver(t)
		cfg := apptest.Config(t)
		cfg.AuditAnchorEvery = time.Hour
		a := apptest.NewWithConfig(t, db, cfg, app.Options{WebhookNet: recv.Net, WebhookBackoff: func(int) time.Duration { return 10 * time.Millisecond }})
		admin, _ := a.Admin(t)
		w := registerWebhook(t, a, admin, recv.URL, "audit.anchor")
		a.FlushAudit(t)
		if err := a.Runtime.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		apptest.WaitWithin(t, 30*time.Second, "an audit.anchor message", func() bool { return len(recv.Received()) > 0 })
		got := recv.Received()[0]
		checkSignature(t, w.Secret, got)
		if m := decodeMessage(t, got); m.Type != "audit.anchor" {
			t.Fatalf("message %+v", m)
		}
		kept := filepath.Join(t.TempDir(), "anchor.json")
		os.WriteFile(kept, got.Body, 0o600)
		anchor, err := audit.ReadAnchor(kept)
		if err != nil || !anchor.Signed(a.Store.AuditKey) {
			t.Fatalf("the message's anchor %+v (%v) is not signed with the chain's key", anchor, err)
		}
		id, _ := anchor.ID()
		var n int64
		if err := db.NewSelect().Model((*models.AuditEntry)(nil)).ColumnExpr("count(*)").Where("id <= ?", id).Scan(ctx, &n); err != nil || n != anchor.Count || n == 0 {
			t.Errorf("the anchor counts %d entries up to %d, the log holds %d (%v)", anchor.Count, id, n, err)
		}
		if v, err := a.Store.Audit.VerifyAuditAgainst(ctx, &anchor); err != nil || !v.Valid {
			t.Fatalf("verify against the sent anchor = %+v, %v", v, err)
		}
		a.FlushAudit(t)
		if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id >= ?", id); err != nil {
			t.Fatal(err)
		}
		if v, err := a.Store.Audit.VerifyAuditAgainst(ctx, &anchor); err != nil || v.Valid || !v.Truncated {
			t.Errorf("verify of the cut chain against the sent anchor = %+v, %v; want truncated", v, err)
		}
	})
}
