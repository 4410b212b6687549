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
func (s Audit) AppendAudit(ctx context.Context, db bun.IDB, e *AuditEntry) error {
	if _, ok := db.(*bun.DB); ok {
		return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return s.AppendAudit(ctx, tx, e)
		})
	}
	if err := lockAuditChain(ctx, db); err != nil {
		return err
	}
	prev, err := lastAuditHash(ctx, db)
	if err != nil {
		return err
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.now()
	}
	if err := link(s.AuditKey, []*AuditEntry{e}, prev); err != nil {
		return fmt.Errorf("hash audit entry: %w", err)
	}
	_, err = db.NewInsert().Model(e).Returning("id").Exec(ctx)
	return err
}

// lockAuditChain holds the chain's end until db's transaction ends.
func lockAuditChain(ctx context.Context, db bun.IDB) error {
	if Dialect(db) != config.DialectPostgres {
		return nil
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", auditLockKey); err != nil {
		return fmt.Errorf("lock audit chain: %w", err)
	}
	return nil
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
	// OnlyActions keeps the entries of these actions; SkipActions leaves
	// out those of these (the reads, for a log of changes).
	OnlyActions, SkipActions []string
	From                     *time.Time
	To                       *time.Time
	Limit                    int
	Offset                   int
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
	if len(f.SkipActions) > 0 {
		q = q.Where("al.action NOT IN (?)", bun.In(f.SkipActions))
	}
	if len(f.OnlyActions) > 0 {
		q = q.Where("al.action IN (?)", bun.In(f.OnlyActions))
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
func (s Audit) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
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
func (s Audit) EachAuditEntry(ctx context.Context, f AuditFilter, fn func(*AuditEntry) error) error {
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
	// Truncated says the anchor verify was given no longer holds: its
	// entry is gone, or is not what it was. FirstBrokenID is then the
	// entry found in its place (nil when the chain now ends before it).
	Truncated bool
	// Unkeyed is how many of the entries checked were hashed before the
	// chain was keyed.
	Unkeyed int
}

// verifyPage is how many entries VerifyAudit reads at a time.
const verifyPage = 1000

// VerifyAudit re-walks the chain from its start (the genesis, or the
// start retention left) and reports the first entry whose link or hash
// does not hold. An archiving that commits while it walks moves the
// start: a break found then is checked again from the new start.
func (s Audit) VerifyAudit(ctx context.Context) (AuditVerification, error) {
	return s.VerifyAuditAgainst(ctx, nil)
}

// VerifyAuditAgainst is VerifyAudit that also checks an anchor taken
// earlier (AuditAnchor): its entry must still be in the chain, with its
// hash, at its place. An anchor not signed with the chain's key is
// ErrAnchorSignature.
func (s Audit) VerifyAuditAgainst(ctx context.Context, a *audit.Anchor) (AuditVerification, error) {
	var w anchorWatch
	if a != nil {
		if !a.Signed(s.AuditKey) {
			return AuditVerification{}, ErrAnchorSignature
		}
		id, err := a.ID()
		if err != nil {
			return AuditVerification{}, err
		}
		w = anchorWatch{anchor: a, id: id}
	}
	for {
		start, err := s.anchor(ctx)
		if err != nil {
			return AuditVerification{}, err
		}
		res, err := s.verifyFrom(ctx, start, w)
		if err != nil || res.Valid {
			return res, err
		}
		now, err := s.anchor(ctx)
		if err != nil || now == start {
			return res, err
		}
	}
}

// ErrAnchorSignature is an anchor whose signature does not hold under
// the chain's key: made up, changed, or signed under another key.
var ErrAnchorSignature = errors.New("the anchor's signature does not hold under this instance's audit key")

func (s *Store) verifyFrom(ctx context.Context, start auditAnchor, w anchorWatch) (AuditVerification, error) {
	cut, err := s.cutOver(ctx)
	if err != nil {
		return AuditVerification{}, err
	}
	if !start.sealed(s.AuditKey) || !cut.sealed(s.AuditKey) {
		// The chain's start or its cut-over was written without the key.
		return s.brokenAfter(ctx, start.ID)
	}
	c := chainCheck{hasher: audit.NewHasher(s.AuditKey), cut: cut, watch: w, start: start, prev: start.Hash,
		res: AuditVerification{Valid: true}}
	if !c.startHolds() {
		return c.res, nil
	}
	after := start.ID
	for {
		var rows []AuditEntry
		err := s.db(ctx).NewSelect().Model(&rows).Where("al.id > ?", after).OrderExpr("al.id ASC").Limit(verifyPage).Scan(ctx)
		if err != nil {
			return c.res, err
		}
		for i := range rows {
			if !c.next(&rows[i]) {
				return c.res, nil
			}
			after = rows[i].ID
		}
		if len(rows) < verifyPage {
			c.end()
			return c.res, nil
		}
	}
}

// brokenAfter is a chain whose start cannot be trusted: broken at its
// first entry.
func (s *Store) brokenAfter(ctx context.Context, id int64) (AuditVerification, error) {
	res := AuditVerification{Checked: 1}
	var first int64
	err := s.db(ctx).NewSelect().Model((*AuditEntry)(nil)).Column("id").Where("id > ?", id).Order("id").Limit(1).Scan(ctx, &first)
	if errors.Is(err, sql.ErrNoRows) {
		return res, nil
	}
	res.FirstBrokenID = &first
	return res, err
}

// anchorWatch is the anchor a walk checks, if any.
type anchorWatch struct {
	anchor *audit.Anchor
	id     int64
	seen   bool
}

// chainCheck walks the chain one entry at a time.
type chainCheck struct {
	hasher *audit.Hasher
	cut    auditCutOver
	watch  anchorWatch
	start  auditAnchor
	prev   string
	// cutSeen: the last unkeyed entry was found, as the cut-over has it.
	cutSeen bool
	res     AuditVerification
}

// startHolds checks an anchor the chain's start already covers (its
// entry was archived since it was taken).
func (c *chainCheck) startHolds() bool {
	a := c.watch.anchor
	if a == nil || c.watch.id > c.start.ID {
		return true
	}
	c.watch.seen = true
	if c.watch.id == c.start.ID {
		return c.hold(a.LastHash == c.start.Hash && a.Count == c.start.Count, nil)
	}
	return c.hold(a.Count < c.start.Count, nil)
}

// hold records a broken anchor unless ok.
func (c *chainCheck) hold(ok bool, at *int64) bool {
	if !ok {
		c.res = AuditVerification{Truncated: true, Checked: c.res.Checked, FirstBrokenID: at, Unkeyed: c.res.Unkeyed}
	}
	return ok
}

// next checks e and reports whether the walk goes on.
func (c *chainCheck) next(e *AuditEntry) bool {
	id := e.ID
	broken := func() bool {
		c.res = AuditVerification{Checked: c.res.Checked + 1, FirstBrokenID: &id, Unkeyed: c.res.Unkeyed}
		return false
	}
	unkeyed := e.ID <= c.cut.After
	var want string
	var err error
	if unkeyed {
		want, err = audit.Hash(chainEntry(e))
	} else {
		want, err = c.hasher.Hash(chainEntry(e))
	}
	switch {
	case err != nil || e.PrevHash != c.prev || e.Hash != want:
		return broken()
	case e.ID == c.cut.After:
		if e.Hash != c.cut.Hash {
			return broken()
		}
		c.cutSeen = true
	case !unkeyed && c.cut.After > c.start.ID && !c.cutSeen:
		return broken() // the last unkeyed entry is gone
	}
	c.res.Checked++
	if unkeyed {
		c.res.Unkeyed++
	}
	c.prev = e.Hash
	if a := c.watch.anchor; a != nil && !c.watch.seen && e.ID >= c.watch.id {
		c.watch.seen = true
		pos := c.start.Count + int64(c.res.Checked)
		return c.hold(e.ID == c.watch.id && e.Hash == a.LastHash && pos == a.Count, &id)
	}
	return true
}

// end checks what the walk must have met by the chain's end.
func (c *chainCheck) end() {
	if c.cut.After > c.start.ID && !c.cutSeen {
		id := c.cut.After // the chain ends before its last unkeyed entry
		c.res = AuditVerification{Checked: c.res.Checked, FirstBrokenID: &id, Unkeyed: c.res.Unkeyed}
		return
	}
	if c.watch.anchor != nil && !c.watch.seen {
		c.hold(false, nil)
	}
}

// EntryOf turns a request's draft into the entry to store with its status.
func EntryOf(d *audit.Draft, status int) *AuditEntry {
	return &AuditEntry{AdminID: d.AdminID, AdminUsername: d.AdminUsername, Action: d.Action,
		TargetType: d.TargetType, TargetID: d.TargetID, IPAddress: d.IPAddress, UserAgent: d.UserAgent,
		Status: status, Details: d.Details}
}
