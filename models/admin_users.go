package models

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// AdminUserRow is a user as the unversioned admin list shows it
// (interface.md 2.5): the user with its primary provider account, roles,
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

// AdminUsers reads one page of the admin users list, newest users first,
// and the number of users matching. The page is one statement, whatever
// its size: the page's ids are picked first (an index-only walk, so a deep
// page does not read the rows it skips), then each summary is a subquery
// over the picked rows alone. The count is the second statement.
func (s *Store) AdminUsers(ctx context.Context, q AdminUsersQuery) ([]AdminUserRow, int, error) {
	db, now := s.db(ctx), s.now()
	page := db.NewSelect().Model((*User)(nil)).Column("u.id").
		OrderExpr("u.created_at DESC, u.id DESC").Limit(int64(q.Limit)).Offset(int64((q.Page - 1) * q.Limit))
	count := db.NewSelect().Model((*User)(nil))
	if q.Search != "" {
		page, count = matchUsers(page, q.Search), matchUsers(count, q.Search)
	}
	var rows []AdminUserRow
	sel := adminUserSelect(db.NewSelect().Model(&rows), now).
		Join("JOIN (?) AS pick ON pick.id = u.id", page).
		OrderExpr("u.created_at DESC, u.id DESC")
	if err := sel.Scan(ctx); err != nil {
		return nil, 0, err
	}
	total, err := count.Count(ctx)
	return rows, int(total), err
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

// matchUsers keeps the users whose name, username or email holds term, or
// who have a provider account whose name or email does. Each arm can use
// its own trigram index on PostgreSQL.
func matchUsers(q *bun.SelectQuery, term string) *bun.SelectQuery {
	pattern := "%" + escapeLike(strings.ToLower(term)) + "%"
	like := "LIKE"
	if Dialect(q.DB()) == "postgres" {
		like = "ILIKE"
	}
	cond := func(col string) string { return col + " " + like + " ? ESCAPE '\\'" }
	return q.Where("u.id IN (?)", q.DB().NewSelect().TableExpr("users AS m").Column("m.id").
		Where(cond("m.name")+" OR "+cond("m.username")+" OR "+cond("m.email"), pattern, pattern, pattern).
		UnionAll(q.DB().NewSelect().TableExpr("provider_accounts AS mp").Column("mp.user_id").
			Where(cond("mp.provider")+" OR "+cond("mp.email"), pattern, pattern)))
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
