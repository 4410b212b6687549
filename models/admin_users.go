package models

import (
	"context"
	"strings"
	"time"

	"github.com/plazahq/plaza/internal/userindex"
	"github.com/uptrace/bun"
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

// SearchCountCap is how many matches the general search ranks and counts
// (users and posts; the admin users lists count exactly): the newest ones by id, which
// newestMatches finds without reading the rest. Past it a total is
// reported as at least this many (PostHits.Capped, UserHits.Capped): counting a third of a million
// matches takes longer than the page itself.
const SearchCountCap = 200

// AdminUserPage is a page of the admin users list and the number of users
// it is a page of.
type AdminUserPage struct {
	Rows  []AdminUserRow
	Total int
}

// AdminUsers reads one page of the admin users list, the latest
// registered first, and the number of users matching, exactly. The page's
// ids and the count come from the users index (userIndex); the page is
// then one statement, whatever its size, with each summary a subquery over
// the picked rows alone.
func (s Users) AdminUsers(ctx context.Context, q AdminUsersQuery) (*AdminUserPage, error) {
	ctx = s.mayLag(ctx)
	x, err := s.userIndex(ctx)
	if err != nil {
		return nil, err
	}
	db, now := s.db(ctx), s.now()
	ids, total := x.Find(userindex.Query{Term: q.Search, Wide: true, Sort: userindex.ByID, Desc: true,
		Offset: (q.Page - 1) * q.Limit, Limit: q.Limit})
	out := &AdminUserPage{Total: total}
	if len(ids) == 0 {
		return out, nil
	}
	page := db.NewSelect().TableExpr("users AS pu").Column("pu.id").Where("pu.id IN (?)", bun.In(ids))
	sel := adminUserSelect(db.NewSelect().Model(&out.Rows), now).
		Join("JOIN (?) AS pick ON pick.id = u.id", page).
		OrderExpr("u.id DESC")
	return out, sel.Scan(ctx)
}

// userCount is the number of users, kept by triggers (row_counts).
func (s *Store) userCount(ctx context.Context) (int, error) {
	var n int
	err := s.db(ctx).NewSelect().Table("row_counts").Column("row_count").Where("table_name = 'users'").Scan(ctx, &n)
	return n, err
}

// RecountUsers sets the users counters (row_counts) to the users there
// are, for writers that skip triggers (a bulk load as replica), and has
// every users index reload. It holds off other writers of users while it
// counts. It does nothing on SQLite, whose bulk loads run the triggers.
func (s Users) RecountUsers(ctx context.Context) error {
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
			"UPDATE user_index_epoch SET epoch = epoch + 1",
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// AdminUserByID reads one user as the admin list shows it.
func (s Users) AdminUserByID(ctx context.Context, id int64) (*AdminUserRow, error) {
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
