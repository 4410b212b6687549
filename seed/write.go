package seed

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
)

// progress serialises calls to Options.Progress.
type progress struct {
	mu   sync.Mutex
	fn   func(stage string, done, total int64)
	done map[string]int64
}

// newProgress reports to fn, which may be nil.
func newProgress(fn func(stage string, done, total int64)) *progress {
	return &progress{fn: fn, done: map[string]int64{}}
}

// report sets a stage's count.
func (p *progress) report(stage string, done, total int64) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done[stage] = done
	p.fn(stage, done, total)
}

// add counts n more rows of a stage.
func (p *progress) add(stage string, n, total int64) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done[stage] += n
	p.fn(stage, p.done[stage], total)
}

// stage writes rows of one kind in batches of batchSize.
func (sd *seeder) stage(ctx context.Context, name string, rows int, idTable string, stream uint64,
	gen func(r *rand.Rand, lo, hi int, firstID int64) rowBatch) error {
	size := sd.batchSize()
	g := func(b int, firstID int64) (rowBatch, int, error) {
		lo := b * size
		hi := min(lo+size, rows)
		return gen(sd.rng(stream, b), lo, hi, firstID), hi - lo, nil
	}
	first := func(b int) int { return b * size }
	return sd.runBatches(ctx, name, int64(rows), numBatches(rows, size), idTable, rows, first, g)
}

// numBatches is how many batches of size hold rows.
func numBatches(rows, size int) int { return (rows + size - 1) / size }

// rowBatch is one batch of rows for one or more tables, written together.
type rowBatch []tableRows

// tableRows are rows of one table, each with a value per column of cols.
type tableRows struct {
	name string
	cols []string
	rows [][]any
}

// batchGen builds batch b. firstID is the id of the batch's first row when
// the stage writes explicit ids. It returns the rows counted for progress.
type batchGen func(b int, firstID int64) (rowBatch, int, error)

// runBatches runs gen for every batch and writes the result. When idTable
// is set, rows of that table get explicit ids: on PostgreSQL a range of
// idRows ids is reserved up front (firstRow(b) is the row index where batch
// b starts), on SQLite each batch takes the ids after the current maximum
// in its own transaction.
func (sd *seeder) runBatches(ctx context.Context, stage string, total int64, batches int,
	idTable string, idRows int, firstRow func(int) int, gen batchGen) error {
	sd.prog.report(stage, 0, total)
	if sd.pg {
		var base int64
		if idTable != "" {
			var err error
			if base, err = reservePostgresIDs(ctx, sd.s.DB, idTable, idRows); err != nil {
				return err
			}
		}
		err := sd.runPostgres(ctx, stage, total, batches, func(b int) (rowBatch, int, error) {
			var firstID int64
			if idTable != "" {
				firstID = base + 1 + int64(firstRow(b))
			}
			return gen(b, firstID)
		})
		if err != nil || (idTable != "posts" && idTable != "users") {
			return err
		}
		// As replica the COPY skipped the triggers that count users and
		// learn new words.
		if idTable == "users" {
			if err := sd.s.Users.RecountUsers(ctx); err != nil {
				return err
			}
		}
		return sd.s.Search.LearnSearchWords(ctx, idTable, base)
	}
	return sd.runSQLite(ctx, stage, total, batches, idTable, gen)
}

// reservePostgresIDs reserves n consecutive ids of table's identity column
// and returns the one before the first. It takes the table's EXCLUSIVE lock
// for an instant, so no insert is half-way while it reads the largest id,
// then moves the sequence past the range: inserts that come later, with
// the default id, get ids after it, and rows copied with ids from the range
// cannot collide with anyone's.
func reservePostgresIDs(ctx context.Context, db *bun.DB, table string, n int) (int64, error) {
	var base int64
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "LOCK TABLE ? IN EXCLUSIVE MODE", bun.Ident(table)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT setval(pg_get_serial_sequence(?, 'id'),
			GREATEST(nextval(pg_get_serial_sequence(?, 'id')), (SELECT COALESCE(max(id), 0) FROM ?)) + ?) - ?`,
			table, table, bun.Ident(table), n, n).Scan(&base)
	})
	if err != nil {
		return 0, fmt.Errorf("reserve %d %s ids: %w", n, table, err)
	}
	return base, nil
}

// postgresSettings returns the SET LOCAL statements every COPY transaction
// runs. All of them only change how this session writes; none changes the
// schema, and the indexes are kept up to date row by row:
//   - synchronous_commit off: a batch does not wait for its WAL flush (a
//     crash may lose the last batches, which is fine for generated data);
//   - for a superuser, session_replication_role replica, which skips the
//     foreign-key triggers: Bulk writes parents before children and only
//     references rows it has written or read, so the checks could only fail
//     if a user were deleted while being seeded for; they cost a fifth of
//     the load (each one locks the parent row);
//   - for a superuser, wal_compression lz4 when the server has it, which
//     shrinks the full-page images that dominate the WAL of a bulk load.
func postgresSettings(ctx context.Context, db *bun.DB) (string, error) {
	var super, lz4 bool
	err := db.QueryRowContext(ctx, `SELECT current_setting('is_superuser') = 'on',
		EXISTS (SELECT 1 FROM pg_settings WHERE name = 'wal_compression' AND 'lz4' = ANY (enumvals))`).Scan(&super, &lz4)
	if err != nil {
		return "", fmt.Errorf("read session privileges: %w", err)
	}
	sets := []string{"SET LOCAL synchronous_commit = off"}
	if super {
		sets = append(sets, "SET LOCAL session_replication_role = replica")
		if lz4 {
			sets = append(sets, "SET LOCAL wal_compression = lz4")
		}
	}
	return strings.Join(sets, "; "), nil
}

// runPostgres builds and copies batches on a few connections at once, one
// transaction per batch.
func (sd *seeder) runPostgres(ctx context.Context, stage string, total int64, batches int,
	gen func(b int) (rowBatch, int, error)) error {
	workers := min(pgWorkers, batches)
	if m := sd.s.DB.Stats().MaxOpenConnections; m > 0 {
		workers = min(workers, m)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range workers {
		wg.Go(func() {
			err := models.RawPostgresConn(ctx, sd.s.DB, func(c *stdlib.Conn) error {
				return sd.copyBatches(ctx, c.Conn(), stage, total, batches, &next, gen)
			})
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				cancel()
			}
		})
	}
	wg.Wait()
	return firstErr
}

// copyBatches is one worker of runPostgres: it takes the next batch number
// from next, builds that batch and copies it on conn, until none is left.
func (sd *seeder) copyBatches(ctx context.Context, conn *pgx.Conn, stage string, total int64, batches int,
	next *atomic.Int64, gen func(b int) (rowBatch, int, error)) error {
	for {
		b := int(next.Add(1) - 1)
		if b >= batches {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		batch, n, err := gen(b)
		if err != nil {
			return err
		}
		if err := copyBatch(ctx, conn, sd.pgSettings, batch); err != nil {
			return fmt.Errorf("%s batch %d: %w", stage, b, err)
		}
		sd.prog.add(stage, int64(n), total)
	}
}

// copyBatch copies the rows of batch in one transaction on conn, which
// first runs settings.
func copyBatch(ctx context.Context, conn *pgx.Conn, settings string, batch rowBatch) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, settings); err != nil {
		return err
	}
	for _, t := range batch {
		if len(t.rows) == 0 {
			continue
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, t.cols, pgx.CopyFromRows(t.rows)); err != nil {
			return fmt.Errorf("copy %s: %w", t.name, err)
		}
	}
	return tx.Commit(ctx)
}

// sqliteMaxParams stays under SQLite's limit of 32766 bound parameters.
const sqliteMaxParams = 30000

// runSQLite writes batches one after another, each in its own (immediate)
// transaction. When idTable is set the batch's ids follow the largest id
// read inside that transaction, so a concurrent writer cannot take them.
func (sd *seeder) runSQLite(ctx context.Context, stage string, total int64, batches int, idTable string, gen batchGen) error {
	for b := range batches {
		n, err := sd.sqliteBatch(ctx, b, idTable, gen)
		if err != nil {
			return fmt.Errorf("%s batch %d: %w", stage, b, err)
		}
		sd.prog.add(stage, int64(n), total)
	}
	return nil
}

// sqliteBatch builds batch b and inserts it in one transaction.
func (sd *seeder) sqliteBatch(ctx context.Context, b int, idTable string, gen batchGen) (int, error) {
	tx, err := sd.s.DB.DB.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var firstID int64
	if idTable != "" {
		q := "SELECT COALESCE(max(id), 0) + 1 FROM " + idTable
		if err := tx.QueryRowContext(ctx, q).Scan(&firstID); err != nil {
			return 0, err
		}
	}
	batch, n, err := gen(b, firstID)
	if err != nil {
		return 0, err
	}
	var args []any
	for _, t := range batch {
		if args, err = insertRows(ctx, tx, t, args); err != nil {
			return 0, err
		}
	}
	return n, tx.Commit()
}

// insertRows inserts t's rows with multi-row INSERTs of at most 500 rows
// and sqliteMaxParams values. It returns args, the buffer it reuses for the
// values, for the next table.
func insertRows(ctx context.Context, tx *sql.Tx, t tableRows, args []any) ([]any, error) {
	per := min(500, sqliteMaxParams/len(t.cols))
	for lo := 0; lo < len(t.rows); lo += per {
		rows := t.rows[lo:min(lo+per, len(t.rows))]
		args = args[:0]
		for _, row := range rows {
			for _, v := range row {
				args = append(args, sqliteValue(v))
			}
		}
		if _, err := tx.ExecContext(ctx, insertSQL(t.name, t.cols, len(rows)), args...); err != nil {
			return args, fmt.Errorf("insert %s: %w", t.name, err)
		}
	}
	return args, nil
}

// sqliteValue converts a generated value to what SQLite stores: times in
// the text form bun writes, so that comparisons with bun's values work.
func sqliteValue(v any) any {
	switch v := v.(type) {
	case time.Time:
		return v.UTC().Format("2006-01-02 15:04:05.999999-07:00")
	case [16]byte:
		return uuidString(v)
	}
	return v
}

// insertSQL is a multi-row INSERT with ? placeholders.
func insertSQL(table string, cols []string, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (")
	b.WriteString(strings.Join(cols, ", "))
	b.WriteString(") VALUES ")
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}
