package models

import (
	"context"
	"database/sql"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plazahq/plaza/internal/userindex"
	"github.com/uptrace/bun"
)

// indexedUsers is the in-memory index of one database's users, and how
// far the index has read the database's log of user changes
// (user_index_changes): a PostgreSQL snapshot, or the last sequence number
// on SQLite. Before each use it reads the log's new entries and reloads
// the users they name, so a list reflects every change committed before
// the request, on this instance or another.
type indexedUsers struct {
	db    *bun.DB
	mu    sync.Mutex // one reader of the log at a time
	x     *userindex.Index
	mark  string
	epoch int64
	read  time.Time // when the log was last read
}

// staleIndex is how long an index may go without reading the log before
// it reloads instead: the sweep keeps a day of log (PruneUserIndexLog).
const staleIndex = 12 * time.Hour

// indexBatch is how many users one statement of a full load reads.
const indexBatch = 20_000

// userIndex returns the index of the database ctx reads from, current
// as of now.
func (s *Store) userIndex(ctx context.Context) (*userindex.Index, error) {
	db := s.DB
	if s.Replica != nil && ctx.Value(replicaKey{}) != nil {
		db = s.Replica
	}
	s.indexOnce.Do(func() { s.indexes = map[*bun.DB]*indexedUsers{} })
	s.indexMu.Lock()
	iu := s.indexes[db]
	if iu == nil {
		iu = &indexedUsers{db: db}
		s.indexes[db] = iu
	}
	s.indexMu.Unlock()
	return iu.current(ctx, s.Now())
}

// WarmUserIndexes brings the users index of each database the lists read
// (the primary, and the replica when there is one) up to date, loading it
// when there is none yet. Run at start and every minute after, it spares
// the first list after a start, or after a quiet night, a full load (about
// ten seconds at a million users).
func (s Users) WarmUserIndexes(ctx context.Context) error {
	if _, err := s.userIndex(ctx); err != nil {
		return err
	}
	if s.Replica == nil {
		return nil
	}
	_, err := s.userIndex(s.mayLag(ctx))
	return err
}

func (iu *indexedUsers) current(ctx context.Context, now time.Time) (*userindex.Index, error) {
	iu.mu.Lock()
	defer iu.mu.Unlock()
	if iu.x != nil && now.Sub(iu.read) < staleIndex {
		reload, err := iu.catchUp(ctx)
		if err != nil || !reload {
			iu.read = now
			return iu.x, err
		}
	}
	if err := iu.load(ctx); err != nil {
		return nil, err
	}
	iu.read = now
	return iu.x, nil
}

// load reads every user into a new index, in one read-only transaction
// whose snapshot (or last log entry) becomes the mark.
func (iu *indexedUsers) load(ctx context.Context) error {
	x := userindex.New()
	opts := &sql.TxOptions{ReadOnly: true}
	if Dialect(iu.db) == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	err := iu.db.RunInTx(ctx, opts, func(ctx context.Context, tx bun.Tx) error {
		mark, epoch, err := logHead(ctx, tx)
		if err != nil {
			return err
		}
		counted, err := tx.NewSelect().TableExpr("users").Count(ctx)
		if err != nil {
			return err
		}
		users := int(counted)
		x.Reserve(users, 0)
		for after := int64(0); ; {
			var ids []int64
			err := tx.NewSelect().TableExpr("users AS u").Column("u.id").Where("u.id > ?", after).
				OrderExpr("u.id").Limit(indexBatch).Scan(ctx, &ids)
			if err != nil || len(ids) == 0 {
				x.Trim()
				iu.x, iu.mark, iu.epoch = x, mark, epoch
				return err
			}
			// The batch is every user between its first and last id, so
			// a range reads it from each table's index on the user's id.
			lo, hi := ids[0], ids[len(ids)-1]
			entries, err := indexEntries(ctx, tx, idRange(lo, hi))
			if err != nil {
				return err
			}
			x.Put(entries...)
			if after == 0 && len(entries) > 0 {
				// The first batch tells how much text a user brings.
				x.Reserve(0, x.TextBytes()/len(entries)*max(users-len(entries), 0)*9/8)
			}
			after = hi
		}
	})
	if err != nil {
		return fmt.Errorf("load the users index: %w", err)
	}
	// A full load leaves the garbage of a million rows scanned; give it
	// back now rather than hold twice the index until the runtime does.
	debug.FreeOSMemory()
	return nil
}

// logHead is where the change log stands: on PostgreSQL the transaction's
// snapshot, on SQLite the last entry's number; and the epoch.
func logHead(ctx context.Context, db bun.IDB) (mark string, epoch int64, err error) {
	q := "SELECT COALESCE((SELECT max(seq) FROM user_index_changes), 0) || '', (SELECT epoch FROM user_index_epoch)"
	if Dialect(db) == "postgres" {
		q = "SELECT pg_current_snapshot()::text, (SELECT epoch FROM user_index_epoch)"
	}
	err = db.QueryRowContext(ctx, q).Scan(&mark, &epoch)
	return mark, epoch, err
}

// catchUp reloads the users changed since the mark, and moves the mark;
// reload says the epoch moved, so that everything must be read again.
func (iu *indexedUsers) catchUp(ctx context.Context) (reload bool, err error) {
	ids, mark, epoch, err := iu.changedSince(ctx)
	if err != nil || epoch != iu.epoch {
		return err == nil, err
	}
	if len(ids) > 0 {
		entries, err := indexEntries(ctx, iu.db, idList(ids))
		if err != nil {
			return false, err
		}
		iu.x.Delete(ids...)
		iu.x.Put(entries...)
	}
	iu.mark = mark
	return false, nil
}

// changedSince reads, in one statement, the users logged since the mark
// and the log's new head. On PostgreSQL an entry is new when its
// transaction had not committed when the mark's snapshot was taken:
// transactions commit out of the order they began, so a position in the
// log would miss a slow one.
func (iu *indexedUsers) changedSince(ctx context.Context) (ids []int64, mark string, epoch int64, err error) {
	var list string
	if Dialect(iu.db) == "postgres" {
		err = iu.db.QueryRowContext(ctx, `SELECT pg_current_snapshot()::text, (SELECT epoch FROM user_index_epoch),
			COALESCE((SELECT string_agg(DISTINCT user_id::text, ',') FROM user_index_changes
				WHERE xid >= pg_snapshot_xmin(?::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, ?::pg_snapshot)), '')`,
			iu.mark, iu.mark).Scan(&mark, &epoch, &list)
	} else {
		err = iu.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT max(seq) FROM user_index_changes), 0) || '',
			(SELECT epoch FROM user_index_epoch),
			COALESCE((SELECT group_concat(DISTINCT user_id) FROM user_index_changes WHERE seq > ?), '')`,
			iu.mark).Scan(&mark, &epoch, &list)
	}
	if err != nil {
		return nil, "", 0, fmt.Errorf("read the users change log: %w", err)
	}
	ids, err = parseIDs(list)
	return ids, mark, epoch, err
}

// userSet names a set of users by a condition on a column holding their
// ids: a range of ids, or a list.
type userSet func(col string) func(*bun.SelectQuery) *bun.SelectQuery

func idRange(lo, hi int64) userSet {
	return func(col string) func(*bun.SelectQuery) *bun.SelectQuery {
		return func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where(col+" BETWEEN ? AND ?", lo, hi) }
	}
}

func idList(ids []int64) userSet {
	return func(col string) func(*bun.SelectQuery) *bun.SelectQuery {
		return func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where(col+" IN (?)", bun.In(ids)) }
	}
}

// indexEntries reads the index entries of the users in set.
func indexEntries(ctx context.Context, db bun.IDB, set userSet) ([]userindex.Entry, error) {
	var users []struct {
		ID          int64
		Username    string
		Email       string
		Name        string
		CreatedAt   time.Time
		LastLoginAt *time.Time
		PostCount   int32
		Status      string
	}
	err := db.NewSelect().TableExpr("users AS u").
		ColumnExpr("u.id, u.username, u.email, COALESCE(u.name, '') AS name, u.created_at, u.last_login_at, u.post_count, u.status").
		Apply(set("u.id")).OrderExpr("u.id").Scan(ctx, &users)
	if err != nil || len(users) == 0 {
		return nil, err
	}
	extra, err := indexExtrasOf(ctx, db, set)
	if err != nil {
		return nil, err
	}
	out := make([]userindex.Entry, len(users))
	for i, u := range users {
		e := userindex.Entry{ID: u.ID, Username: u.Username, Email: u.Email, Name: u.Name,
			CreatedAt: u.CreatedAt.UnixNano(), PostCount: u.PostCount, Status: indexStatus[u.Status],
			Rank: extra.rank[u.ID], Providers: extra.providers[u.ID]}
		if u.LastLoginAt != nil {
			e.LastLogin = u.LastLoginAt.UnixNano()
		}
		if lapse, ok := extra.lapse[u.ID]; ok {
			e.LapseAt = lapse
		}
		out[i] = e
	}
	return out, nil
}

var indexStatus = map[string]userindex.Status{
	UserActive: userindex.Active, UserInactive: userindex.Inactive, UserBanned: userindex.Banned,
}

// indexExtras is what the index holds of users beyond their own row.
type indexExtras struct {
	rank      map[int64]int8
	lapse     map[int64]int64 // when every ban in force will have run out; 0 for never
	providers map[int64][]string
}

func indexExtrasOf(ctx context.Context, db bun.IDB, set userSet) (indexExtras, error) {
	out := indexExtras{rank: map[int64]int8{}, lapse: map[int64]int64{}, providers: map[int64][]string{}}
	var ranks []struct {
		UserID int64
		Rank   int8
	}
	err := db.NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
		ColumnExpr("ur.user_id, max(r.rank) AS rank").Apply(set("ur.user_id")).GroupExpr("ur.user_id").Scan(ctx, &ranks)
	if err != nil {
		return out, err
	}
	for _, r := range ranks {
		out.rank[r.UserID] = r.Rank
	}
	if err := lapses(ctx, db, set, out.lapse); err != nil {
		return out, err
	}
	var accounts []struct {
		UserID   int64
		Provider string
		Email    string
	}
	err = db.NewSelect().TableExpr("provider_accounts AS pa").ColumnExpr("pa.user_id, pa.provider, COALESCE(pa.email, '') AS email").
		Apply(set("pa.user_id")).OrderExpr("pa.user_id, pa.id").Scan(ctx, &accounts)
	for _, a := range accounts {
		out.providers[a.UserID] = append(out.providers[a.UserID], a.Provider, a.Email)
	}
	return out, err
}

// lapses reads, for each user with bans not ended, when the last of them
// runs out (0 when one never does): from then on a banned user reads as
// active, as statusNow says.
func lapses(ctx context.Context, db bun.IDB, set userSet, into map[int64]int64) error {
	var rows []struct {
		UserID  int64
		Last    *time.Time
		Forever int
	}
	err := db.NewSelect().TableExpr("bans AS b").
		ColumnExpr("b.user_id, max(b.expires_at) AS last, sum(CASE WHEN b.expires_at IS NULL THEN 1 ELSE 0 END) AS forever").
		Where("b.ended_at IS NULL").Apply(set("b.user_id")).GroupExpr("b.user_id").Scan(ctx, &rows)
	for _, r := range rows {
		if r.Forever == 0 && r.Last != nil {
			into[r.UserID] = r.Last.UnixNano()
		} else {
			into[r.UserID] = 0
		}
	}
	return err
}

// parseIDs reads a comma-separated list of ids.
func parseIDs(list string) ([]int64, error) {
	if list == "" {
		return nil, nil
	}
	var ids []int64
	for _, part := range strings.Split(list, ",") {
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read a user id from the change log: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// ForgetUserIndexes tells every instance to reload its users index, after
// a writer that skipped the change log's triggers (a bulk load, a
// restore). The epoch becomes the time in microseconds, which no earlier
// epoch, restored from a dump or not, equals.
func ForgetUserIndexes(ctx context.Context, db bun.IDB) error {
	q := "UPDATE user_index_epoch SET epoch = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
	if Dialect(db) == "sqlite" {
		q = "UPDATE user_index_epoch SET epoch = CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)"
	}
	if _, err := db.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("reload the users indexes: %w", err)
	}
	return nil
}

// userIndexLogKept is how long the change log keeps an entry: an index
// that has not read the log for staleIndex reloads instead.
const userIndexLogKept = 24 * time.Hour

// PruneUserIndexLog deletes the change log's entries older than a day,
// for the periodic sweep, and returns how many it deleted.
func (s Users) PruneUserIndexLog(ctx context.Context) (int64, error) {
	q := "DELETE FROM user_index_changes WHERE at < now() - make_interval(secs => ?)"
	if s.Dialect() == "sqlite" {
		q = "DELETE FROM user_index_changes WHERE at < strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || ? || ' seconds')"
	}
	res, err := s.DB.ExecContext(ctx, q, int64(userIndexLogKept/time.Second))
	if err != nil {
		return 0, fmt.Errorf("prune the users change log: %w", err)
	}
	return res.RowsAffected()
}
