package models

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
)

// LogicalDumpExt ends the name of a backup Plaza wrote itself, on a
// PostgreSQL server without pg_dump on the PATH.
const LogicalDumpExt = ".plzdump"

// logicalHeader opens a logical dump.
type logicalHeader struct {
	Format  string         `json:"format"`
	Version int            `json:"version"`
	Tables  []logicalTable `json:"tables"`
}

// logicalTable opens one table's rows in a logical dump; the rows follow
// in COPY's text format, ended by a line "\.".
type logicalTable struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns"`
	// partitioned marks a partitioned table (analytics_events on
	// PostgreSQL), which COPY cannot read directly; it is dumped through
	// a query, as one table, and its partitions are not dumped apart.
	// Loading it routes each row to the partition of its month there.
	partitioned bool
}

const logicalFormat = "plaza-logical-dump"

// logicalDump writes every table of the database, read in one snapshot,
// into path: a gzip of a JSON header, then each table as a JSON line and
// its rows in COPY's text format. It is what Backup writes on PostgreSQL
// when pg_dump is missing; RestoreLogical reads it back.
func (s *Store) logicalDump(ctx context.Context, path string) error {
	tables, err := s.dumpTables(ctx)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	w := bufio.NewWriter(zw)
	err = RawPostgresConn(ctx, s.DB, func(conn *stdlib.Conn) error {
		pg := conn.Conn().PgConn()
		if err := pg.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY").Close(); err != nil {
			return err
		}
		defer func() { pg.Exec(context.WithoutCancel(ctx), "ROLLBACK").Close() }() //nolint:errcheck // a read-only snapshot ends either way
		if err := writeLine(w, logicalHeader{Format: logicalFormat, Version: 1, Tables: tables}); err != nil {
			return err
		}
		for _, t := range tables {
			if err := writeLine(w, t); err != nil {
				return err
			}
			sql := fmt.Sprintf("COPY %s (%s) TO STDOUT", pgx.Identifier{t.Table}.Sanitize(), columnList(t.Columns))
			if t.partitioned {
				sql = fmt.Sprintf("COPY (SELECT %s FROM %s) TO STDOUT", columnList(t.Columns), pgx.Identifier{t.Table}.Sanitize())
			}
			if _, err := pg.CopyTo(ctx, w, sql); err != nil {
				return fmt.Errorf("dump %s: %w", t.Table, err)
			}
			if _, err := w.WriteString("\\.\n"); err != nil {
				return err
			}
		}
		return nil
	})
	for _, step := range []func() error{w.Flush, zw.Close, f.Sync, f.Close} {
		if e := step(); err == nil {
			err = e
		}
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("logical dump: %w", err)
	}
	return nil
}

// dumpTables lists the schema's tables with their columns (generated ones
// left out: the database computes them), parents before the tables whose
// foreign keys name them, so that a restore loads them in that order.
// A partitioned table is listed, its partitions are not: they hold its
// rows, and the restored database has partitions of its own.
func (s *Store) dumpTables(ctx context.Context) ([]logicalTable, error) {
	var cols []struct {
		Table       string `bun:"table_name"`
		Column      string `bun:"column_name"`
		Partitioned bool   `bun:"partitioned"`
	}
	err := s.DB.NewRaw(`SELECT c.table_name, c.column_name, r.relkind = 'p' AS partitioned FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		JOIN pg_class r ON r.oid = to_regclass(quote_ident(c.table_name))
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
		AND NOT r.relispartition
		ORDER BY c.table_name, c.ordinal_position`).Scan(ctx, &cols)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	var deps []struct {
		Child  string `bun:"child"`
		Parent string `bun:"parent"`
	}
	err = s.DB.NewRaw(`SELECT DISTINCT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
		FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid <> c.confrelid`).Scan(ctx, &deps)
	if err != nil {
		return nil, fmt.Errorf("list foreign keys: %w", err)
	}
	byName := map[string]*logicalTable{}
	var names []string
	for _, c := range cols {
		if byName[c.Table] == nil {
			byName[c.Table] = &logicalTable{Table: c.Table, partitioned: c.Partitioned}
			names = append(names, c.Table)
		}
		byName[c.Table].Columns = append(byName[c.Table].Columns, c.Column)
	}
	parents := map[string][]string{}
	for _, d := range deps {
		parents[d.Child] = append(parents[d.Child], d.Parent)
	}
	var out []logicalTable
	done := map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		if done[n] || byName[n] == nil {
			return
		}
		done[n] = true
		for _, p := range parents[n] {
			visit(p)
		}
		out = append(out, *byName[n])
	}
	for _, n := range names {
		visit(n)
	}
	return out, nil
}

func columnList(cols []string) string {
	var b bytes.Buffer
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pgx.Identifier{c}.Sanitize())
	}
	return b.String()
}

// RestoreLogical replaces the rows of every table of db, a PostgreSQL
// database migrated to the dump's schema, with those of the logical dump
// at path, in one transaction: all of it or none. Triggers of Plaza's own
// stay off meanwhile, since the dump holds the counters they keep.
func RestoreLogical(ctx context.Context, db *bun.DB, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("not a logical dump: %w", err)
	}
	r := bufio.NewReader(zr)
	var head logicalHeader
	if line, err := r.ReadBytes('\n'); err != nil || json.Unmarshal(line, &head) != nil || head.Format != logicalFormat {
		return errors.New("not a logical dump of Plaza's")
	}
	return RawPostgresConn(ctx, db, func(conn *stdlib.Conn) error {
		tx, err := conn.Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit it does nothing
		if err := loadTables(ctx, tx, head, r); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// loadTables empties every table the dump holds, then loads each one's
// rows as they stream from the file, with user triggers off, and moves
// identity sequences past the rows loaded.
func loadTables(ctx context.Context, tx pgx.Tx, head logicalHeader, r *bufio.Reader) error {
	names := make([]string, len(head.Tables))
	for i, t := range head.Tables {
		names[i] = pgx.Identifier{t.Table}.Sanitize()
	}
	if _, err := tx.Exec(ctx, "TRUNCATE "+joinNames(names)+" CASCADE"); err != nil {
		return fmt.Errorf("empty the tables: %w", err)
	}
	for range head.Tables {
		line, err := r.ReadBytes('\n')
		var t logicalTable
		if err != nil || json.Unmarshal(line, &t) != nil || t.Table == "" {
			return errors.New("a logical dump's table line is broken")
		}
		name := pgx.Identifier{t.Table}.Sanitize()
		if _, err := tx.Exec(ctx, "ALTER TABLE "+name+" DISABLE TRIGGER USER"); err != nil {
			return err
		}
		sql := fmt.Sprintf("COPY %s (%s) FROM STDIN", name, columnList(t.Columns))
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, &copyBody{r: r}, sql); err != nil {
			return fmt.Errorf("load %s: %w", t.Table, err)
		}
		if _, err := tx.Exec(ctx, "ALTER TABLE "+name+" ENABLE TRIGGER USER"); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(head.Tables, func(t logicalTable) bool { return t.Table == "post_titles" }) {
		// A dump from before post_titles: the copy kept this database's
		// titles, so it is refilled from the posts just loaded.
		for _, q := range []string{"TRUNCATE post_titles", refillTitles} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return fmt.Errorf("refill post_titles: %w", err)
			}
		}
	}
	return resetIdentities(ctx, tx)
}

// resetIdentities moves each identity column's sequence past its rows.
func resetIdentities(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND is_identity = 'YES'`)
	if err != nil {
		return err
	}
	var cols [][2]string
	for rows.Next() {
		var c [2]string
		if err := rows.Scan(&c[0], &c[1]); err != nil {
			rows.Close()
			return err
		}
		cols = append(cols, c)
	}
	rows.Close()
	for _, c := range cols {
		floor := "1"
		switch c {
		case [2]string{"users", "id"}:
			floor = "(" + keptUserIDsQuery() + ")" // a deleted user's id never comes back
		case [2]string{"posts", "id"}, [2]string{"post_reports", "id"}:
			floor = "(" + keptIDsQuery(c[0]) + ")" // nor a deleted post's or report's
		}
		q := fmt.Sprintf("SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(%s) FROM %s), %s, 1))",
			pgx.Identifier{c[1]}.Sanitize(), pgx.Identifier{c[0]}.Sanitize(), floor)
		if _, err := tx.Exec(ctx, q, c[0], c[1]); err != nil {
			return fmt.Errorf("move the sequence of %s.%s: %w", c[0], c[1], err)
		}
	}
	return nil
}

// copyBody reads one table's COPY text rows from r, up to and without
// the line "\.", which it consumes.
type copyBody struct {
	r    *bufio.Reader
	line []byte
	done bool
}

func (b *copyBody) Read(p []byte) (int, error) {
	for len(b.line) == 0 {
		if b.done {
			return 0, io.EOF
		}
		line, err := b.r.ReadBytes('\n')
		if err != nil {
			return 0, errors.New("the rows end early")
		}
		if string(line) == "\\.\n" {
			b.done = true
			return 0, io.EOF
		}
		b.line = line
	}
	n := copy(p, b.line)
	b.line = b.line[n:]
	return n, nil
}

func joinNames(names []string) string {
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}
