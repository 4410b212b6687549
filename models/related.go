package models

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/clientnet"
)

// Why an account is related to another (RelatedAccount.Reasons).
const (
	// RelatedAddress: it signed up or signed in from one of the other's
	// addresses.
	RelatedAddress = "address"
	// RelatedEmail: its email reaches the other's mailbox
	// (email_canonical).
	RelatedEmail = "email"
	// RelatedRange: it signed up or signed in from another address of a
	// range (clientnet.Range) one of the other's addresses is in.
	RelatedRange = "range"
	// RelatedSignup: it signed up within RelatedSignupWindow of the other,
	// from the range the other signed up from.
	RelatedSignup = "signup"
)

// RelatedSignupWindow is how close in time two sign-ups from one range
// are, at most, to count as a batch.
const RelatedSignupWindow = time.Minute

// The number of related accounts RelatedAccounts answers by default and
// at most, and how many of a user's latest sign-ins give its addresses.
const (
	DefaultRelatedLimit = 100
	MaxRelatedLimit     = 500
	relatedLogins       = 200
)

// Related is what RelatedAccounts finds for a user: the accounts related
// to it, most reasons first, then newest; Truncated when more were found
// than the limit.
type Related struct {
	UserID    int64
	Username  string
	Accounts  []RelatedAccount
	Truncated bool
}

// RelatedAccount is an account related to another, and why.
type RelatedAccount struct {
	ID       int64
	Username string
	Email    string
	// Status is as the users list shows it: a ban that ran out is active.
	Status    string
	CreatedAt time.Time
	PostCount int
	// ReportsReceived counts the reports filed against the account's
	// posts, whatever became of them (posts.report_count).
	ReportsReceived int
	// Reasons are among RelatedAddress, RelatedEmail, RelatedRange and
	// RelatedSignup, sorted.
	Reasons []string
	// Addresses are the other's addresses this account signed up or
	// signed in from; Ranges the other's ranges it used another address
	// of, or signed up from in the same minute. Both sorted.
	Addresses []string
	Ranges    []string
}

// relatedSeed is what a user's related accounts are looked for by.
type relatedSeed struct {
	addresses []string // the sign-up address and those of the latest sign-ins
	ranges    []string // their ranges
	email     string   // email_canonical
	signupNet string
	signedUp  time.Time
}

// RelatedAccounts finds the accounts related to user id (ErrNotFound if
// none has it): those that signed up or signed in from one of its
// addresses (its sign-up address and those of its latest 200 sign-ins),
// from another address of one of their ranges, whose email reaches its
// mailbox, or that signed up within a minute of it from its sign-up
// range. At most limit (DefaultRelatedLimit when 0 or less, at most
// MaxRelatedLimit), most reasons first, then newest. Every lookup goes
// through an index on what is compared (the migration
// 20261209120000_related_accounts), whatever the size of logins. A purge
// of a spam wave is to act on the accounts found here, so that staff
// act on what they saw.
func (s Users) RelatedAccounts(ctx context.Context, id int64, limit int) (*Related, error) {
	if limit <= 0 {
		limit = DefaultRelatedLimit
	}
	limit = min(limit, MaxRelatedLimit)
	db := s.db(ctx)
	u := new(User)
	err := db.NewSelect().Model(u).Column("id", "username", "email_canonical", "signup_ip", "signup_net", "created_at").
		Where("u.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "user")
	}
	seed, err := relatedSeedOf(ctx, db, u)
	if err != nil {
		return nil, fmt.Errorf("related accounts of %d: %w", id, err)
	}
	out := &Related{UserID: u.ID, Username: u.Username, Accounts: []RelatedAccount{}}
	matches := seed.matches(db, nil)
	if matches == nil {
		return out, nil
	}
	ids, err := rankRelated(ctx, db, matches, id, limit+1)
	if err != nil {
		return nil, fmt.Errorf("related accounts of %d: %w", id, err)
	}
	if len(ids) > limit {
		ids, out.Truncated = ids[:limit], true
	}
	if out.Accounts, err = s.relatedAccounts(ctx, db, seed, ids); err != nil {
		return nil, fmt.Errorf("related accounts of %d: %w", id, err)
	}
	return out, nil
}

// relatedSeedOf reads what u's related accounts are looked for by: its
// addresses, in one spelling, and their ranges.
func relatedSeedOf(ctx context.Context, db bun.IDB, u *User) (*relatedSeed, error) {
	var seen []string
	err := db.NewRaw(`SELECT DISTINCT l.ip_address FROM (
		SELECT ip_address FROM logins WHERE user_id = ? ORDER BY created_at DESC LIMIT ?) AS l`,
		u.ID, relatedLogins).Scan(ctx, &seen)
	if err != nil {
		return nil, err
	}
	seed := &relatedSeed{email: u.EmailCanonical, signupNet: u.SignupNet, signedUp: u.CreatedAt}
	for _, ip := range append(seen, u.SignupIP) {
		a, r := clientnet.Address(ip), clientnet.Range(ip)
		if a == "" || r == "" || slices.Contains(seed.addresses, a) {
			continue
		}
		seed.addresses = append(seed.addresses, a)
		if !slices.Contains(seed.ranges, r) {
			seed.ranges = append(seed.ranges, r)
		}
	}
	return seed, nil
}

// matches is every row (user_id, reason, val) that relates an account to
// the seed's user, as one UNION ALL, each part read through an index:
// sign-ups and sign-ins in one of its ranges (an address of its own is an
// address match, another of the range a range match), accounts of its
// mailbox, and sign-ups of its range within a minute of its own. With
// ids, only those accounts' rows. Nil when the user has nothing to be
// related by.
func (seed *relatedSeed) matches(db bun.IDB, ids []int64) *bun.RawQuery {
	var parts []string
	var args []any
	only := func(col string) string {
		if ids == nil {
			return ""
		}
		args = append(args, bun.In(ids))
		return " AND " + col + " IN (?)"
	}
	if len(seed.ranges) > 0 {
		args = append(args, bun.In(seed.addresses), RelatedAddress, RelatedRange, bun.In(seed.ranges))
		parts = append(parts, `SELECT u.id AS user_id, CASE WHEN u.signup_ip IN (?) THEN ? ELSE ? END AS reason,
			u.signup_ip AS ip, u.signup_net AS val FROM users AS u WHERE u.signup_net IN (?)`+only("u.id"))
		args = append(args, bun.In(seed.addresses), RelatedAddress, RelatedRange, bun.In(seed.ranges))
		parts = append(parts, `SELECT l.user_id AS user_id, CASE WHEN l.ip_address IN (?) THEN ? ELSE ? END AS reason,
			l.ip_address AS ip, l.ip_net AS val FROM logins AS l WHERE l.ip_net IN (?)`+only("l.user_id"))
	}
	if seed.email != "" {
		args = append(args, RelatedEmail, seed.email)
		parts = append(parts, `SELECT u.id AS user_id, ? AS reason, '' AS ip, u.email_canonical AS val FROM users AS u WHERE u.email_canonical = ?`+only("u.id"))
	}
	if seed.signupNet != "" {
		args = append(args, RelatedSignup, seed.signupNet, seed.signedUp.Add(-RelatedSignupWindow), seed.signedUp.Add(RelatedSignupWindow))
		parts = append(parts, `SELECT u.id AS user_id, ? AS reason, u.signup_ip AS ip, u.signup_net AS val FROM users AS u
			WHERE u.signup_net = ? AND u.created_at BETWEEN ? AND ?`+only("u.id"))
	}
	if parts == nil {
		return nil
	}
	return db.NewRaw(strings.Join(parts, "\nUNION ALL\n"), args...)
}

// rankRelated is the ids of the accounts matches relates, but user id,
// most reasons first, then newest, at most limit.
func rankRelated(ctx context.Context, db bun.IDB, matches *bun.RawQuery, id int64, limit int) ([]int64, error) {
	flag := func(reason string) string {
		return "max(CASE WHEN m.reason = '" + reason + "' THEN 1 ELSE 0 END)"
	}
	var ids []int64
	err := db.NewRaw(`SELECT r.user_id FROM (
			SELECT m.user_id, `+flag(RelatedAddress)+` + `+flag(RelatedRange)+` + `+flag(RelatedEmail)+` + `+flag(RelatedSignup)+` AS reasons
			FROM (?) AS m WHERE m.user_id <> ? GROUP BY m.user_id
		) AS r JOIN users AS u ON u.id = r.user_id
		ORDER BY r.reasons DESC, u.created_at DESC, u.id DESC LIMIT ?`, matches, id, limit).Scan(ctx, &ids)
	return ids, err
}

// relatedRow is one account of a page of related accounts as read.
type relatedRow struct {
	ID              int64     `bun:"id"`
	Username        string    `bun:"username"`
	Email           string    `bun:"email"`
	Status          string    `bun:"status"`
	CreatedAt       time.Time `bun:"created_at"`
	PostCount       int       `bun:"post_count"`
	ReportsReceived int       `bun:"reports_received"`
}

// relatedMatch is one row of matches.
type relatedMatch struct {
	UserID int64  `bun:"user_id"`
	Reason string `bun:"reason"`
	IP     string `bun:"ip"`
	Val    string `bun:"val"`
}

// relatedAccounts reads the accounts of ids, in that order, with why each
// is related to the seed's user.
func (s Users) relatedAccounts(ctx context.Context, db bun.IDB, seed *relatedSeed, ids []int64) ([]RelatedAccount, error) {
	if len(ids) == 0 {
		return []RelatedAccount{}, nil
	}
	expr, args := statusNow(s.now())
	var rows []relatedRow
	err := db.NewSelect().TableExpr("users AS u").Column("u.id", "u.username", "u.email", "u.created_at", "u.post_count").
		ColumnExpr(expr+" AS status", args...).
		ColumnExpr("(SELECT coalesce(sum(p.report_count), 0) FROM posts AS p WHERE p.author_id = u.id) AS reports_received").
		Where("u.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	var found []relatedMatch
	if err := db.NewRaw("SELECT DISTINCT m.user_id, m.reason, m.ip, m.val FROM (?) AS m", seed.matches(db, ids)).Scan(ctx, &found); err != nil {
		return nil, err
	}
	byID := make(map[int64]*RelatedAccount, len(rows))
	for _, r := range rows {
		byID[r.ID] = &RelatedAccount{ID: r.ID, Username: r.Username, Email: r.Email, Status: r.Status,
			CreatedAt: r.CreatedAt, PostCount: r.PostCount, ReportsReceived: r.ReportsReceived}
	}
	for _, m := range found {
		if a := byID[m.UserID]; a != nil {
			a.add(m)
		}
	}
	out := make([]RelatedAccount, 0, len(ids))
	for _, id := range ids {
		if a := byID[id]; a != nil { // deleted since it was ranked: left out
			slices.Sort(a.Reasons)
			slices.Sort(a.Addresses)
			slices.Sort(a.Ranges)
			out = append(out, *a)
		}
	}
	return out, nil
}

// add notes m's reason and what it shares.
func (a *RelatedAccount) add(m relatedMatch) {
	if !slices.Contains(a.Reasons, m.Reason) {
		a.Reasons = append(a.Reasons, m.Reason)
	}
	switch {
	case m.Reason == RelatedAddress && !slices.Contains(a.Addresses, m.IP):
		a.Addresses = append(a.Addresses, m.IP)
	case (m.Reason == RelatedRange || m.Reason == RelatedSignup) && !slices.Contains(a.Ranges, m.Val):
		a.Ranges = append(a.Ranges, m.Val)
	}
}

// fillBatch is how many rows FillRelatedColumns reads and writes at once.
const fillBatch = 500

// FillRelatedColumns fills, in rows written before related accounts
// were kept, what they are found by: each user's email_canonical from its
// email, each sign-in's ip_net from its address (a sign-up address was
// not kept then, so there is none to fill). It walks in batches, each
// written in one statement, and says how many rows it filled;
// once nothing is left to fill it costs two index lookups, so it runs at
// every start.
func (s Users) FillRelatedColumns(ctx context.Context) (int, error) {
	emails, err := s.fillColumn(ctx, "users", "email", "email_canonical", func(v string) string { return (&User{Email: v}).derive().EmailCanonical })
	if err != nil {
		return emails, fmt.Errorf("fill users.email_canonical: %w", err)
	}
	nets, err := s.fillColumn(ctx, "logins", "ip_address", "ip_net", clientnet.Range)
	if err != nil {
		return emails + nets, fmt.Errorf("fill logins.ip_net: %w", err)
	}
	return emails + nets, nil
}

// fillRow is one row of a table whose column dst is to be derived from
// its column src.
type fillRow struct {
	ID  int64  `bun:"id"`
	Src string `bun:"src"`
}

// fillColumn sets dst to derive(src) in the rows of table where dst is
// empty and src is not, a batch a statement, and says how many it set. The first such row is
// found through dst's index; from there the walk goes in id order, along
// the primary key, testing dst as an expression (coalesce) so that no
// planner walks dst's index and sorts it again for every batch. A row
// whose src derives nothing (text that is no address) stays empty.
func (s Users) fillColumn(ctx context.Context, table, src, dst string, derive func(string) string) (int, error) {
	var first sql.NullInt64
	err := s.DB.NewSelect().TableExpr(table).ColumnExpr("min(id)").
		Where("? = '' AND ? <> ''", bun.Ident(dst), bun.Ident(src)).Scan(ctx, &first)
	if err != nil || !first.Valid {
		return 0, err
	}
	n, from := 0, first.Int64
	for {
		var rows []fillRow
		err := s.DB.NewSelect().TableExpr(table).ColumnExpr("id").ColumnExpr("? AS src", bun.Ident(src)).
			Where("id >= ? AND coalesce(?, '') = '' AND ? <> ''", from, bun.Ident(dst), bun.Ident(src)).
			OrderExpr("id").Limit(fillBatch).Scan(ctx, &rows)
		if err != nil || len(rows) == 0 {
			return n, err
		}
		filled, err := s.fillRows(ctx, table, dst, rows, derive)
		n += filled
		if err != nil || len(rows) < fillBatch {
			return n, err
		}
		from = rows[len(rows)-1].ID + 1
	}
}

// fillRows writes derive(src) to dst of each of rows, in one statement;
// a row filled meanwhile keeps its value.
func (s Users) fillRows(ctx context.Context, table, dst string, rows []fillRow, derive func(string) string) (int, error) {
	var cases strings.Builder
	var args []any
	var ids []int64
	for _, r := range rows {
		if v := derive(r.Src); v != "" {
			cases.WriteString(" WHEN ? THEN ?")
			args = append(args, r.ID, v)
			ids = append(ids, r.ID)
		}
	}
	if ids == nil {
		return 0, nil
	}
	res, err := s.DB.NewUpdate().TableExpr(table).Set("? = CASE id"+cases.String()+" END", append([]any{bun.Ident(dst)}, args...)...).
		Where("id IN (?) AND ? = ''", bun.In(ids), bun.Ident(dst)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
