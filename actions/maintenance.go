package actions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// MaintenanceScopes are each maintenance action's scopes; the first is
// the default.
var MaintenanceScopes = map[string][]string{
	"cache_clear":     {"all", "sessions", "previews", "queries"},
	"rebuild_search":  {"all", "users", "posts"},
	"cleanup_uploads": {"all", "avatars", "attachments"},
	"backup_database": {"all"},
}

// MaintenanceInput is a maintenance job to queue: its action and scope
// (empty: the action's default).
type MaintenanceInput struct {
	Action string
	Scope  string
	Notify bool
	// KeepSession is the caller's session, which a job that signs
	// everyone out spares ("" from the command line).
	KeepSession string
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

// check is the one validation of a maintenance request: a known action,
// and one of its scopes (the first when none is given).
func (in *MaintenanceInput) check() error {
	scopes, ok := MaintenanceScopes[in.Action]
	if !ok {
		return &InvalidError{Field: "action", Code: "invalid_enum_value",
			Reason: "action must be cache_clear, rebuild_search, cleanup_uploads or backup_database"}
	}
	if in.Scope == "" {
		in.Scope = scopes[0]
	}
	if !slices.Contains(scopes, in.Scope) {
		return &InvalidError{Field: "scope", Code: "invalid_enum_value", Reason: "the scopes of " + in.Action + " are " + strings.Join(scopes, ", ")}
	}
	return nil
}

// endsSessions reports whether the job signs other people out (clearing
// every cache).
func (in *MaintenanceInput) endsSessions() bool {
	return in.Action == "cache_clear" && in.Scope == "all"
}

// QueueMaintenance queues a maintenance job, with its audit entry in the
// same commit, and returns it. Another job of the action queued or
// running is a *models.BusyError.
func (a *Actions) QueueMaintenance(ctx context.Context, who *access.Principal, in MaintenanceInput) (*models.MaintenanceJob, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	j := &models.MaintenanceJob{ID: uuid.NewString(), Action: in.Action, Scope: in.Scope, Notify: in.Notify}
	if id := callerID(who); id != 0 {
		j.QueuedBy = &id
	}
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.QueueMaintenance, policy.Platform); err != nil {
			return err
		}
		if in.endsSessions() {
			if err := a.checkSignOuts(ctx, in); err != nil {
				return err
			}
		}
		if err := a.Store.Maintenance.QueueMaintenance(ctx, j, in.KeepSession); err != nil {
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
	sessions, people, err := a.Store.Auth.OtherLiveSessions(ctx, in.KeepSession)
	if err != nil {
		return err
	}
	if in.Confirm != nil && *in.Confirm == sessions {
		return nil
	}
	return &SignOutsError{Sessions: sessions, People: people, Given: in.Confirm}
}
