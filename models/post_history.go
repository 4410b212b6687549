package models

import (
	"context"
	"fmt"
)

// PostDecision is one moderation decision on a post, with the username
// of the staff member who took it (empty once that account is gone, or
// for an automatic rule).
type PostDecision struct {
	ModerationAction `bun:",extend"`
	AdminUsername    string `bun:",scanonly"`
}

// PostDecisions lists every moderation decision on post id, newest first:
// the post's page in the console shows them as its history.
func (s Desk) PostDecisions(ctx context.Context, id int64) ([]PostDecision, error) {
	out := []PostDecision{}
	err := s.db(ctx).NewSelect().Model(&out).ColumnExpr("ma.*").ColumnExpr("COALESCE(u.username, '') AS admin_username").
		Join("LEFT JOIN users AS u ON u.id = ma.admin_id").Where("ma.post_id = ?", id).
		OrderExpr("ma.created_at DESC, ma.id DESC").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("decisions on post %d: %w", id, err)
	}
	return out, nil
}
