package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/config"
)

// auditLockKey serialises appends to the chain on PostgreSQL; SQLite write
// transactions are exclusive already.
var auditLockKey = advisoryKey("plaza:audit")

// AppendAudit links e to the end of the chain and inserts it. Call it inside
// the transaction of the change it records, so both land or neither does;
// given a plain *bun.DB it opens its own transaction.
func (s *Store) AppendAudit(ctx context.Context, db bun.IDB, e *AuditEntry) error {
	if _, ok := db.(*bun.DB); ok {
		return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return s.AppendAudit(ctx, tx, e)
		})
	}
	if Dialect(db) == config.DialectPostgres {
		if _, err := db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", auditLockKey); err != nil {
			return fmt.Errorf("lock audit chain: %w", err)
		}
	}
	prev, err := lastAuditHash(ctx, db)
	if err != nil {
		return err
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.now()
	}
	if err := link([]*AuditEntry{e}, prev); err != nil {
		return fmt.Errorf("hash audit entry: %w", err)
	}
	_, err = db.NewInsert().Model(e).Returning("id").Exec(ctx)
	return err
}

func lastAuditHash(ctx context.Context, db bun.IDB) (string, error) {
	var h string
	err := db.NewSelect().Model((*AuditEntry)(nil)).Column("hash").OrderExpr("id DESC").Limit(1).Scan(ctx, &h)
	if errors.Is(err, sql.ErrNoRows) {
		return audit.Genesis, nil
	}
	return h, err
}

func chainEntry(e *AuditEntry) audit.Entry {
	return audit.Entry{CreatedAt: e.CreatedAt, AdminID: e.AdminID, AdminUsername: e.AdminUsername,
		Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID, IPAddress: e.IPAddress,
		UserAgent: e.UserAgent, Status: e.Status, Details: e.Details, PrevHash: e.PrevHash}
}

// AuditFilter selects audit entries; nil fields do not filter.
type AuditFilter struct {
	AdminID *int64
	Action  *string
	// TargetType keeps the entries about one kind of resource, TargetID
	// those about resources with that id; together, one resource.
	TargetType string
	TargetID   *string
	// SkipAction leaves out the entries of one action.
	SkipAction string
	From       *time.Time
	To         *time.Time
	Limit      int
	Offset     int
	// afterID and uptoID bound the ids (archiving).
	afterID, uptoID *int64
}

// between keeps the entries with ids after after, up to upto.
func (f AuditFilter) between(after, upto int64) AuditFilter {
	f.afterID, f.uptoID = &after, &upto
	return f
}

func (f AuditFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.afterID != nil {
		q = q.Where("al.id > ? AND al.id <= ?", *f.afterID, *f.uptoID)
	}
	if f.AdminID != nil {
		q = q.Where("al.admin_id = ?", *f.AdminID)
	}
	if f.TargetType != "" {
		q = q.Where("al.target_type = ?", f.TargetType)
	}
	if f.TargetID != nil {
		q = q.Where("al.target_id = ?", *f.TargetID)
	}
	if f.SkipAction != "" {
		q = q.Where("al.action <> ?", f.SkipAction)
	}
	if f.Action != nil {
		q = q.Where("al.action = ?", *f.Action)
	}
	if f.From != nil {
		q = q.Where("al.created_at >= ?", f.From.UTC())
	}
	if f.To != nil {
		q = q.Where("al.created_at < ?", f.To.UTC())
	}
	return q
}

// ListAudit returns a page of entries, newest first, and the total
// matching, from the replica when one is set.
func (s *Store) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
	return s.listAudit(s.mayLag(ctx), f)
}

// listAudit is ListAudit on the database ctx picks; a user's detail page
// reads its recent entries from the primary, as the rest of the page.
func (s *Store) listAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
	if (f.From != nil || f.To != nil) && s.Dialect() == "postgres" {
		if rows, total, ok, err := s.windowedAudit(ctx, f); ok || err != nil {
			return rows, total, err
		}
	}
	if f.Offset > walkableAudit {
		return s.deepAudit(ctx, f)
	}
	if runs, ok := s.auditRunsOf(f); ok {
		return s.shallowAudit(ctx, f, runs)
	}
	var rows []AuditEntry
	q := f.apply(s.db(ctx).NewSelect().Model(&rows)).OrderExpr("al.id DESC").Limit(int64(f.Limit)).Offset(int64(f.Offset))
	n, err := q.ScanAndCount(ctx)
	return rows, int(n), err
}

// EachAuditEntry calls fn with each entry f selects, newest first (oldest
// first between ids, for archives), as the
// database sends them (f's limit and offset apply when set), so that an
// export of the whole log takes no more memory than one entry. fn's error
// stops it.
func (s *Store) EachAuditEntry(ctx context.Context, f AuditFilter, fn func(*AuditEntry) error) error {
	order := "al.id DESC"
	if f.afterID != nil {
		// An archive, in the chain's order; it deletes what it read, so it
		// reads the primary.
		order = "al.id ASC"
	} else {
		ctx = s.mayLag(ctx)
	}
	q := f.apply(s.db(ctx).NewSelect().Model((*AuditEntry)(nil))).OrderExpr(order)
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return fmt.Errorf("export the audit log: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e AuditEntry
		if err := s.DB.ScanRow(ctx, rows, &e); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// AuditVerification is the outcome of re-walking the chain.
type AuditVerification struct {
	Valid         bool
	Checked       int
	FirstBrokenID *int64
}

// verifyPage is how many entries VerifyAudit reads at a time.
const verifyPage = 1000

// VerifyAudit re-walks the chain from its start (the genesis, or the
// anchor retention left) and reports the first entry whose link or hash
// does not hold. An archiving that commits while it walks moves the
// anchor: a break found then is checked again from the new anchor.
func (s *Store) VerifyAudit(ctx context.Context) (AuditVerification, error) {
	for {
		start, err := s.anchor(ctx)
		if err != nil {
			return AuditVerification{}, err
		}
		res, err := s.verifyFrom(ctx, start)
		if err != nil || res.Valid {
			return res, err
		}
		now, err := s.anchor(ctx)
		if err != nil || now == start {
			return res, err
		}
	}
}

func (s *Store) verifyFrom(ctx context.Context, start auditAnchor) (AuditVerification, error) {
	res := AuditVerification{Valid: true}
	prev, after := start.Hash, start.ID
	for {
		var rows []AuditEntry
		err := s.db(ctx).NewSelect().Model(&rows).Where("al.id > ?", after).OrderExpr("al.id ASC").Limit(verifyPage).Scan(ctx)
		if err != nil {
			return res, err
		}
		for i := range rows {
			e := &rows[i]
			want, err := audit.Hash(chainEntry(e))
			if err != nil || e.PrevHash != prev || e.Hash != want {
				id := e.ID
				return AuditVerification{Valid: false, Checked: res.Checked + 1, FirstBrokenID: &id}, nil
			}
			res.Checked++
			prev, after = e.Hash, e.ID
		}
		if len(rows) < verifyPage {
			return res, nil
		}
	}
}

// EntryOf turns a request's draft into the entry to store with its status.
func EntryOf(d *audit.Draft, status int) *AuditEntry {
	return &AuditEntry{AdminID: d.AdminID, AdminUsername: d.AdminUsername, Action: d.Action,
		TargetType: d.TargetType, TargetID: d.TargetID, IPAddress: d.IPAddress, UserAgent: d.UserAgent,
		Status: status, Details: d.Details}
}
