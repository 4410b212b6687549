package models

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// maxStraddling bounds the runs at a time window's edges whose entries are
// counted from the rows; past it (entries stamped far out of id order) the
// window is counted and walked from the rows.
const maxStraddling = 16

// runCount is how many of a filter's entries a run of ids holds.
type runCount struct {
	Run, N int64
}

// windowedAudit reads a page of the entries of f's time window, and how
// many there are, from the per-run counts of f's other filters and the
// earliest and latest time of each run (audit_id_runs): the runs wholly
// inside the window are counted from the counts, the few straddling its
// edges from the rows, and the page is walked from the run its offset
// falls in, between the window's first and last runs. ok is false when f's
// other filters are not counted, or when too many runs straddle an edge.
func (s *Store) windowedAudit(ctx context.Context, f AuditFilter) (rows []AuditEntry, total int, ok bool, err error) {
	rest := f
	rest.From, rest.To = nil, nil
	runs, counted := s.auditRunsOf(rest)
	if !counted {
		return nil, 0, false, nil
	}
	err = s.snapshot(ctx, func(ctx context.Context) error {
		var counts []runCount
		if counts, ok, err = s.windowRunCounts(ctx, f, runs); err != nil || !ok {
			return err
		}
		var w auditWalk
		w, total = walkInRuns(counts, f.Offset, f.Limit)
		rows, err = s.auditPage(ctx, f, w)
		return err
	})
	return rows, total, ok, err
}

// windowRunCounts is the count of f's entries in each run holding any of
// them, newest run first, none empty.
func (s *Store) windowRunCounts(ctx context.Context, f AuditFilter, runs auditRuns) ([]runCount, bool, error) {
	db := s.db(ctx)
	from, to := windowBounds(f)
	var spans []struct {
		Run    int64
		Inside bool
	}
	err := db.NewSelect().Table("audit_id_runs").Column("run").
		ColumnExpr("first_at >= ? AND last_at < ? AS inside", from, to).
		Where("n <> 0 AND last_at >= ? AND first_at < ?", from, to).Scan(ctx, &spans)
	if err != nil {
		return nil, false, err
	}
	var straddling []int64
	for _, sp := range spans {
		if !sp.Inside {
			straddling = append(straddling, sp.Run)
		}
	}
	if len(straddling) > maxStraddling {
		return nil, false, nil
	}
	var counts []runCount
	err = db.NewSelect().TableExpr(runs.table+" AS c").ColumnExpr("c.run, sum(c.n) AS n").
		Join("JOIN audit_id_runs AS t ON t.run = c.run").Where(runs.cond, runs.args...).
		Where("t.first_at >= ? AND t.last_at < ?", from, to).GroupExpr("c.run").Scan(ctx, &counts)
	if err != nil {
		return nil, false, err
	}
	if len(straddling) > 0 {
		var edges []runCount
		err = f.apply(db.NewSelect().Model((*AuditEntry)(nil))).ColumnExpr("al.id / ? AS run, count(*) AS n", auditRun).
			WhereGroup(" AND ", inRuns(straddling)).GroupExpr("1").Scan(ctx, &edges)
		if err != nil {
			return nil, false, err
		}
		counts = append(counts, edges...)
	}
	counts = slices.DeleteFunc(counts, func(c runCount) bool { return c.N == 0 })
	slices.SortFunc(counts, func(a, b runCount) int { return int(b.Run - a.Run) })
	return counts, true, nil
}

// windowBounds is f's time window, open ends stretched past any entry.
func windowBounds(f AuditFilter) (from, to time.Time) {
	from, to = time.Unix(0, 0).UTC(), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	if f.From != nil {
		from = f.From.UTC()
	}
	if f.To != nil {
		to = f.To.UTC()
	}
	return from, to
}

// inRuns keeps the entries whose ids are in one of runs.
func inRuns(runs []int64) func(*bun.SelectQuery) *bun.SelectQuery {
	return func(q *bun.SelectQuery) *bun.SelectQuery {
		for _, r := range runs {
			q = q.WhereOr("al.id >= ? AND al.id < ?", r*auditRun, (r+1)*auditRun)
		}
		return q
	}
}

// walkInRuns plans the page at offset of the entries counts counts (newest
// run first): a walk from the top of the run the offset falls in, down to
// the bottom of the last run, and the number of entries in all.
func walkInRuns(counts []runCount, offset, limit int) (auditWalk, int) {
	var total int64
	for _, c := range counts {
		total += c.N
	}
	w := auditWalk{offset: offset, limit: limit}
	if int64(offset) >= total {
		w.limit = 0
		return w, int(total)
	}
	above := counts[len(counts)-1].Run * auditRun
	w.above = &above
	var before int64
	for _, c := range counts {
		if before+c.N > int64(offset) {
			below := (c.Run + 1) * auditRun
			w.below, w.offset = &below, offset-int(before)
			break
		}
		before += c.N
	}
	return w, int(total)
}
