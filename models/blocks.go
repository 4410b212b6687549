package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/blocks"
)

// Block refuses an address range or an email domain (blocks.KindIP,
// blocks.KindEmailDomain) what its Severity says (blocks.SeverityAll and
// the others); Value is normalised (blocks.Normalize).
type Block struct {
	bun.BaseModel `bun:"table:blocks,alias:bl"`

	ID        int64      `bun:",pk,autoincrement"`
	Kind      string     `bun:",notnull"`
	Value     string     `bun:",notnull"`
	Reason    string     `bun:",notnull"`
	Severity  string     `bun:",notnull"`
	CreatedBy *int64     `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
	ExpiresAt *time.Time `bun:""`
}

// Rule is the block as the matcher takes it.
func (b *Block) Rule() blocks.Block {
	r := blocks.Block{Kind: b.Kind, Value: b.Value, Severity: b.Severity}
	if b.ExpiresAt != nil {
		r.ExpiresAt = *b.ExpiresAt
	}
	return r
}

// DuplicateBlockError says that the kind and value are blocked already,
// by block ID. It unwraps to ErrConflict.
type DuplicateBlockError struct{ ID int64 }

func (e *DuplicateBlockError) Error() string { return fmt.Sprintf("blocked already by block %d", e.ID) }

func (e *DuplicateBlockError) Unwrap() error { return ErrConflict }

// Blocks lists blocks newest first, of one kind unless kind is empty,
// with the total.
func (s Blocklist) Blocks(ctx context.Context, kind string, limit, offset int) ([]Block, int, error) {
	rows := []Block{}
	q := s.db(ctx).NewSelect().Model(&rows).OrderExpr("bl.id DESC").Limit(int64(limit)).Offset(int64(offset))
	if kind != "" {
		q.Where("bl.kind = ?", kind)
	}
	total, err := q.ScanAndCount(ctx)
	return rows, int(total), err
}

// BlockRules are the blocks in force now, for the matcher.
func (s Blocklist) BlockRules(ctx context.Context) ([]blocks.Block, error) {
	var rows []Block
	err := s.db(ctx).NewSelect().Model(&rows).Column("kind", "value", "severity", "expires_at").
		Where("bl.expires_at IS NULL OR bl.expires_at > ?", s.now()).Scan(ctx)
	out := make([]blocks.Block, len(rows))
	for i := range rows {
		out[i] = rows[i].Rule()
	}
	return out, err
}

// CreateBlock stores b, filling its id and creation time. A kind and
// value blocked already is a *DuplicateBlockError. Call it inside a change.
func (s Blocklist) CreateBlock(ctx context.Context, b *Block) error {
	if b.Severity == "" {
		b.Severity = blocks.DefaultSeverity(b.Kind)
	}
	db := s.db(ctx)
	var held Block
	err := db.NewSelect().Model(&held).Column("id").Where("bl.kind = ? AND bl.value = ?", b.Kind, b.Value).Scan(ctx)
	if err == nil {
		return &DuplicateBlockError{ID: held.ID}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	b.CreatedAt = s.now()
	if _, err := db.NewInsert().Model(b).Returning("id").Exec(ctx); err != nil {
		if IsUniqueViolation(err) {
			return fmt.Errorf("block %s %s: %w", b.Kind, b.Value, ErrConflict)
		}
		return err
	}
	return nil
}

// HeldBlock is the id of the block of kind and value, nil when none holds
// them.
func (s Blocklist) HeldBlock(ctx context.Context, kind, value string) (*int64, error) {
	var held Block
	err := s.db(ctx).NewSelect().Model(&held).Column("id").Where("bl.kind = ? AND bl.value = ?", kind, value).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &held.ID, nil
}

// DeleteBlock removes block id and returns it; an unknown id is
// ErrNotFound. Call it inside a change.
func (s Blocklist) DeleteBlock(ctx context.Context, id int64) (*Block, error) {
	b := new(Block)
	if err := s.db(ctx).NewSelect().Model(b).Where("bl.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "block")
	}
	res, err := s.db(ctx).NewDelete().Model((*Block)(nil)).Where("id = ?", id).Exec(ctx)
	return b, oneRow(res, err, "block")
}

// ExpiredBlockKept is how long an expired block stays listed, so that an
// admin can see what just stopped applying, before the sweep deletes it.
const ExpiredBlockKept = 30 * 24 * time.Hour

// DeleteExpiredBlocks removes blocks expired for longer than
// ExpiredBlockKept, for the periodic sweep. They stopped applying when
// they expired; this only tidies the list.
func (s Blocklist) DeleteExpiredBlocks(ctx context.Context) (int64, error) {
	res, err := s.DB.NewDelete().Model((*Block)(nil)).Where("expires_at <= ?", s.now().Add(-ExpiredBlockKept)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// StaffAddress is an address a staff member (moderator and up) signed in
// from or has a session at, with that person's highest role.
type StaffAddress struct {
	UserID  int64
	TopRole string
	IP      string
}

// StaffAddresses lists the addresses staff members signed in from or hold
// a session at, so that a block's maker can be held to rank over whoever
// it would lock out. Staff are few, and so are their addresses.
func (s Blocklist) StaffAddresses(ctx context.Context) ([]StaffAddress, error) {
	db := s.db(ctx)
	var out []StaffAddress
	err := db.NewRaw(`SELECT DISTINCT a.user_id, (?) AS top_role, a.ip FROM (
		SELECT l.user_id, l.ip_address AS ip FROM logins AS l
		UNION SELECT se.user_id, se.ip FROM sessions AS se WHERE se.user_id IS NOT NULL AND se.ip IS NOT NULL
	) AS a JOIN users AS u ON u.id = a.user_id
	WHERE EXISTS (SELECT 1 FROM user_roles AS sr JOIN roles AS rr ON rr.id = sr.role_id WHERE sr.user_id = u.id AND rr.name <> ?)`,
		topRole(db), RoleUser).Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("staff addresses: %w", err)
	}
	return out, nil
}
