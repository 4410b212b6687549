package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ClaimLease is how long a claim on a post lasts unless its holder renews
// it: long enough to read a post and its reports, short enough that a
// moderator who walked away does not keep others off it for long.
const ClaimLease = 5 * time.Minute

// Claim is a moderator's claim on a post of the queue: "Ana is reviewing".
type Claim struct {
	bun.BaseModel `bun:"table:moderation_claims,alias:mc"`

	PostID    int64     `bun:",pk"`
	UserID    int64     `bun:",notnull"`
	ClaimedAt time.Time `bun:",notnull"`
	ExpiresAt time.Time `bun:",notnull"`
	Username  string    `bun:",scanonly"`
}

// claimKind is one kind of item the desk's moderators claim: its table of
// claims and the column naming the item.
type claimKind struct{ table, key, what string }

var (
	postClaims        = claimKind{table: "moderation_claims", key: "post_id", what: "post"}
	applicationClaims = claimKind{table: "application_claims", key: "application_id", what: "application"}
)

// claimRow is a claim of any kind as read.
type claimRow struct {
	ID        int64     `bun:"id"`
	UserID    int64     `bun:"user_id"`
	ClaimedAt time.Time `bun:"claimed_at"`
	ExpiresAt time.Time `bun:"expires_at"`
	Username  string    `bun:"username"`
}

func (r claimRow) claim() *Claim {
	return &Claim{PostID: r.ID, UserID: r.UserID, ClaimedAt: r.ClaimedAt, ExpiresAt: r.ExpiresAt, Username: r.Username}
}

// ClaimPost claims the post for userID until ClaimLease from now, or
// renews userID's claim. While another moderator's claim holds, it is
// *LockedError naming them. Call it inside a change; the queue hears of
// the claim once the change commits.
func (s Desk) ClaimPost(ctx context.Context, postID, userID int64) (*Claim, error) {
	r, err := s.take(ctx, postClaims, postID, userID)
	if err != nil {
		return nil, err
	}
	return r.claim(), nil
}

// ClaimApplication is ClaimPost for the application of applicant
// userID: the Claim's PostID is the application's.
func (s Desk) ClaimApplication(ctx context.Context, applicant, userID int64) (*Claim, error) {
	r, err := s.take(ctx, applicationClaims, applicant, userID)
	if err != nil {
		return nil, err
	}
	return r.claim(), nil
}

// take claims item id of kind k for userID, or renews userID's claim.
func (s Desk) take(ctx context.Context, k claimKind, id, userID int64) (*claimRow, error) {
	db, now := s.db(ctx), s.now()
	// One statement takes a free or expired claim, or renews one's own, so
	// that two moderators claiming at once cannot both win.
	t := k.table
	_, err := db.NewRaw(`INSERT INTO `+t+` (`+k.key+`, user_id, claimed_at, expires_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (`+k.key+`) DO UPDATE SET
			claimed_at = CASE WHEN `+t+`.user_id = excluded.user_id AND `+t+`.expires_at > excluded.claimed_at THEN `+t+`.claimed_at ELSE excluded.claimed_at END,
			user_id = excluded.user_id, expires_at = excluded.expires_at
		WHERE `+t+`.user_id = excluded.user_id OR `+t+`.expires_at <= excluded.claimed_at`,
		id, userID, now, now.Add(ClaimLease)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("claim %s %d: %w", k.what, id, err)
	}
	var rows []claimRow
	if err := s.claimsQuery(db, k).Where("c."+k.key+" = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("claim: %w", ErrNotFound)
	}
	if c := rows[0]; c.UserID != userID {
		return nil, &LockedError{ByUserID: c.UserID, By: c.Username, At: c.ClaimedAt}
	}
	return &rows[0], nil
}

// claimsQuery selects the claims of kind k with their holders' names.
func (s Desk) claimsQuery(db bun.IDB, k claimKind) *bun.SelectQuery {
	return db.NewSelect().TableExpr(k.table + " AS c").ColumnExpr("c." + k.key + " AS id").
		ColumnExpr("c.user_id, c.claimed_at, c.expires_at, u.username").Join("JOIN users AS u ON u.id = c.user_id")
}

// ReleaseClaim ends userID's claim on the post and reports whether there
// was one; another moderator's claim stays. Call it inside a change.
func (s Desk) ReleaseClaim(ctx context.Context, postID, userID int64) (bool, error) {
	return s.release(ctx, postClaims, postID, userID)
}

// ReleaseApplication is ReleaseClaim for the application of applicant.
func (s Desk) ReleaseApplication(ctx context.Context, applicant, userID int64) (bool, error) {
	return s.release(ctx, applicationClaims, applicant, userID)
}

func (s Desk) release(ctx context.Context, k claimKind, id, userID int64) (bool, error) {
	res, err := s.db(ctx).NewDelete().TableExpr(k.table).Where("? = ? AND user_id = ?", bun.Ident(k.key), id, userID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("release %s %d: %w", k.what, id, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// PostClaims are the claims that hold now on the posts of ids, by post.
func (s Desk) PostClaims(ctx context.Context, ids []int64) (map[int64]Claim, error) {
	return s.holding(ctx, postClaims, ids)
}

// ApplicationClaims are the claims that hold now on the applications of
// the applicants ids, by applicant.
func (s Desk) ApplicationClaims(ctx context.Context, ids []int64) (map[int64]Claim, error) {
	return s.holding(ctx, applicationClaims, ids)
}

func (s Desk) holding(ctx context.Context, k claimKind, ids []int64) (map[int64]Claim, error) {
	out := map[int64]Claim{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []claimRow
	err := s.claimsQuery(s.db(ctx), k).Where("c."+k.key+" IN (?) AND c.expires_at > ?", bun.In(ids), s.now()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("claims of %ss: %w", k.what, err)
	}
	for _, r := range rows {
		out[r.ID] = *r.claim()
	}
	return out, nil
}
