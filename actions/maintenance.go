package actions

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// MaintenanceInput is a maintenance job to queue: its action and scope,
// checked against the wire contract's list by the caller.
type MaintenanceInput struct {
	Action string
	Scope  string
	Notify bool
	// EndsSessions says the job signs out every session but KeepSession
	// (the caller's, "" from the command line).
	EndsSessions bool
	KeepSession  string
	// Confirm is how many other sessions the caller agreed to end; a
	// count no longer right is a *SignOutsError. AlwaysConfirm refuses a
	// job that ends sessions without one (the console always asks).
	Confirm       *int
	AlwaysConfirm bool
}

// SignOutsError refuses a job that would sign out other sessions than the
// caller agreed to: how many sessions (of how many people) it ends now,
// and the count given (nil: none).
type SignOutsError struct {
	Sessions, People int
	Given            *int
}

func (e *SignOutsError) Error() string {
	if e.Given == nil {
		return fmt.Sprintf("this signs out %d other sessions: confirm the count first", e.Sessions)
	}
	return fmt.Sprintf("this signs out %d other sessions, not %d: send confirm %d to go ahead", e.Sessions, *e.Given, e.Sessions)
}

// QueueMaintenance queues a maintenance job, with its audit entry in the
// same commit, and returns it. Another job of the action queued or
// running is a *models.BusyError.
func (a *Actions) QueueMaintenance(ctx context.Context, who *access.Principal, in MaintenanceInput) (*models.MaintenanceJob, error) {
	j := &models.MaintenanceJob{ID: uuid.NewString(), Action: in.Action, Scope: in.Scope, Notify: in.Notify}
	if id := callerID(who); id != 0 {
		j.QueuedBy = &id
	}
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.QueueMaintenance, policy.Platform); err != nil {
			return err
		}
		if in.EndsSessions {
			if err := a.checkSignOuts(ctx, in); err != nil {
				return err
			}
		}
		if err := a.Store.QueueMaintenance(ctx, j, in.KeepSession); err != nil {
			return err
		}
		audit.Target(ctx, "job", j.ID, map[string]any{"action": j.Action, "scope": j.Scope, "notify": j.Notify})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return j, nil
}

// checkSignOuts refuses a job that ends sessions when the count the
// caller agreed to is not the count it would end.
func (a *Actions) checkSignOuts(ctx context.Context, in MaintenanceInput) error {
	if in.Confirm == nil && !in.AlwaysConfirm {
		return nil
	}
	sessions, people, err := a.Store.OtherLiveSessions(ctx, in.KeepSession)
	if err != nil {
		return err
	}
	if in.Confirm != nil && *in.Confirm == sessions {
		return nil
	}
	return &SignOutsError{Sessions: sessions, People: people, Given: in.Confirm}
}
