package models

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// AdminUserRow is a user as the unversioned admin list shows it
// (GET /api/admin/users): the user with its primary provider account, roles,
// subscriptions and timeouts summed up.
type AdminUserRow struct {
	User `bun:",extend"`

	ProviderName        *string    `bun:",scanonly"`
	ProviderEmail       *string    `bun:",scanonly"`
	ProviderVerified    bool       `bun:",scanonly"`
	ProviderLastUsed    *time.Time `bun:",scanonly"`
	RoleCount           int        `bun:",scanonly"`
	RoleNames           *string    `bun:",scanonly"` // comma-separated, lowest rank first
	SubscriptionCount   int        `bun:",scanonly"`
	ActiveSubscriptions int        `bun:",scanonly"`
	SubscriptionNames   *string    `bun:",scanonly"` // comma-separated
	TimeoutCount        int        `bun:",scanonly"`
	ActiveTimeoutID     *int64     `bun:",scanonly"`
	ActiveTimeoutReason *string    `bun:",scanonly"`
	TimeoutExpires      *time.Time `bun:",scanonly"`
}

// AdminUsersQuery selects a page of the admin users list.
type AdminUsersQuery struct {
	Page   int // from 1
	Limit  int
	Search string // substring of name, username, email or a provider's name or email
}

// SearchCountCap is how many matches every search ranks and counts (the
// admin users list, users and posts): the newest ones by id, which
// newestMatches finds without reading the rest. Past it a total is
// reported as at least this many (Capped): counting a third of a million
// matches takes longer than the page itself.
const SearchCountCap = 200

// AdminUserPage is a page of the admin users list and the number of users
// it is a page of; Capped says Total is a lower bound (SearchCountCap).
type AdminUserPage struct {
	Rows   []AdminUserRow
	Total  int
	Capped bool
}

// AdminUsers reads one page of the admin users list, the latest
// registered first (by id, which both the primary key and the search
// indexes can serve in order), and the number of users matching. The page is one statement, whatever its
// size: the page's ids are picked first, without reading the rows they
// skip, then each summary is a subquery over the picked rows alone. The
// count is the second statement: a counter kept by triggers for the whole
// list, a count of at most SearchCountCap+1 matches for a search.
func (s *Store) AdminUsers(ctx context.Context, q AdminUsersQuery) (*AdminUserPage, error) {
	ctx = s.mayLag(ctx)
	db, now := s.db(ctx), s.now()
	offset := (q.Page - 1) * q.Limit
	out := &AdminUserPage{}
	var page schema.QueryAppender
	if q.Search == "" {
		total, err := s.userCount(ctx)
		if err != nil {
			return nil, err
		}
		out.Total, page = total, newestUsers(db, offset, q.Limit, total)
	} else {
		ids, err := s.matchUsers(ctx, q.Search, max(SearchCountCap+1, offset+q.Limit))
		if err != nil {
			return nil, err
		}
		out.Total, out.Capped = min(len(ids), SearchCountCap), len(ids) > SearchCountCap
		ids = ids[min(offset, len(ids)):min(offset+q.Limit, len(ids))]
		if len(ids) == 0 {
			return out, nil
		}
		page = db.NewSelect().TableExpr("users AS pu").Column("pu.id").Where("pu.id IN (?)", bun.In(ids))
	}
	sel := adminUserSelect(db.NewSelect().Model(&out.Rows), now).
		Join("JOIN (?) AS pick ON pick.id = u.id", page).
		OrderExpr("u.id DESC")
	return out, sel.Scan(ctx)
}

// newestUsers picks the ids of a page of all users, latest first. On
// PostgreSQL a page past the first run of ids finds the run that holds its
// offset from the users counted per run (user_id_buckets) and skips fewer
// than bucketIDs entries of the index. On SQLite a page in the older half
// is read from the oldest end, so that no page walks more than half the
// index.
func newestUsers(db bun.IDB, offset, limit, total int) schema.QueryAppender {
	if Dialect(db) == "postgres" && offset >= bucketIDs {
		return db.NewRaw(`WITH at AS (
			SELECT bucket, through - row_count AS before FROM (
				SELECT bucket, row_count, sum(row_count) OVER (ORDER BY bucket DESC) AS through FROM user_id_buckets) AS r
			WHERE through > ? ORDER BY bucket DESC LIMIT 1)
		SELECT u.id FROM users AS u WHERE u.id < (SELECT (at.bucket + 1) * ? FROM at)
		ORDER BY u.id DESC LIMIT ? OFFSET (SELECT ? - at.before FROM at)`, offset, bucketIDs, limit, offset)
	}
	q := db.NewSelect().Model((*User)(nil)).Column("u.id")
	if offset <= total/2 || offset >= total {
		return q.OrderExpr("u.id DESC").Limit(int64(limit)).Offset(int64(offset))
	}
	from := total - offset - limit
	if from < 0 {
		limit, from = limit+from, 0
	}
	return q.OrderExpr("u.id ASC").Limit(int64(limit)).Offset(int64(from))
}

// bucketIDs is how many ids user_id_buckets counts together, as its
// triggers (migration 20261124100000) count them.
const bucketIDs = 1024

// userCount is the number of users, kept by triggers (row_counts).
func (s *Store) userCount(ctx context.Context) (int, error) {
	var n int
	err := s.db(ctx).NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'users'").Scan(ctx, &n)
	return n, err
}

// RecountUsers sets the users counters (row_counts, and user_id_buckets on
// PostgreSQL) to the users there are, for writers that skip triggers (a
// bulk load as replica). It holds off other writers of users while it
// counts. It does nothing on SQLite, whose bulk loads run the triggers.
func (s *Store) RecountUsers(ctx context.Context) error {
	if s.Dialect() != "postgres" {
		return nil
	}
	return s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if _, err := db.ExecContext(ctx, "LOCK TABLE users IN SHARE MODE"); err != nil {
			return err
		}
		for _, q := range []string{
			"UPDATE row_counts SET row_count = (SELECT count(*) FROM users) WHERE table_name = 'users'",
			"UPDATE row_counts SET row_count = (SELECT count(*) FROM users WHERE status = 'inactive') WHERE table_name = 'users_inactive'",
			"UPDATE row_counts SET row_count = (SELECT count(*) FROM users WHERE status = 'banned') WHERE table_name = 'users_banned'",
			"DELETE FROM user_id_buckets",
			fmt.Sprintf("INSERT INTO user_id_buckets (bucket, row_count) SELECT id / %d, count(*) FROM users GROUP BY 1", bucketIDs),
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// AdminUserByID reads one user as the admin list shows it.
func (s *Store) AdminUserByID(ctx context.Context, id int64) (*AdminUserRow, error) {
	row := new(AdminUserRow)
	err := adminUserSelect(s.db(ctx).NewSelect().Model(row), s.now()).Where("u.id = ?", id).Scan(ctx)
	return row, notFound(err, "user")
}

// adminUserSelect adds the summaries of the admin list to a select of
// users: correlated subqueries, evaluated only for the rows selected.
func adminUserSelect(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	db := q.DB()
	return selectUsers(q, now).
		// The user_id conditions are redundant but let the planner walk
		// each table's user index instead of hashing the whole table.
		Join("LEFT JOIN provider_accounts AS pa ON pa.user_id = u.id AND pa.id = (?)", primaryProvider(db)).
		Join("LEFT JOIN bans AS ab ON ab.user_id = u.id AND ab.id = (?)", activeBan(db, now)).
		ColumnExpr("pa.provider AS provider_name, pa.email AS provider_email").
		ColumnExpr("COALESCE(pa.email_verified, ?) AS provider_verified, pa.last_used_at AS provider_last_used", false).
		ColumnExpr("ab.id AS active_timeout_id, ab.reason AS active_timeout_reason, ab.expires_at AS timeout_expires").
		ColumnExpr("(SELECT count(*) FROM user_roles AS ur WHERE ur.user_id = u.id) AS role_count").
		ColumnExpr("(?) AS role_names", roleNamesQuery(db)).
		ColumnExpr("(SELECT count(*) FROM user_subscriptions AS us WHERE us.user_id = u.id) AS subscription_count").
		ColumnExpr("(SELECT count(*) FROM user_subscriptions AS us WHERE us.user_id = u.id AND us.status = 'active') AS active_subscriptions").
		ColumnExpr("(?) AS subscription_names", subscriptionNames(db)).
		ColumnExpr("(SELECT count(*) FROM bans AS b WHERE b.user_id = u.id) AS timeout_count")
}

// matchUsers finds the ids of the newest n users whose name, username or
// email holds term, or who have a provider account whose name or email
// does, newest first. Each of the two kinds of match finds its newest n
// alone (newestMatches), and the two lists merge.
func (s *Store) matchUsers(ctx context.Context, term string, n int) ([]int64, error) {
	db := s.db(ctx)
	top, err := newestID(ctx, db, "users")
	if err != nil {
		return nil, err
	}
	own, providers := liteUserFields(db, term), liteProviderFields(db, term)
	if Dialect(db) == "postgres" {
		own, providers = pgUserFields(db, term), pgProviderFields(db, term)
	}
	var ids []int64
	for _, arm := range []newestSearch{own, providers} {
		arm.top, arm.want, arm.span = top, n, s.searchWalk(cmp.Or(arm.span, nameWalkSpan))
		found, err := newestMatches[userID](ctx, db, arm)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			ids = append(ids, f.ID)
		}
	}
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Compare(b, a) })
	ids = slices.Compact(ids)
	return ids[:min(n, len(ids))], nil
}

// userID is a matching user's id.
type userID struct{ ID int64 }

// pgUserFields matches the user's own fields through the trigram index
// over them (staffText); texticlike is ILIKE under the name of its
// function, for the walk.
func pgUserFields(db bun.IDB, term string) newestSearch {
	text, pattern := staffText("m"), "%"+escapeLike(term)+"%"
	matches := func(w idWindow, cond string) *bun.SelectQuery {
		return db.NewSelect().TableExpr("users AS m").ColumnExpr("m.id").
			Where("m.id > ? AND m.id <= ?", w.lo, w.hi).Where(cond, pattern)
	}
	return newestSearch{
		walk:  func(w idWindow) *bun.SelectQuery { return matches(w, "texticlike("+text+", ?)").OrderExpr("m.id DESC") },
		index: func(w idWindow) *bun.SelectQuery { return matches(w, text+" ILIKE ?") },
		rough: true, walkCost: nameWalkCost,
	}
}

// pgProviderFields matches provider names and emails, by the user they
// belong to.
func pgProviderFields(db bun.IDB, term string) newestSearch {
	cols, pattern := []string{"mp.provider", "mp.email"}, "%"+escapeLike(term)+"%"
	matches := func(w idWindow, form string) *bun.SelectQuery {
		return db.NewSelect().Distinct().TableExpr("provider_accounts AS mp").ColumnExpr("mp.user_id AS id").
			Where("mp.user_id > ? AND mp.user_id <= ?", w.lo, w.hi).
			Where("("+anyColumn(cols, form)+")", repeat(pattern, len(cols))...)
	}
	return newestSearch{
		walk:  func(w idWindow) *bun.SelectQuery { return matches(w, "texticlike(%s, ?)").OrderExpr("id DESC") },
		index: func(w idWindow) *bun.SelectQuery { return matches(w, "%s ILIKE ?") },
		rough: true, walkCost: nameWalkCost,
	}
}

// liteUserFields matches the user's own fields: a term of three
// characters or more through the users' trigram FTS5 table, which walks
// its matches newest first; a shorter one by LIKE over the newest users.
func liteUserFields(db bun.IDB, term string) newestSearch {
	walk := func(w idWindow) *bun.SelectQuery {
		if utf8.RuneCountInString(term) >= 3 {
			return db.NewSelect().TableExpr("users_fts").ColumnExpr("users_fts.rowid AS id").
				Where("users_fts MATCH ?", ftsPhrase(term)).
				Where("users_fts.rowid > ? AND users_fts.rowid <= ?", w.lo, w.hi).OrderExpr("users_fts.rowid DESC")
		}
		cols := []string{"m.name", "m.username", "m.email"}
		return db.NewSelect().TableExpr("users AS m").ColumnExpr("m.id").
			Where("m.id > ? AND m.id <= ?", w.lo, w.hi).
			Where("("+anyColumn(cols, "%s LIKE ? ESCAPE '\\'")+")", repeat("%"+escapeLike(term)+"%", len(cols))...).
			OrderExpr("m.id DESC")
	}
	return newestSearch{span: math.MaxInt64, walk: walk}
}

// liteProviderFields matches provider names and emails by the user they
// belong to. FTS5 lists its matches by account, not by user, so the newest
// users' accounts are walked first (by LIKE, an email domain or a provider
// held by many is found there), then FTS5's trigram table answers a term
// of three characters or more for older users.
func liteProviderFields(db bun.IDB, term string) newestSearch {
	pattern := "%" + escapeLike(term) + "%"
	accounts := func(w idWindow) *bun.SelectQuery {
		return db.NewSelect().Distinct().TableExpr("provider_accounts AS mp").ColumnExpr("mp.user_id AS id").
			Where("mp.user_id > ? AND mp.user_id <= ?", w.lo, w.hi)
	}
	s := newestSearch{span: nameWalkSpan, walkCost: nameWalkCost,
		walk: func(w idWindow) *bun.SelectQuery {
			return accounts(w).Where("(mp.provider LIKE ? ESCAPE '\\' OR mp.email LIKE ? ESCAPE '\\')", pattern, pattern).
				OrderExpr("id DESC")
		},
	}
	if utf8.RuneCountInString(term) >= 3 {
		s.index = func(w idWindow) *bun.SelectQuery {
			return accounts(w).Join("JOIN provider_accounts_fts ON provider_accounts_fts.rowid = mp.id").
				Where("provider_accounts_fts MATCH ?", ftsPhrase(term))
		}
	} else {
		s.span = math.MaxInt64
	}
	return s
}

// ftsPhrase quotes text as one FTS5 phrase, so that its syntax is only text.
func ftsPhrase(text string) string {
	return `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
}

// escapeLike makes a search term's LIKE wildcards literal.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// primaryProvider is the id of u's most recently used provider account.
func primaryProvider(db bun.IDB) *bun.SelectQuery {
	return db.NewSelect().TableExpr("provider_accounts AS p1").Column("p1.id").Where("p1.user_id = u.id").
		OrderExpr("p1.last_used_at DESC NULLS LAST, p1.id DESC").Limit(1)
}

// activeBan is the id of u's ban in force at now.
func activeBan(db bun.IDB, now time.Time) *bun.SelectQuery {
	return db.NewSelect().TableExpr("bans AS b").Column("b.id").Where("b.user_id = u.id").
		Where(banInForce, now).OrderExpr("b.created_at DESC, b.id DESC").Limit(1)
}

// subscriptionNames lists the names of u's subscription types.
func subscriptionNames(db bun.IDB) *bun.SelectQuery {
	agg := "group_concat(st.name, ',')"
	if Dialect(db) == "postgres" {
		agg = "string_agg(st.name, ',' ORDER BY st.name)"
	}
	return db.NewSelect().TableExpr("user_subscriptions AS us").
		Join("JOIN subscription_types AS st ON st.id = us.subscription_type_id").
		ColumnExpr(agg).Where("us.user_id = u.id")
}
