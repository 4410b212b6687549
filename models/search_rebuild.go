package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// ftsTable is one SQLite FTS5 index over the columns of its content table,
// keyed by the content table's id.
type ftsTable struct {
	name, content string
	columns       []string
}

// searchTables are the FTS5 indexes rebuild_search rebuilds on SQLite.
var searchTables = map[string][]ftsTable{
	"posts": {{"posts_fts", "posts", []string{"title", "content"}}, {"post_titles_fts", "posts", []string{"title"}}},
	"users": {
		{"users_fts", "users", []string{"username", "name", "email"}},
		{"provider_accounts_fts", "provider_accounts", []string{"provider", "email"}},
	},
}

// defaultSearchBatch is how many rows one batch of an FTS5 rebuild loads,
// in 20 to 60 ms (docs/performance.md).
const defaultSearchBatch = 1000

func (s *Store) searchBatch() int {
	if s.SearchBatch > 0 {
		return s.SearchBatch
	}
	return defaultSearchBatch
}

// shadow is the name of t's index while it is being rebuilt.
func (t ftsTable) shadow() string { return "rebuild_" + t.name }

// rebuildFTS rebuilds t without holding the write lock for longer than a
// batch. A shadow index is filled in id order, one batch per transaction;
// triggers keep the ids already loaded current as writers change them;
// the transaction that finds nothing left to load swaps the shadow in. The
// old index serves searches until then. After each batch the rebuild
// rests as long as the batch took: SQLite's busy handler polls a waiting
// writer at growing intervals, so a rebuild that took the lock again at
// once would starve writers until it ended. done hears each batch's rows.
func (s *Store) rebuildFTS(ctx context.Context, t ftsTable, done func(rows int64)) error {
	if err := s.dropShadow(ctx, t); err != nil {
		return err
	}
	if err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return createShadow(ctx, tx, t) }); err != nil {
		return err
	}
	for {
		var rows int64
		start := time.Now()
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
			if rows, err = loadBatch(ctx, tx, t, s.searchBatch()); err != nil || rows > 0 {
				return err
			}
			return swapShadow(ctx, tx, t)
		})
		if err != nil {
			return errors.Join(err, s.dropShadow(context.WithoutCancel(ctx), t))
		}
		if rows == 0 {
			return nil
		}
		done(rows)
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), s.dropShadow(context.WithoutCancel(ctx), t))
		case <-time.After(max(time.Since(start), 10*time.Millisecond)):
		}
	}
}

// createShadow makes t's shadow index, empty, with its cursor at zero and
// the triggers that mirror writes to loaded ids into it.
func createShadow(ctx context.Context, tx bun.Tx, t ftsTable) error {
	var create string
	if err := tx.NewRaw("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", t.name).Scan(ctx, &create); err != nil {
		return fmt.Errorf("read %s: %w", t.name, err)
	}
	// A renamed table's declaration quotes its new name: keep what follows.
	using := strings.Index(create, " USING ")
	if !strings.HasPrefix(create, "CREATE VIRTUAL TABLE ") || using < 0 {
		return fmt.Errorf("%s is not a virtual table: %s", t.name, create)
	}
	cols := strings.Join(t.columns, ", ")
	news, olds := prefixed("new.", t.columns), prefixed("old.", t.columns)
	through := fmt.Sprintf("(SELECT through_id FROM search_rebuilds WHERE name = '%s')", t.name)
	add := fmt.Sprintf("INSERT INTO %s (rowid, %s) VALUES (new.id, %s);", t.shadow(), cols, news)
	remove := fmt.Sprintf("INSERT INTO %[1]s (%[1]s, rowid, %[2]s) VALUES ('delete', old.id, %[3]s);", t.shadow(), cols, olds)
	for _, q := range []string{
		"CREATE VIRTUAL TABLE " + t.shadow() + create[using:],
		fmt.Sprintf("INSERT INTO search_rebuilds (name, through_id) VALUES ('%s', 0)", t.name),
		fmt.Sprintf("CREATE TRIGGER %s_insert AFTER INSERT ON %s WHEN new.id <= %s BEGIN %s END", t.shadow(), t.content, through, add),
		fmt.Sprintf("CREATE TRIGGER %s_delete AFTER DELETE ON %s WHEN old.id <= %s BEGIN %s END", t.shadow(), t.content, through, remove),
		fmt.Sprintf("CREATE TRIGGER %s_update AFTER UPDATE OF %s ON %s WHEN old.id <= %s BEGIN %s %s END",
			t.shadow(), cols, t.content, through, remove, add),
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("shadow of %s: %w", t.name, err)
		}
	}
	return nil
}

// loadBatch copies the next batch of content rows past the cursor into the
// shadow and moves the cursor past them, returning how many it copied.
func loadBatch(ctx context.Context, tx bun.Tx, t ftsTable, batch int) (int64, error) {
	var from int64
	var upto sql.NullInt64
	err := tx.NewRaw("SELECT through_id FROM search_rebuilds WHERE name = ?", t.name).Scan(ctx, &from)
	if err == nil {
		err = tx.NewRaw(fmt.Sprintf("SELECT max(id) FROM (SELECT id FROM %s WHERE id > ? ORDER BY id LIMIT ?)", t.content), from, batch).Scan(ctx, &upto)
	}
	if err != nil || !upto.Valid {
		return 0, err
	}
	cols := strings.Join(t.columns, ", ")
	res, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s (rowid, %s) SELECT id, %s FROM %s WHERE id > ? AND id <= ?",
		t.shadow(), cols, cols, t.content), from, upto.Int64)
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE search_rebuilds SET through_id = ? WHERE name = ?", upto.Int64, t.name); err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// swapShadow puts the full shadow in t's place. Renaming a table checks
// every trigger, so the content table's triggers that write to t are
// dropped with it and made again, unchanged, after the rename.
func swapShadow(ctx context.Context, tx bun.Tx, t ftsTable) error {
	var triggers []struct {
		Name string `bun:"name"`
		SQL  string `bun:"sql"`
	}
	err := tx.NewRaw(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?
		AND name NOT LIKE 'rebuild\_%' ESCAPE '\' AND instr(sql, ?) > 0`, t.content, t.name).Scan(ctx, &triggers)
	if err != nil {
		return err
	}
	if err := dropShadowTriggers(ctx, tx, t); err != nil {
		return err
	}
	var steps []string
	for _, tr := range triggers {
		steps = append(steps, "DROP TRIGGER "+tr.Name)
	}
	steps = append(steps, "DROP TABLE "+t.name, "ALTER TABLE "+t.shadow()+" RENAME TO "+t.name)
	for _, tr := range triggers {
		steps = append(steps, tr.SQL)
	}
	steps = append(steps, fmt.Sprintf("DELETE FROM search_rebuilds WHERE name = '%s'", t.name))
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("swap %s: %w", t.name, err)
		}
	}
	return nil
}

// dropShadow removes what a rebuild of t left behind, a finished one
// leaving nothing: one cut off by a restart starts again from the top.
func (s *Store) dropShadow(ctx context.Context, t ftsTable) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := dropShadowTriggers(ctx, tx, t); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+t.shadow())
		if err == nil {
			_, err = tx.ExecContext(ctx, "DELETE FROM search_rebuilds WHERE name = ?", t.name)
		}
		return err
	})
}

func dropShadowTriggers(ctx context.Context, tx bun.Tx, t ftsTable) error {
	for _, event := range []string{"insert", "delete", "update"} {
		if _, err := tx.ExecContext(ctx, "DROP TRIGGER IF EXISTS "+t.shadow()+"_"+event); err != nil {
			return err
		}
	}
	return nil
}

// prefixed lists columns as row.column, comma separated.
func prefixed(row string, columns []string) string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = row + c
	}
	return strings.Join(out, ", ")
}
