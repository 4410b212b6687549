package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Application states.
const (
	ApplicationPending  = "pending"
	ApplicationApproved = "approved"
	ApplicationRejected = "rejected"
)

// Application is an account opened while sign-ups needed approval: the
// account stays inactive until staff approve it. Why names what made it
// one: the mode, or a block on the network or email domain.
type Application struct {
	bun.BaseModel `bun:"table:applications,alias:ap"`

	UserID    int64      `bun:",pk"`
	Answer    string     `bun:",notnull"`
	Why       string     `bun:",notnull"`
	Status    string     `bun:",notnull"`
	Reason    string     `bun:",notnull"`
	DecidedBy *int64     `bun:""`
	DecidedAt *time.Time `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
}

// OpenApplication records the application of the account userID, pending.
// Call it inside the change that opens the account.
func (s Users) OpenApplication(ctx context.Context, userID int64, answer, why string) error {
	row := &Application{UserID: userID, Answer: answer, Why: why, Status: ApplicationPending, CreatedAt: s.now()}
	if _, err := s.db(ctx).NewInsert().Model(row).Exec(ctx); err != nil {
		return fmt.Errorf("open application: %w", err)
	}
	return nil
}

// ApplicationOf reads the application of userID; sql.ErrNoRows when the
// account opened without one.
func (s Users) ApplicationOf(ctx context.Context, userID int64) (*Application, error) {
	row := new(Application)
	err := s.db(ctx).NewSelect().Model(row).Where("ap.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, err
	}
	return row, nil
}
