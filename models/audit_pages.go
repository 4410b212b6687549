package models

import (
	"context"
	"database/sql"
	"strings"
)

// walkableAudit is the deepest offset the audit log's list reaches by
// walking its index; deeper pages start from the id runs' counts or from
// the list's far end. A filtered walk also reads the entries its filter
// drops (a thousand of one action can be seven thousand entries), so it is
// kept short.
const walkableAudit = 1_000

// auditRun is how many ids the audit runs' counts count together, as their
// triggers (migrations 20261127600000, 20261127600100, 20261127800000,
// 20261127900400) count them.
const auditRun = 1024

// auditWalk is how one page of the audit log is read: which way the walk
// goes, how many entries it skips, and below which id it starts.
type auditWalk struct {
	asc           bool // from the oldest: the page was read from the far end
	offset, limit int
	below         *int64
	above         *int64 // the lowest id the walk may reach, when known
}

// auditRuns names the counts of entries per run of ids that count f's
// entries: the whole log's (audit_id_runs), or those of one action
// (audit_action_runs) or one kind of target (audit_target_runs), or those
// per admin, action and target type (audit_combined_runs) for an admin or
// any two or three of those filters; none for other filters, or on
// SQLite. A table may hold several rows of a run (one admin's, one per
// action and target type), which are summed.
type auditRuns struct {
	table, cond string
	args        []any
}

func (s *Store) auditRunsOf(f AuditFilter) (auditRuns, bool) {
	if s.Dialect() != "postgres" {
		return auditRuns{}, false
	}
	only := f
	only.Action, only.AdminID, only.TargetType = nil, nil, ""
	if !only.everything() || f.AdminID != nil && *f.AdminID <= 0 { // 0 stands for the system's entries there
		return auditRuns{}, false
	}
	switch {
	case f.Action == nil && f.AdminID == nil && f.TargetType == "":
		return auditRuns{table: "audit_id_runs", cond: "TRUE"}, true
	case f.AdminID == nil && f.TargetType == "":
		return auditRuns{table: "audit_action_runs", cond: "action = ?", args: []any{*f.Action}}, true
	case f.Action == nil && f.AdminID == nil:
		return auditRuns{table: "audit_target_runs", cond: "target_type = ?", args: []any{f.TargetType}}, true
	}
	var conds []string
	var args []any
	if f.AdminID != nil {
		conds, args = append(conds, "admin_id = ?"), append(args, *f.AdminID)
	}
	if f.Action != nil {
		conds, args = append(conds, "action = ?"), append(args, *f.Action)
	}
	if f.TargetType != "" {
		conds, args = append(conds, "target_type = ?"), append(args, f.TargetType)
	}
	return auditRuns{table: "audit_combined_runs", cond: strings.Join(conds, " AND "), args: args}, true
}

// deepAudit reads a page past walkableAudit and the number of entries f
// matches, planned from counts that must count the rows the page reads,
// so inside one snapshot.
func (s *Store) deepAudit(ctx context.Context, f AuditFilter) (rows []AuditEntry, total int, err error) {
	err = s.snapshot(ctx, func(ctx context.Context) error {
		runs, counted := s.auditRunsOf(f)
		if total, err = s.countAudit(ctx, f, runs, counted); err != nil {
			return err
		}
		w := auditWalk{offset: f.Offset, limit: f.Limit}
		switch rest := total - f.Offset; {
		case rest <= 0:
			rows = []AuditEntry{}
			return nil
		case counted:
			err = s.fromRun(ctx, runs, &w)
		case rest < f.Offset:
			w = auditWalk{asc: true, offset: max(rest-f.Limit, 0), limit: min(f.Limit, rest)}
		}
		if err != nil {
			return err
		}
		rows, err = s.auditPage(ctx, f, w)
		return err
	})
	return rows, total, err
}

// shallowAudit reads a page within walkableAudit of entries that runs
// count, and their number from those counts: counting a million entries
// would take longer than the page.
func (s *Store) shallowAudit(ctx context.Context, f AuditFilter, runs auditRuns) ([]AuditEntry, int, error) {
	rows, err := s.auditPage(ctx, f, auditWalk{offset: f.Offset, limit: f.Limit})
	if err != nil {
		return nil, 0, err
	}
	total, err := s.countAudit(ctx, f, runs, true)
	return rows, total, err
}

// everything says f selects the whole log.
func (f AuditFilter) everything() bool {
	return f.AdminID == nil && f.Action == nil && f.TargetType == "" && f.TargetID == nil && f.SkipAction == "" &&
		f.From == nil && f.To == nil && f.afterID == nil
}

// countAudit counts f's entries, from runs when they count them.
func (s *Store) countAudit(ctx context.Context, f AuditFilter, runs auditRuns, counted bool) (int, error) {
	db := s.db(ctx)
	if !counted {
		n, err := f.apply(db.NewSelect().Model((*AuditEntry)(nil))).Count(ctx)
		return int(n), err
	}
	var n int
	err := db.NewSelect().Table(runs.table).ColumnExpr("coalesce(sum(n), 0)").Where(runs.cond, runs.args...).Scan(ctx, &n)
	return n, err
}

// fromRun moves w's start to the run of ids its offset falls in, newest
// first: the entries of the newer runs are skipped without a walk.
func (s *Store) fromRun(ctx context.Context, runs auditRuns, w *auditWalk) error {
	db := s.db(ctx)
	inner := db.NewSelect().Table(runs.table).Column("run").ColumnExpr("sum(n) AS n").
		ColumnExpr("sum(sum(n)) OVER (ORDER BY run DESC) AS upto").Where(runs.cond, runs.args...).
		GroupExpr("run").Having("sum(n) <> 0")
	var at struct{ Run, N, Upto int64 }
	err := db.NewSelect().TableExpr("(?) AS r", inner).Column("run", "n", "upto").
		Where("upto > ?", w.offset).OrderExpr("run DESC").Limit(1).Scan(ctx, &at)
	if err == sql.ErrNoRows {
		w.limit = 0
		return nil
	}
	below := (at.Run + 1) * auditRun
	w.below, w.offset = &below, w.offset-int(at.Upto-at.N)
	return err
}

// auditPage reads the page w plans: the ids first, from the index alone,
// then the entries of those ids, newest first.
func (s *Store) auditPage(ctx context.Context, f AuditFilter, w auditWalk) ([]AuditEntry, error) {
	rows := []AuditEntry{}
	if w.limit <= 0 {
		return rows, nil
	}
	db := s.db(ctx)
	order := "al.id DESC"
	if w.asc {
		order = "al.id ASC"
	}
	ids := f.apply(db.NewSelect().Model((*AuditEntry)(nil)).Column("al.id")).OrderExpr(order).
		Limit(int64(w.limit)).Offset(int64(w.offset))
	if w.below != nil {
		ids = ids.Where("al.id < ?", *w.below)
	}
	if w.above != nil {
		ids = ids.Where("al.id >= ?", *w.above)
	}
	err := db.NewSelect().Model(&rows).Join("JOIN (?) AS pick ON pick.id = al.id", ids).OrderExpr("al.id DESC").Scan(ctx)
	return rows, err
}
