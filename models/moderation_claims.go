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

// ClaimPost claims the post for userID until ClaimLease from now, or
// renews userID's claim. While another moderator's claim holds, it is
// *LockedError naming them. Call it inside a change; the queue hears of
// the claim once the change commits.
func (s Desk) ClaimPost(ctx context.Context, postID, userID int64) (*Claim, error) {
	db, now := s.db(ctx), s.now()
	// One statement takes a free or expired claim, or renews one's own, so
	// that two moderators claiming at once cannot both win.
	_, err := db.NewRaw(`INSERT INTO moderation_claims (post_id, user_id, claimed_at, expires_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (post_id) DO UPDATE SET
			claimed_at = CASE WHEN moderation_claims.user_id = excluded.user_id AND moderation_claims.expires_at > excluded.claimed_at THEN moderation_claims.claimed_at ELSE excluded.claimed_at END,
			user_id = excluded.user_id, expires_at = excluded.expires_at
		WHERE moderation_claims.user_id = excluded.user_id OR moderation_claims.expires_at <= excluded.claimed_at`,
		postID, userID, now, now.Add(ClaimLease)).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("claim post %d: %w", postID, err)
	}
	c, err := s.claimOf(ctx, postID)
	if err != nil {
		return nil, err
	}
	if c.UserID != userID {
		return nil, &LockedError{ByUserID: c.UserID, By: c.Username, At: c.ClaimedAt}
	}
	return c, nil
}

// ReleaseClaim ends userID's claim on the post and reports whether there
// was one; another moderator's claim stays. Call it inside a change.
func (s Desk) ReleaseClaim(ctx context.Context, postID, userID int64) (bool, error) {
	db := s.db(ctx)
	res, err := db.NewDelete().Model((*Claim)(nil)).Where("post_id = ? AND user_id = ?", postID, userID).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("release post %d: %w", postID, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// PostClaims are the claims that hold now on the posts of ids, by post.
func (s Desk) PostClaims(ctx context.Context, ids []int64) (map[int64]Claim, error) {
	out := map[int64]Claim{}
	if len(ids) == 0 {
		return out, nil
	}
	var cs []Claim
	err := s.db(ctx).NewSelect().Model(&cs).ColumnExpr("mc.*").ColumnExpr("u.username").
		Join("JOIN users AS u ON u.id = mc.user_id").
		Where("mc.post_id IN (?) AND mc.expires_at > ?", bun.In(ids), s.now()).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("claims of posts: %w", err)
	}
	for _, c := range cs {
		out[c.PostID] = c
	}
	return out, nil
}

func (s *Store) claimOf(ctx context.Context, postID int64) (*Claim, error) {
	var c Claim
	err := s.db(ctx).NewSelect().Model(&c).ColumnExpr("mc.*").ColumnExpr("u.username").
		Join("JOIN users AS u ON u.id = mc.user_id").Where("mc.post_id = ?", postID).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "claim")
	}
	return &c, nil
}
