package models

import (
	"context"
	"fmt"
	"time"

	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/userindex"
	"github.com/uptrace/bun"
)

// UserListFilter selects a page of the versioned admin users list.
type UserListFilter struct {
	Status string // active, inactive or banned, as of now; "" for all
	Role   string // the highest role: user, moderator or admin (with super_admin); "" for all
	Search string // a case-insensitive substring of the username or email
	// Address keeps the users who signed up or signed in from this
	// address, or with Range from an address of this range (a /24 or
	// /64 as clientnet.Range spells it); "" for any.
	Address string
	Range   bool
	// SignedUpFrom and SignedUpTo keep the users created in [from, to);
	// nil leaves that end open.
	SignedUpFrom, SignedUpTo *time.Time
	Sort                     string // created_at, last_login_at, username, email or post_count
	Desc                     bool
	Limit                    int
	Offset                   int
}

// ListedUser is a user of the versioned admin list, with its status as of
// now and its highest role.
type ListedUser struct {
	User    `bun:",extend"`
	TopRole *string `bun:",scanonly"`
}

// userOrder is each sort field's expression. Usernames and emails sort
// without case, as their unique indexes hold them.
var userOrder = map[string]string{
	"created_at": "u.created_at", "last_login_at": "u.last_login_at", "post_count": "u.post_count",
	"username": "lower(u.username)", "email": "lower(u.email)",
}

// ListUsers reads a page of users matching f, and how many match,
// exactly. By last_login_at, a user who never signed in counts as the
// longest ago: first ascending, last descending. Equal values are in id
// order. The page's ids and the count come from the users index
// (userIndex), then only the page's rows are read.
func (s Users) ListUsers(ctx context.Context, f UserListFilter) (rows []ListedUser, total int, err error) {
	ctx = s.mayLag(ctx)
	if s.inChange(ctx) {
		return s.listUsersInChange(ctx, f)
	}
	x, err := s.userIndex(ctx)
	if err != nil {
		return nil, 0, err
	}
	q := userindex.Query{Term: f.Search, Status: indexStatus[f.Status], Ranks: roleRanks[f.Role],
		Sort: indexOrder[f.Sort], Desc: f.Desc, Offset: f.Offset, Limit: f.Limit, Now: s.now().UnixNano()}
	if f.Address != "" {
		if q.Only, err = accountsAt(ctx, s.db(ctx), f); err != nil {
			return nil, 0, err
		}
	}
	if f.SignedUpFrom != nil {
		q.CreatedFrom = f.SignedUpFrom.UnixNano()
	}
	if f.SignedUpTo != nil {
		q.CreatedTo = f.SignedUpTo.UnixNano()
	}
	ids, total := x.Find(q)
	rows, err = s.listedUsersInOrder(ctx, ids)
	return rows, total, err
}

// inChange says a change is under way in ctx, uncommitted: the index
// holds committed users only, so a read that must see the change's own
// writes asks the database.
func (s *Store) inChange(ctx context.Context) bool {
	_, ok := s.db(ctx).(*bun.Tx)
	return ok
}

// listUsersInChange is ListUsers by SQL alone, inside a change.
func (s *Store) listUsersInChange(ctx context.Context, f UserListFilter) ([]ListedUser, int, error) {
	db, now := s.db(ctx), s.now()
	key, dir := walkKey(f)
	page := filterUsers(db.NewSelect().Model((*User)(nil)).Column("u.id"), f, now).
		OrderExpr(key + dir).OrderExpr("u.id" + idDir(dir)).Limit(int64(f.Limit)).Offset(int64(f.Offset))
	var rows []ListedUser
	err := selectUsers(db.NewSelect().Model(&rows), now).ColumnExpr("(?) AS top_role", topRole(db)).
		Join("JOIN (?) AS pick ON pick.id = u.id", page).OrderExpr(key + dir).OrderExpr("u.id" + idDir(dir)).Scan(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, err := filterUsers(db.NewSelect().Model((*User)(nil)), f, now).Count(ctx)
	return rows, int(n), err
}

// roleRanks are the ranks a role filter takes, as the index's bits.
var roleRanks = map[string]uint8{RoleUser: 1 << 0, RoleModerator: 1 << 1, RoleAdmin: 1<<2 | 1<<3}

// indexOrder is each sort field's order in the index.
var indexOrder = map[string]userindex.Key{
	"created_at": userindex.ByCreated, "last_login_at": userindex.ByLogin, "post_count": userindex.ByPosts,
	"username": userindex.ByUsername, "email": userindex.ByEmail,
}

// listedUsersInOrder reads the listed users with these ids, in their
// order; ids gone since are left out.
func (s *Store) listedUsersInOrder(ctx context.Context, ids []int64) ([]ListedUser, error) {
	if len(ids) == 0 {
		return []ListedUser{}, nil
	}
	found, err := s.Users.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]ListedUser, len(found))
	for _, u := range found {
		byID[u.ID] = u
	}
	rows := make([]ListedUser, 0, len(ids))
	for _, id := range ids {
		if u, ok := byID[id]; ok {
			rows = append(rows, u)
		}
	}
	return rows, nil
}

// accountsAt are the ids of the users who signed up or signed in from
// f's address or range, read through the indexes of related accounts
// (users' sign-up address and range, sign-ins by range and address):
// never nil, so that no match keeps no user.
func accountsAt(ctx context.Context, db bun.IDB, f UserListFilter) ([]int64, error) {
	ids := []int64{}
	err := accountsAtQuery(db, f).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("users at %s: %w", f.Address, err)
	}
	return ids, nil
}

// accountsAtQuery selects the ids of accountsAt.
func accountsAtQuery(db bun.IDB, f UserListFilter) *bun.RawQuery {
	if f.Range {
		return db.NewRaw(`SELECT u.id FROM users AS u WHERE u.signup_net = ?
			UNION SELECT l.user_id FROM logins AS l WHERE l.ip_net = ? AND l.user_id IS NOT NULL`, f.Address, f.Address)
	}
	addr := clientnet.Address(f.Address)
	return db.NewRaw(`SELECT u.id FROM users AS u WHERE u.signup_ip = ?
		UNION SELECT l.user_id FROM logins AS l WHERE l.ip_net = ? AND l.ip_address = ? AND l.user_id IS NOT NULL`,
		addr, clientnet.Range(addr), addr)
}

// filterUsers adds f's conditions to a select of users.
func filterUsers(q *bun.SelectQuery, f UserListFilter, now time.Time) *bun.SelectQuery {
	if f.Status != "" {
		expr, args := statusNow(now)
		q = q.Where(expr+" = ?", append(args, f.Status)...)
	}
	if f.Role != "" {
		ranks := map[string][]int{RoleUser: {0}, RoleModerator: {1}, RoleAdmin: {2, 3}}[f.Role]
		q = q.Where("COALESCE((?), 0) IN (?)", topRank(q.DB()), bun.In(ranks))
	}
	if f.Search != "" {
		like := "LIKE"
		if Dialect(q.DB()) == "postgres" {
			like = "ILIKE"
		}
		pattern := "%" + escapeLike(f.Search) + "%"
		q = q.Where("(u.username "+like+" ? ESCAPE '\\' OR u.email "+like+" ? ESCAPE '\\')", pattern, pattern)
	}
	if f.Address != "" {
		q = q.Where("u.id IN (?)", accountsAtQuery(q.DB(), f))
	}
	if f.SignedUpFrom != nil {
		q = q.Where("u.created_at >= ?", *f.SignedUpFrom)
	}
	if f.SignedUpTo != nil {
		q = q.Where("u.created_at < ?", *f.SignedUpTo)
	}
	return q
}

// topRank is the rank of u's highest role.
func topRank(db bun.IDB) *bun.SelectQuery {
	return db.NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
		ColumnExpr("max(r.rank)").Where("ur.user_id = u.id")
}

// topRole is the name of u's highest role.
func topRole(db bun.IDB) *bun.SelectQuery {
	return db.NewSelect().TableExpr("user_roles AS ur").Join("JOIN roles AS r ON r.id = ur.role_id").
		Column("r.name").Where("ur.user_id = u.id").OrderExpr("r.rank DESC").Limit(1)
}

// ViewUserAction is the audit action of reading one user in full: kept in
// the audit log, left out of the user's own recent entries, which would
// otherwise fill with the reads of whoever looks.
const ViewUserAction = "user.view"

// UserDetail is one user as the versioned admin family shows it in full:
// the listed record, every role, the ban history and the latest posts and
// audit entries about the user.
type UserDetail struct {
	ListedUser
	Roles       []string     // highest first
	Bans        []Ban        // newest first
	Strikes     []Strike     // newest first
	RecentPosts []Post       // the latest RecentPostCount
	RecentAudit []AuditEntry // the latest RecentAuditCount whose target is the user
}

// How much history a user's detail carries.
const (
	RecentPostCount  = 10
	RecentAuditCount = 20
)

// UserDetail reads user id in full; an unknown id is ErrNotFound.
func (s Users) UserDetail(ctx context.Context, id int64) (*UserDetail, error) {
	db := s.db(ctx)
	u, err := s.ListedUserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &UserDetail{ListedUser: *u}
	if out.Roles, err = s.UserRoles(ctx, id); err != nil {
		return nil, err
	}
	err = db.NewSelect().Model(&out.Bans).Where("b.user_id = ?", id).OrderExpr("b.created_at DESC, b.id DESC").Scan(ctx)
	if err != nil {
		return nil, err
	}
	if out.Strikes, err = s.Sanctions.UserStrikes(ctx, id); err != nil {
		return nil, err
	}
	err = db.NewSelect().Model(&out.RecentPosts).Where("p.author_id = ?", id).
		OrderExpr("p.created_at DESC, p.id DESC").Limit(RecentPostCount).Scan(ctx)
	if err != nil {
		return nil, err
	}
	target := fmt.Sprint(id)
	out.RecentAudit, _, err = s.listAudit(ctx, AuditFilter{TargetType: "user", TargetID: &target, SkipAction: ViewUserAction,
		Limit: RecentAuditCount})
	return out, err
}

// walkKey is the list's order as one key, to be followed by id, and its
// direction (with where nulls go, as in ListUsers: a user who never signed
// in counts as the longest ago).
func walkKey(f UserListFilter) (key, dir string) {
	dir = " ASC"
	if f.Desc {
		dir = " DESC"
	}
	if f.Sort == "last_login_at" {
		return userOrder[f.Sort], dir + map[bool]string{false: " NULLS FIRST", true: " NULLS LAST"}[f.Desc]
	}
	return userOrder[f.Sort], dir
}

// idDir is the direction of the id that breaks ties: the key's, without
// where its nulls go.
func idDir(dir string) string {
	if dir[:4] == " ASC" {
		return " ASC"
	}
	return " DESC"
}
