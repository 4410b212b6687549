package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// A purge (docs/api.md, "Purges") bans a spam wave's accounts, hides their
// posts and blocks the ranges and email domains chosen, in one change, and
// keeps what it changed so that an undo within UndoWindow puts back exactly
// that and nothing else.

// Purge is one purge.
type Purge struct {
	bun.BaseModel `bun:"table:purges,alias:pu"`

	ID        int64      `bun:",pk,autoincrement"`
	CreatedBy *int64     `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
	UndoUntil time.Time  `bun:",notnull"`
	UndoneAt  *time.Time `bun:""` // once every account of it was undone
	Reason    string     `bun:",notnull"`
}

// PurgeAccount is one account a purge banned: its status fields as they
// were, the ban the purge made, and what an undo did.
type PurgeAccount struct {
	bun.BaseModel `bun:"table:purge_accounts,alias:pa"`

	PurgeID         int64      `bun:",pk"`
	UserID          int64      `bun:",pk"`
	Username        string     `bun:",notnull"`
	StatusBefore    string     `bun:",notnull"`
	IsActiveBefore  bool       `bun:",notnull"`
	UpdatedAtBefore time.Time  `bun:",notnull"`
	BanID           *int64     `bun:""`
	HiddenPosts     int        `bun:",notnull"`
	UndoneAt        *time.Time `bun:""`
	// Restored says the undo put the account back; false after an undo
	// means someone else had changed its ban since, so it was left alone.
	Restored      bool `bun:",notnull"`
	RestoredPosts int  `bun:",notnull"`
}

// PurgeBlock is a block a purge created; RemovedAt is when its undo
// removed it.
type PurgeBlock struct {
	bun.BaseModel `bun:"table:purge_blocks,alias:pb"`

	PurgeID   int64      `bun:",pk"`
	BlockID   int64      `bun:",pk"`
	Kind      string     `bun:",notnull"`
	Value     string     `bun:",notnull"`
	RemovedAt *time.Time `bun:""`
}

// PurgePlan is what a purge of some accounts would change now, counted
// by the queries the purge itself runs: the preview and the purge read
// the same plan.
type PurgePlan struct {
	Users    []ListedUser // every account named, in id order
	Ban      []int64      // those to ban: every one not banned now
	Skipped  []int64      // those banned already, left as they are
	Posts    int          // the published and flagged posts of Ban, to hide
	Sessions int          // the live sessions of Ban, to end
	// Ranges and Domains are the sign-up ranges and email domains of the
	// accounts named, each with how many of them it holds, most first.
	Ranges  []PurgeShare
	Domains []PurgeShare
}

// PurgeShare is a range or an email domain, and how many accounts of a
// selection it holds.
type PurgeShare struct {
	Value    string
	Accounts int
}

// shownStatuses are the post statuses a purge hides, as a ban's "remove
// content" does.
var shownStatuses = []string{PostPublished, PostFlagged}

// PlanPurge reads what purging the accounts of ids would change. Ids no
// user has are left out of Users.
func (s Sanctions) PlanPurge(ctx context.Context, ids []int64) (*PurgePlan, error) {
	users, err := s.Users.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	p := &PurgePlan{Users: users, Ban: []int64{}, Skipped: []int64{}}
	ranges, domains := map[string]int{}, map[string]int{}
	for _, u := range users {
		if u.Status == UserBanned {
			p.Skipped = append(p.Skipped, u.ID)
		} else {
			p.Ban = append(p.Ban, u.ID)
		}
		if u.SignupNet != "" {
			ranges[u.SignupNet]++
		}
		if _, domain, ok := strings.Cut(u.Email, "@"); ok && domain != "" {
			domains[strings.ToLower(domain)]++
		}
	}
	p.Ranges, p.Domains = shares(ranges), shares(domains)
	if len(p.Ban) == 0 {
		return p, nil
	}
	db, now := s.db(ctx), s.now()
	n, err := db.NewSelect().Model((*Post)(nil)).Where("p.author_id IN (?) AND p.status IN (?)", bun.In(p.Ban), bun.In(shownStatuses)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("plan purge: posts: %w", err)
	}
	p.Posts = int(n)
	n, err = db.NewSelect().Model((*Session)(nil)).Where("user_id IN (?) AND expiry > ?", bun.In(p.Ban), now).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("plan purge: sessions: %w", err)
	}
	p.Sessions = int(n)
	return p, nil
}

// shares lists counts, most first, then by value.
func shares(counts map[string]int) []PurgeShare {
	out := make([]PurgeShare, 0, len(counts))
	for v, n := range counts {
		out = append(out, PurgeShare{Value: v, Accounts: n})
	}
	slices.SortFunc(out, func(a, b PurgeShare) int {
		if a.Accounts != b.Accounts {
			return b.Accounts - a.Accounts
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}

// PurgeInput is a purge to carry out: the accounts to ban (none banned
// now: PurgePlan.Ban) and the blocks to create (none held already).
type PurgeInput struct {
	AdminID int64
	Reason  string
	Ban     []int64
	Blocks  []*Block
}

// Purged is what a purge did.
type Purged struct {
	Purge    Purge
	Accounts []PurgeAccount // in user id order, each with its ban
	Posts    int
	Sessions int
	Blocks   []Block
}

// PurgeUsers carries out a purge, set by set whatever the number of
// accounts: it records each account's status fields, bans them all
// (one ban row each, permanent), hides their published and flagged posts
// (each with a hide record naming the purge, as a ban that removes content
// writes one), ends their sessions and edit locks as a ban does, and
// creates the blocks. Call it inside a change.
func (s Sanctions) PurgeUsers(ctx context.Context, in PurgeInput) (*Purged, error) {
	db, now := s.db(ctx), s.now()
	out := &Purged{Purge: Purge{CreatedAt: now, UndoUntil: now.Add(UndoWindow), Reason: in.Reason}}
	if in.AdminID != 0 {
		out.Purge.CreatedBy = &in.AdminID
	}
	if _, err := db.NewInsert().Model(&out.Purge).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("record purge: %w", err)
	}
	id := out.Purge.ID
	if len(in.Ban) > 0 {
		if err := s.purgeAccounts(ctx, db, id, in, now, out); err != nil {
			return nil, err
		}
	}
	for _, b := range in.Blocks {
		if err := s.Blocklist.CreateBlock(ctx, b); err != nil {
			return nil, err
		}
		pb := &PurgeBlock{PurgeID: id, BlockID: b.ID, Kind: b.Kind, Value: b.Value}
		if _, err := db.NewInsert().Model(pb).Exec(ctx); err != nil {
			return nil, fmt.Errorf("record purge %d's block: %w", id, err)
		}
		out.Blocks = append(out.Blocks, *b)
	}
	return out, nil
}

// purgeAccounts is PurgeUsers' part on the accounts of in.Ban.
func (s Sanctions) purgeAccounts(ctx context.Context, db bun.IDB, id int64, in PurgeInput, now time.Time, out *Purged) error {
	ids := bun.In(in.Ban)
	steps := []struct {
		what  string
		query string
		args  []any
	}{
		{"record accounts", `INSERT INTO purge_accounts (purge_id, user_id, username, status_before, is_active_before, updated_at_before)
			SELECT ?, u.id, u.username, u.status, u.is_active, u.updated_at FROM users AS u WHERE u.id IN (?)`, []any{id, ids}},
		{"record posts", `INSERT INTO purge_posts (purge_id, post_id, user_id, status_before, updated_at_before)
			SELECT ?, p.id, p.author_id, p.status, p.updated_at FROM posts AS p WHERE p.author_id IN (?) AND p.status IN (?)`,
			[]any{id, ids, bun.In(shownStatuses)}},
		{"ban", `INSERT INTO bans (user_id, reason, notes, created_by, created_at)
			SELECT u.id, ?, '', ?, ? FROM users AS u WHERE u.id IN (?)`, []any{in.Reason, nullID(in.AdminID), now, ids}},
		{"note bans", `UPDATE purge_accounts SET ban_id = (SELECT max(b.id) FROM bans AS b WHERE b.user_id = purge_accounts.user_id),
			hidden_posts = (SELECT count(*) FROM purge_posts AS pp WHERE pp.purge_id = purge_accounts.purge_id AND pp.user_id = purge_accounts.user_id)
			WHERE purge_id = ?`, []any{id}},
		{"ban accounts", `UPDATE users SET status = ?, is_active = ?, updated_at = ? WHERE id IN (?)`, []any{UserBanned, true, now, ids}},
		{"record hides", `INSERT INTO moderation_actions (post_id, post_title, admin_id, action, reason, notes, from_status, to_status, created_at, author_id, purge_id)
			SELECT p.id, p.title, ?, 'hide', ?, 'hidden with the author''s purge', p.status, ?, ?, p.author_id, ?
			FROM purge_posts AS pp JOIN posts AS p ON p.id = pp.post_id WHERE pp.purge_id = ?`,
			[]any{nullID(in.AdminID), in.Reason, PostHidden, now, id, id}},
		{"hide posts", `UPDATE posts SET status = ?, updated_at = ? WHERE id IN (SELECT pp.post_id FROM purge_posts AS pp WHERE pp.purge_id = ?)`,
			[]any{PostHidden, now, id}},
	}
	for _, st := range steps {
		res, err := db.NewRaw(st.query, st.args...).Exec(ctx)
		if err != nil {
			return fmt.Errorf("purge %d: %s: %w", id, st.what, err)
		}
		if st.what == "hide posts" {
			n, _ := res.RowsAffected()
			out.Posts = int(n)
		}
	}
	n, err := s.endSessions(ctx, "user_id IN (?)", ids)
	if err != nil {
		return fmt.Errorf("purge %d: end sessions: %w", id, err)
	}
	out.Sessions = n
	if err := endLocksOf(ctx, db, "?", ids); err != nil {
		return err
	}
	return db.NewSelect().Model(&out.Accounts).Where("pa.purge_id = ?", id).OrderExpr("pa.user_id").Scan(ctx)
}

// PurgeRecord is a purge as its page shows it: who made it, its accounts
// and its blocks.
type PurgeRecord struct {
	Purge
	CreatedByName string
	Accounts      []PurgeAccount // in user id order
	Blocks        []PurgeBlock
}

// PurgeByID reads purge id; an unknown id is ErrNotFound.
func (s Sanctions) PurgeByID(ctx context.Context, id int64) (*PurgeRecord, error) {
	db := s.db(ctx)
	out := new(PurgeRecord)
	if err := db.NewSelect().Model(&out.Purge).Where("pu.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "purge")
	}
	if out.CreatedBy != nil {
		err := db.NewSelect().Model((*User)(nil)).Column("username").Where("id = ?", *out.CreatedBy).Scan(ctx, &out.CreatedByName)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	if err := db.NewSelect().Model(&out.Accounts).Where("pa.purge_id = ?", id).OrderExpr("pa.user_id").Scan(ctx); err != nil {
		return nil, err
	}
	if err := db.NewSelect().Model(&out.Blocks).Where("pb.purge_id = ?", id).OrderExpr("pb.block_id").Scan(ctx); err != nil {
		return nil, err
	}
	if out.Accounts == nil {
		out.Accounts = []PurgeAccount{}
	}
	if out.Blocks == nil {
		out.Blocks = []PurgeBlock{}
	}
	return out, nil
}

// The refusals of UndoPurge.
var (
	// ErrPurgeUndoOver is an undo after the purge's UndoWindow.
	ErrPurgeUndoOver = errors.New("the purge's time to undo is over")
	// ErrPurgeUndone is an undo of a purge (or accounts of one) undone
	// already.
	ErrPurgeUndone = errors.New("already undone")
)

// NotInPurgeError names the accounts an undo named that the purge did
// not ban. It unwraps to ErrNotFound.
type NotInPurgeError struct{ IDs []int64 }

func (e *NotInPurgeError) Error() string {
	return fmt.Sprintf("the purge banned no account of ids %v", e.IDs)
}

func (e *NotInPurgeError) Unwrap() error { return ErrNotFound }

// PurgeUndone is what an undo did.
type PurgeUndone struct {
	Purge *PurgeRecord // as it is after the undo
	// Accounts are the accounts undone, as recorded before the undo;
	// Restored the ids of those put back (the others' ban had been ended
	// or replaced by someone since, so they were left alone).
	Accounts []PurgeAccount
	Restored []int64
	// Posts is how many posts got their status back; PostsLeft how many
	// were left as someone made them since.
	Posts, PostsLeft int
	// Blocks are the purge's blocks removed: once its last account is
	// undone, each block it created that is still there.
	Blocks []PurgeBlock
}

// UndoPurge undoes purge id for the accounts of userIDs (all it has not
// undone yet when empty), within UndoWindow of the purge. For each
// account whose ban is still the purge's, in force, its status fields
// get their values back and the ban row goes; one whose ban someone
// ended or replaced since is left as it is. A post gets its status
// (and time of change) back when the purge's hide is still its latest
// decision and it is still hidden, and the hide record goes; a post
// someone decided on since is left alone. Once every account is undone,
// the blocks the purge created that are still there are removed.
// Sessions the purge ended stay ended. Call it inside a change.
func (s Sanctions) UndoPurge(ctx context.Context, id int64, userIDs []int64) (*PurgeUndone, error) {
	db, now := s.db(ctx), s.now()
	rec, err := s.PurgeByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if now.After(rec.UndoUntil) {
		return nil, fmt.Errorf("purge %d: %w", id, ErrPurgeUndoOver)
	}
	todo, err := undoTargets(rec, userIDs)
	if err != nil {
		return nil, err
	}
	out := &PurgeUndone{Accounts: todo, Restored: []int64{}, Blocks: []PurgeBlock{}}
	ids := make([]int64, len(todo))
	for i, a := range todo {
		ids[i] = a.UserID
	}
	res, err := db.NewUpdate().Model((*PurgeAccount)(nil)).Set("undone_at = ?", now).
		Where("purge_id = ? AND user_id IN (?) AND undone_at IS NULL", id, bun.In(ids)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("undo purge %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); int(n) != len(ids) {
		return nil, fmt.Errorf("undo purge %d: %w", id, ErrConflict) // another undo of the same accounts got there first
	}
	if err := s.restoreAccounts(ctx, db, id, ids, out); err != nil {
		return nil, err
	}
	if err := s.restorePosts(ctx, db, id, ids, out); err != nil {
		return nil, err
	}
	if err := s.finishUndo(ctx, db, rec, len(ids), now, out); err != nil {
		return nil, err
	}
	out.Purge, err = s.PurgeByID(ctx, id)
	return out, err
}

// undoTargets are the accounts of rec an undo of userIDs acts on.
func undoTargets(rec *PurgeRecord, userIDs []int64) ([]PurgeAccount, error) {
	var todo []PurgeAccount
	var missing []int64
	for _, uid := range userIDs {
		i := slices.IndexFunc(rec.Accounts, func(a PurgeAccount) bool { return a.UserID == uid })
		switch {
		case i < 0:
			missing = append(missing, uid)
		case rec.Accounts[i].UndoneAt == nil:
			todo = append(todo, rec.Accounts[i])
		}
	}
	if len(missing) > 0 {
		return nil, &NotInPurgeError{IDs: missing}
	}
	if len(userIDs) == 0 {
		for _, a := range rec.Accounts {
			if a.UndoneAt == nil {
				todo = append(todo, a)
			}
		}
	}
	if len(todo) == 0 {
		return nil, fmt.Errorf("purge %d: %w", rec.ID, ErrPurgeUndone)
	}
	slices.SortFunc(todo, func(a, b PurgeAccount) int { return int(a.UserID - b.UserID) })
	return todo, nil
}

// restoreAccounts puts back the accounts of ids whose ban is still the
// purge's, in force and the latest, and removes that ban.
func (s Sanctions) restoreAccounts(ctx context.Context, db bun.IDB, id int64, ids []int64, out *PurgeUndone) error {
	var back []struct {
		UserID int64 `bun:"user_id"`
		BanID  int64 `bun:"ban_id"`
	}
	err := db.NewRaw(`SELECT pa.user_id, pa.ban_id FROM purge_accounts AS pa
		JOIN users AS u ON u.id = pa.user_id JOIN bans AS b ON b.id = pa.ban_id
		WHERE pa.purge_id = ? AND pa.user_id IN (?) AND u.status = ? AND b.ended_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM bans AS later WHERE later.user_id = pa.user_id AND later.id > b.id)
		ORDER BY pa.user_id`, id, bun.In(ids), UserBanned).Scan(ctx, &back)
	if err != nil {
		return fmt.Errorf("undo purge %d: accounts: %w", id, err)
	}
	if len(back) == 0 {
		return nil
	}
	users, bans := make([]int64, len(back)), make([]int64, len(back))
	for i, b := range back {
		users[i], bans[i] = b.UserID, b.BanID
	}
	out.Restored = users
	before := func(col string) string {
		return "(SELECT pa." + col + " FROM purge_accounts AS pa WHERE pa.purge_id = ? AND pa.user_id = users.id)"
	}
	_, err = db.NewRaw(`UPDATE users SET status = `+before("status_before")+`, is_active = `+before("is_active_before")+
		`, updated_at = `+before("updated_at_before")+` WHERE id IN (?)`, id, id, id, bun.In(users)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("undo purge %d: restore accounts: %w", id, err)
	}
	if _, err := db.NewDelete().Model((*Ban)(nil)).Where("id IN (?)", bun.In(bans)).Exec(ctx); err != nil {
		return fmt.Errorf("undo purge %d: remove bans: %w", id, err)
	}
	_, err = db.NewUpdate().Model((*PurgeAccount)(nil)).Set("restored = ?", true).
		Where("purge_id = ? AND user_id IN (?)", id, bun.In(users)).Exec(ctx)
	return err
}

// restorePosts gives the posts the purge hid of the accounts of ids their
// status back, where the purge's hide is still their latest decision and
// they are still hidden, and removes those hide records.
func (s Sanctions) restorePosts(ctx context.Context, db bun.IDB, id int64, ids []int64, out *PurgeUndone) error {
	var posts []int64
	err := db.NewRaw(`SELECT pp.post_id FROM purge_posts AS pp
		JOIN posts AS p ON p.id = pp.post_id
		JOIN moderation_actions AS ma ON ma.purge_id = pp.purge_id AND ma.post_id = pp.post_id
		WHERE pp.purge_id = ? AND pp.user_id IN (?) AND p.status = ?
		AND NOT EXISTS (SELECT 1 FROM moderation_actions AS later WHERE later.post_id = pp.post_id AND later.id > ma.id)`,
		id, bun.In(ids), PostHidden).Scan(ctx, &posts)
	if err != nil {
		return fmt.Errorf("undo purge %d: posts: %w", id, err)
	}
	var hid int
	err = db.NewSelect().Model((*PurgeAccount)(nil)).ColumnExpr("coalesce(sum(hidden_posts), 0)").
		Where("purge_id = ? AND user_id IN (?)", id, bun.In(ids)).Scan(ctx, &hid)
	if err != nil {
		return err
	}
	out.Posts, out.PostsLeft = len(posts), hid-len(posts)
	if len(posts) == 0 {
		return nil
	}
	before := func(col string) string {
		return "(SELECT pp." + col + " FROM purge_posts AS pp WHERE pp.purge_id = ? AND pp.post_id = posts.id)"
	}
	_, err = db.NewRaw(`UPDATE posts SET status = `+before("status_before")+`, updated_at = `+before("updated_at_before")+
		` WHERE id IN (?)`, id, id, bun.In(posts)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("undo purge %d: restore posts: %w", id, err)
	}
	_, err = db.NewRaw(`DELETE FROM moderation_actions WHERE purge_id = ? AND post_id IN (?)`, id, bun.In(posts)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("undo purge %d: remove hide records: %w", id, err)
	}
	_, err = db.NewRaw(`UPDATE purge_accounts SET restored_posts = (SELECT count(*) FROM purge_posts AS pp
		WHERE pp.purge_id = purge_accounts.purge_id AND pp.user_id = purge_accounts.user_id AND pp.post_id IN (?))
		WHERE purge_id = ? AND user_id IN (?)`, bun.In(posts), id, bun.In(ids)).Exec(ctx)
	return err
}

// finishUndo closes the purge once its last account is undone: the
// blocks it created that are still there (same id, kind and value) are
// removed.
func (s Sanctions) finishUndo(ctx context.Context, db bun.IDB, rec *PurgeRecord, undone int, now time.Time, out *PurgeUndone) error {
	left := 0
	for _, a := range rec.Accounts {
		if a.UndoneAt == nil {
			left++
		}
	}
	if left > undone {
		return nil
	}
	if _, err := db.NewUpdate().Model((*Purge)(nil)).Set("undone_at = ?", now).Where("id = ?", rec.ID).Exec(ctx); err != nil {
		return err
	}
	for _, pb := range rec.Blocks {
		res, err := db.NewDelete().Model((*Block)(nil)).Where("id = ? AND kind = ? AND value = ?", pb.BlockID, pb.Kind, pb.Value).Exec(ctx)
		if err != nil {
			return fmt.Errorf("undo purge %d: remove block %d: %w", rec.ID, pb.BlockID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // removed by someone since
		}
		_, err = db.NewUpdate().Model((*PurgeBlock)(nil)).Set("removed_at = ?", now).
			Where("purge_id = ? AND block_id = ?", rec.ID, pb.BlockID).Exec(ctx)
		if err != nil {
			return err
		}
		pb.RemovedAt = &now
		out.Blocks = append(out.Blocks, pb)
	}
	return nil
}
