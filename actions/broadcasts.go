package actions

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// Broadcast limits, Plaza's own choice.
const (
	MaxBroadcastTitle   = 200
	MaxBroadcastMessage = 5000
	MaxBroadcastTargets = 100
	// MaxBroadcastAhead is how far ahead a broadcast may be scheduled.
	MaxBroadcastAhead = 365 * 24 * time.Hour
)

// BroadcastTypes are a notification's types, mildest first; the first is
// the default.
var BroadcastTypes = []string{"info", "success", "warning", "critical"}

// BroadcastInput is a notification to many inboxes.
type BroadcastInput struct {
	Title, Message string
	Type           string // "": info
	// Targets are the audience: "all", "users", "moderators", "admins"
	// (the users whose highest role it is) or "user:<id>".
	Targets []string
	// Schedule is "immediate" (or "") or an RFC 3339 time in the future.
	Schedule string
}

// broadcast is a BroadcastInput read: its targets once each, the users
// they name, and its time (nil: now).
type broadcast struct {
	targets []string
	users   []int64
	at      *time.Time
}

// SendBroadcast sends or schedules a broadcast by who, with its audit
// entry in the same commit: sent now, it is in every inbox of its
// audience and its webhook message is queued when this returns. A user
// target that names no user is an *InvalidError on that target.
func (a *Actions) SendBroadcast(ctx context.Context, who *access.Principal, in BroadcastInput) (*models.Broadcast, error) {
	var b *models.Broadcast
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.SendBroadcast, policy.Platform); err != nil {
			return err
		}
		read, err := a.checkBroadcast(&in)
		if err != nil {
			return err
		}
		if err := a.checkAudience(ctx, read); err != nil {
			return err
		}
		b = &models.Broadcast{Title: in.Title, Message: in.Message, Type: in.Type, Targets: read.targets}
		if id := callerID(who); id != 0 {
			b.CreatedBy = &id
		}
		if err := a.Store.Notices.SendBroadcast(ctx, b, read.at); err != nil {
			return err
		}
		if b.Status == models.BroadcastSent {
			if err := broadcastSent(ctx, a.Store, b); err != nil {
				return err
			}
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

// checkBroadcast trims in's title and message, fills its defaults and
// reads it, or says what is wrong with it.
func (a *Actions) checkBroadcast(in *BroadcastInput) (broadcast, error) {
	in.Title, in.Message = strings.TrimSpace(in.Title), strings.TrimSpace(in.Message)
	in.Type = cmp.Or(in.Type, BroadcastTypes[0])
	in.Schedule = cmp.Or(in.Schedule, "immediate")
	if err := checkText("title", in.Title, 1, MaxBroadcastTitle, false); err != nil {
		return broadcast{}, err
	}
	if err := checkText("message", in.Message, 1, MaxBroadcastMessage, false); err != nil {
		return broadcast{}, err
	}
	if !slices.Contains(BroadcastTypes, in.Type) {
		return broadcast{}, &InvalidError{Field: "type", Reason: "type must be " + strings.Join(BroadcastTypes[:len(BroadcastTypes)-1], ", ") +
			" or " + BroadcastTypes[len(BroadcastTypes)-1]}
	}
	out, err := readTargets(in.Targets)
	if err != nil {
		return out, err
	}
	out.at, err = a.readSchedule(in.Schedule)
	return out, err
}

// roleTargets are the targets that name the users of a highest role.
var roleTargets = []string{"users", "moderators", "admins"}

// readTargets reads an audience: each target once, and the users named.
func readTargets(given []string) (broadcast, error) {
	var out broadcast
	switch n := len(given); {
	case n == 0:
		return out, &InvalidError{Field: "targets", Reason: `name at least one target, or "all"`}
	case n > MaxBroadcastTargets:
		return out, &InvalidError{Field: "targets", Reason: "name at most " + strconv.Itoa(MaxBroadcastTargets) + " targets"}
	}
	for i, s := range given {
		if slices.Contains(out.targets, s) {
			continue
		}
		out.targets = append(out.targets, s)
		id, isUser := strings.CutPrefix(s, "user:")
		n, err := strconv.ParseInt(id, 10, 64)
		switch {
		case s == "all" || slices.Contains(roleTargets, s):
		case isUser && err == nil && n > 0:
			out.users = append(out.users, n)
		default:
			return out, &InvalidError{Field: "targets." + strconv.Itoa(i),
				Reason: `a target is "all", "users", "moderators", "admins" or "user:<id>"`}
		}
	}
	return out, nil
}

// readSchedule reads when a broadcast is sent: nil for now.
func (a *Actions) readSchedule(s string) (*time.Time, error) {
	if s == "immediate" {
		return nil, nil
	}
	at, err := time.Parse(time.RFC3339, s)
	now := a.Now()
	switch {
	case err != nil:
		return nil, &InvalidError{Field: "schedule", Reason: `schedule is "immediate" or an RFC 3339 time`}
	case !at.After(now):
		return nil, &InvalidError{Field: "schedule", Reason: "a scheduled time must be in the future"}
	case at.Sub(now) > MaxBroadcastAhead:
		return nil, &InvalidError{Field: "schedule", Reason: "a broadcast may be scheduled at most a year ahead"}
	}
	at = at.UTC()
	return &at, nil
}

// checkAudience refuses the first user target that names no user.
func (a *Actions) checkAudience(ctx context.Context, in broadcast) error {
	missing, err := a.Store.Notices.MissingUsers(ctx, in.users)
	if err != nil || len(missing) == 0 {
		return err
	}
	target := "user:" + itoa(missing[0])
	for i, given := range in.targets {
		if given == target {
			return &InvalidError{Field: "targets." + strconv.Itoa(i), Reason: target + " names no user"}
		}
	}
	return &InvalidError{Field: "targets", Reason: target + " names no user"}
}
