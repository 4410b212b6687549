package models_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAuditDeepPages: a deep page of the audit log holds the entries an
// OFFSET over all of them would, on each side of every run of 1,024 ids,
// with gaps in the ids (rolled-back writes) and the oldest entries
// deleted (retention); a filtered deep page read from the far end holds
// the same entries as walking there; past the last entry a page is empty;
// and the totals are exact. The filters are the counted ones (none, an
// action, an admin, a target type, and any two or three of those), one
// that is not, and time windows alone or with filters, over entries
// stamped out of id order.
func TestAuditDeepPages(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := models.NewStore(db)
		if _, err := db.ExecContext(ctx, "DELETE FROM audit_log"); err != nil {
			t.Fatal(err)
		}
		insertAuditEntries(t, db, 15_000)
		checkAuditPages(t, s, db)

		if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id < 900"); err != nil {
			t.Fatal(err)
		}
		insertAuditEntries(t, db, 700)
		checkAuditPages(t, s, db)
	})
}

// auditBase is when the test's entries start: entry id is stamped id
// seconds later.
var auditBase = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// insertAuditEntries appends n entries, leaving every seventh id unused.
func insertAuditEntries(t *testing.T, db *bun.DB, n int) {
	t.Helper()
	ctx := context.Background()
	var last int64
	if err := db.NewSelect().Model((*models.AuditEntry)(nil)).ColumnExpr("coalesce(max(id), 0)").Scan(ctx, &last); err != nil {
		t.Fatal(err)
	}
	batch := make([]models.AuditEntry, 0, 500)
	for i := range n {
		id := last + 1 + int64(i) + int64(i)/6
		action, target := "user.update", "user"
		if i%13 == 0 { // some of every admin's entries, and the system's
			action = "user.ban"
		}
		if i%7 == 0 {
			target = "post"
		}
		// Admin 1 writes most entries, admin 2 one in ten, and the
		// system (no admin) one in ten.
		var admin *int64
		switch i % 10 {
		case 0:
		case 5:
			admin = new(int64(2))
		default:
			admin = new(int64(1))
		}
		// One entry in 17 is stamped half an hour before its neighbours,
		// as a batch written late would be.
		at := auditBase.Add(time.Duration(id) * time.Second)
		if i%17 == 0 {
			at = at.Add(-30 * time.Minute)
		}
		batch = append(batch, models.AuditEntry{ID: id, CreatedAt: at,
			AdminID: admin, AdminUsername: "admin", Action: action, TargetType: target, TargetID: fmt.Sprint(i % 40), Status: 200,
			Details: map[string]any{}, PrevHash: "-", Hash: fmt.Sprintf("h%d", id)})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := db.NewInsert().Model(&batch).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

func checkAuditPages(t *testing.T, s *models.Store, db *bun.DB) {
	t.Helper()
	update, first, second := "user.update", int64(1), int64(2)
	from, to := auditBase.Add(3000*time.Second), auditBase.Add(16000*time.Second)
	filters := []models.AuditFilter{
		{}, {SkipAction: "user.ban"}, {Action: &update}, {AdminID: &first}, {TargetType: "user"},
		{TargetType: "post", AdminID: &second}, {AdminID: &first, Action: &update},
		{TargetType: "user", Action: &update}, {TargetType: "user", AdminID: &first, Action: &update},
		{From: &from, To: &to}, {From: &from}, {To: &to}, {From: &from, To: &to, AdminID: &first},
		{From: &from, To: &to, TargetType: "post", AdminID: &second},
	}
	for _, f := range filters {
		var all []int64
		q := db.NewSelect().Model((*models.AuditEntry)(nil)).Column("id").OrderExpr("id DESC")
		if f.SkipAction != "" {
			q = q.Where("action <> ?", f.SkipAction)
		}
		if f.Action != nil {
			q = q.Where("action = ?", *f.Action)
		}
		if f.AdminID != nil {
			q = q.Where("admin_id = ?", *f.AdminID)
		}
		if f.TargetType != "" {
			q = q.Where("target_type = ?", f.TargetType)
		}
		if f.From != nil {
			q = q.Where("created_at >= ?", *f.From)
		}
		if f.To != nil {
			q = q.Where("created_at < ?", *f.To)
		}
		if err := q.Scan(context.Background(), &all); err != nil {
			t.Fatal(err)
		}
		offsets := []int{0, 5, 1_000, 1_001, 10_000, 10_001, len(all) / 2, len(all) - 3, len(all) - 1, len(all), len(all) + 4}
		for i := 1_001; i < len(all); i++ {
			if all[i]/1024 != all[i-1]/1024 {
				offsets = append(offsets, i-1, i)
			}
		}
		for _, o := range offsets {
			f.Offset, f.Limit = o, 3
			rows, total, err := s.Audit.ListAudit(context.Background(), f)
			if err != nil {
				t.Fatalf("%+v: %v", f, err)
			}
			got := []int64{}
			for _, r := range rows {
				got = append(got, r.ID)
			}
			want := append([]int64{}, all[min(o, len(all)):min(o+3, len(all))]...)
			if !slices.Equal(got, want) || total != len(all) {
				t.Errorf("%+v: got %v of %d, want %v of %d", f, got, total, want, len(all))
			}
		}
	}
}
