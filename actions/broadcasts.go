package actions

import (
	"context"
	"strconv"
	"time"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/policy"
	"github.com/plazahq/plaza/models"
)

// BroadcastInput is a notification to many inboxes, its fields checked
// against the wire contract by the caller.
type BroadcastInput struct {
	Title, Message, Type string
	// Targets are the audience as given ("all", a role's plural, or
	// "user:<id>"), each once; Users the ids the user targets name.
	Targets []string
	Users   []int64
	// At is when it is sent (nil: now); Schedule is how the caller wrote
	// it, for the audit entry.
	At       *time.Time
	Schedule string
}

// SendBroadcast sends or schedules a broadcast by who, with its audit
// entry in the same commit: sent now, it is in every inbox of its
// audience and its webhook message is queued when this returns. A user
// target that names no user is an *InvalidError on that target.
func (a *Actions) SendBroadcast(ctx context.Context, who *auth.Principal, in BroadcastInput) (*models.Broadcast, error) {
	b := &models.Broadcast{Title: in.Title, Message: in.Message, Type: in.Type, Targets: in.Targets}
	if id := callerID(who); id != 0 {
		b.CreatedBy = &id
	}
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.SendBroadcast, policy.Platform); err != nil {
			return err
		}
		if err := a.checkAudience(ctx, in); err != nil {
			return err
		}
		if err := a.Store.SendBroadcast(ctx, b, in.At); err != nil {
			return err
		}
		audit.Target(ctx, "broadcast", itoa(b.ID), map[string]any{
			"title": b.Title, "type": b.Type, "targets": b.Targets, "schedule": in.Schedule, "recipients": b.Recipients})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// checkAudience refuses the first user target that names no user.
func (a *Actions) checkAudience(ctx context.Context, in BroadcastInput) error {
	missing, err := a.Store.MissingUsers(ctx, in.Users)
	if err != nil || len(missing) == 0 {
		return err
	}
	target := "user:" + itoa(missing[0])
	for i, given := range in.Targets {
		if given == target {
			return &InvalidError{Field: "targets." + strconv.Itoa(i), Reason: target + " names no user"}
		}
	}
	return &InvalidError{Field: "targets", Reason: target + " names no user"}
}
