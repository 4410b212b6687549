package actions

import (
	"context"
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// The limits of a purge's input (docs/api.md, "Purges").
const (
	// MaxPurgeAccounts is the most accounts one purge names.
	MaxPurgeAccounts = 500
	// MaxPurgeBlocks is the most ranges, and the most email domains, one
	// purge blocks.
	MaxPurgeBlocks = 20
	// DefaultPurgeConfirmAbove is PURGE_CONFIRM_ABOVE's default: a purge
	// banning more accounts than this needs a fresh confirmation.
	DefaultPurgeConfirmAbove = 20
)

// PurgeInput is a purge, or its preview: the accounts ticked, the
// reason their bans and hides record, and the ranges and email domains
// to block.
type PurgeInput struct {
	UserIDs []int64
	Reason  string
	// Ranges and Domains are the address ranges and email domains to
	// block, in any spelling blocks.Normalize reads.
	Ranges  []string
	Domains []string
	// BlockExpiresAt is when the blocks stop applying (nil: never).
	BlockExpiresAt *time.Time
	// CallerIP and CallerNetwork are the request's, as for CreateBlock: a
	// block covering them is refused.
	CallerIP      string
	CallerNetwork netip.Prefix
}

// check is the one validation of a purge's input, whatever the door.
func (in *PurgeInput) check() error {
	switch n := len(in.UserIDs); {
	case n == 0:
		return &InvalidError{Field: "userIds", Code: "too_small", Reason: "name at least one account"}
	case n > MaxPurgeAccounts:
		return &InvalidError{Field: "userIds", Code: "too_big", Reason: "a purge names at most " + strconv.Itoa(MaxPurgeAccounts) + " accounts"}
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if in.Reason == "" {
		return &InvalidError{Field: "reason", Code: "too_small", Reason: "a reason is required to purge"}
	}
	if utf8.RuneCountInString(in.Reason) > MaxBanReason {
		return &InvalidError{Field: "reason", Code: "too_big", Reason: "reason must be at most " + strconv.Itoa(MaxBanReason) + " characters"}
	}
	for field, list := range map[string][]string{"blockRanges": in.Ranges, "blockDomains": in.Domains} {
		if len(list) > MaxPurgeBlocks {
			return &InvalidError{Field: field, Code: "too_big", Reason: "a purge blocks at most " + strconv.Itoa(MaxPurgeBlocks) + " ranges and " + strconv.Itoa(MaxPurgeBlocks) + " domains"}
		}
	}
	return nil
}

// PurgeRefusal is an account a purge may not act on, and why: "staff"
// (a moderator or above: never in a purge), "rank" (a role the caller
// does not outrank) or "self".
type PurgeRefusal struct {
	UserID   int64
	Username string
	Reason   string
}

// PurgeRefusedError is a purge refused for the accounts it names:
// nothing changed. It unwraps to the policy's refusal of the first.
type PurgeRefusedError struct{ Refused []PurgeRefusal }

func (e *PurgeRefusedError) Error() string {
	names := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		names[i] = r.Username + " (" + r.Reason + ")"
	}
	return "a purge may not include " + strings.Join(names, ", ")
}

func (e *PurgeRefusedError) Unwrap() error {
	return map[string]error{"staff": policy.ErrStaffTarget, "self": policy.ErrSelf}[e.Refused[0].Reason]
}

// PlannedBlock is a block a purge asks for: Held names the block that
// holds its kind and value already (nothing to create).
type PlannedBlock struct {
	Block *models.Block
	Held  *int64
}

// PurgePreview is what a purge would change: the accounts it would ban
// and those it skips, the posts it would hide, the sessions it would
// end, the blocks it would create, and the accounts it refuses.
type PurgePreview struct {
	Plan   *models.PurgePlan
	Blocks []PlannedBlock
	// Refused lists the accounts that stop the purge; a purge with any
	// changes nothing.
	Refused []PurgeRefusal
	// NeedsConfirmation says the purge bans more than ConfirmAbove
	// accounts, so that a session must have confirmed within 10 minutes.
	NeedsConfirmation bool
	ConfirmAbove      int
}

// PreviewPurge counts exactly what Purge would change now for in, from
// the same reads, and lists the accounts it would refuse. It changes
// nothing.
func (a *Actions) PreviewPurge(ctx context.Context, who *access.Principal, in PurgeInput) (*PurgePreview, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var out *PurgePreview
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.PreviewPurge, policy.Platform); err != nil {
			return err
		}
		var err error
		out, err = a.planPurge(ctx, who, in)
		return err
	})
	return out, err
}

// planPurge reads the purge in asks for: every account must exist; the
// refusals are listed, not returned.
func (a *Actions) planPurge(ctx context.Context, who *access.Principal, in PurgeInput) (*PurgePreview, error) {
	plan, err := a.Store.Sanctions.PlanPurge(ctx, in.UserIDs)
	if err != nil {
		return nil, err
	}
	if len(plan.Users) < len(in.UserIDs) {
		return nil, &MissingError{Kind: "user", IDs: missingIDs(in.UserIDs, plan.Users)}
	}
	out := &PurgePreview{Plan: plan, Refused: []PurgeRefusal{}, ConfirmAbove: a.PurgeConfirmAbove}
	out.NeedsConfirmation = len(plan.Ban) > a.PurgeConfirmAbove
	for i := range plan.Users {
		u := &plan.Users[i]
		err := a.Policy.Check(who, policy.PurgeUsers, person(u))
		reason := map[error]string{policy.ErrStaffTarget: "staff", policy.ErrOutranked: "rank", policy.ErrSelf: "self"}[err]
		switch {
		case err == nil:
		case reason != "":
			out.Refused = append(out.Refused, PurgeRefusal{UserID: u.ID, Username: u.Username, Reason: reason})
		default:
			return nil, err // the caller's own standing: the same for every account
		}
	}
	out.Blocks, err = a.planBlocks(ctx, who, in)
	return out, err
}

// planBlocks checks each block a purge asks for as CreateBlock does (its
// value, its width, the rank of the staff whose addresses it covers) and
// finds those held already.
func (a *Actions) planBlocks(ctx context.Context, who *access.Principal, in PurgeInput) ([]PlannedBlock, error) {
	out := []PlannedBlock{}
	seen := map[string]bool{}
	for _, list := range []struct {
		field, kind string
		values      []string
	}{{"blockRanges", blocks.KindIP, in.Ranges}, {"blockDomains", blocks.KindEmailDomain, in.Domains}} {
		for i, v := range list.values {
			b, err := a.newBlock(who, BlockInput{Kind: list.kind, Value: v, Reason: in.Reason, ExpiresAt: in.BlockExpiresAt,
				CallerIP: in.CallerIP, CallerNetwork: in.CallerNetwork})
			if err != nil {
				var ie *InvalidError
				if errors.As(err, &ie) {
					ie.Field, ie.Path = list.field, []string{list.field, strconv.Itoa(i)}
				}
				return nil, err
			}
			if seen[b.Kind+" "+b.Value] {
				continue
			}
			seen[b.Kind+" "+b.Value] = true
			if out, err = a.planBlock(ctx, who, b, out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// planBlock adds b to out after asking the policy about whom it covers,
// noting the block that holds it already.
func (a *Actions) planBlock(ctx context.Context, who *access.Principal, b *models.Block, out []PlannedBlock) ([]PlannedBlock, error) {
	t, err := a.blockTarget(ctx, who, b)
	if err != nil {
		return nil, err
	}
	if err := a.Policy.Check(who, policy.CreateBlock, t); err != nil {
		return nil, err
	}
	held, err := a.Store.Blocklist.HeldBlock(ctx, b.Kind, b.Value)
	if err != nil {
		return nil, err
	}
	return append(out, PlannedBlock{Block: b, Held: held}), nil
}

// PurgeResult is what a purge did, and the preview it carried out.
type PurgeResult struct {
	Preview *PurgePreview
	Purged  *models.Purged
}

// Purge bans the accounts in names that are not banned already, hides
// their published and flagged posts, ends their sessions and blocks the
// ranges and domains asked for, in one change with one audit entry
// (users.purge) keeping each account's before and after, and one
// user.banned webhook per account banned. Every account is asked as the
// target of a ban, and none may be staff: a refusal names every account
// refused, and nothing changes. A purge banning more than
// PurgeConfirmAbove accounts needs a fresh confirmation.
func (a *Actions) Purge(ctx context.Context, who *access.Principal, in PurgeInput) (*PurgeResult, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var out PurgeResult
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		p, err := a.planPurge(ctx, who, in)
		if err != nil {
			return err
		}
		if len(p.Refused) > 0 {
			return &PurgeRefusedError{Refused: p.Refused}
		}
		if p.NeedsConfirmation {
			if err := a.Policy.ConfirmedRecently(who); err != nil {
				return err
			}
		}
		keys := make([]string, len(in.UserIDs))
		for i, id := range in.UserIDs {
			keys[i] = itoa(id)
		}
		if err := a.Store.Desk.CheckLocks(ctx, "user", keys, callerID(who)); err != nil {
			return err
		}
		mi := models.PurgeInput{AdminID: callerID(who), Reason: in.Reason, Ban: p.Plan.Ban}
		for _, b := range p.Blocks {
			if b.Held == nil {
				mi.Blocks = append(mi.Blocks, b.Block)
			}
		}
		out.Preview = p
		if out.Purged, err = a.Store.Sanctions.PurgeUsers(ctx, mi); err != nil {
			return err
		}
		if err := a.emitPurgeBans(ctx, who, in.Reason, out.Purged); err != nil {
			return err
		}
		audit.Target(ctx, "purge", itoa(out.Purged.Purge.ID), purgeDetails(p, out.Purged))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// emitPurgeBans queues one user.banned message per account the purge
// banned, as the ban action does, naming the purge.
func (a *Actions) emitPurgeBans(ctx context.Context, who *access.Principal, reason string, p *models.Purged) error {
	if len(p.Accounts) == 0 {
		return nil
	}
	if on, err := a.Store.Hooks.WebhookSubscribed(ctx, webhook.EventUserBanned); err != nil || !on {
		return err
	}
	for _, acc := range p.Accounts {
		err := a.emit(ctx, webhook.EventUserBanned, map[string]any{"userId": itoa(acc.UserID), "banId": itoa(deref64(acc.BanID)),
			"bannedBy": itoa(callerID(who)), "reason": reason, "expiresAt": nil, "purgeId": itoa(p.Purge.ID)})
		if err != nil {
			return err
		}
	}
	return nil
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// purgeDetails is the purge's audit entry: each account before and
// after, those skipped, the posts, sessions and blocks.
func purgeDetails(p *PurgePreview, done *models.Purged) map[string]any {
	before := map[int64]*models.ListedUser{}
	for i := range p.Plan.Users {
		before[p.Plan.Users[i].ID] = &p.Plan.Users[i]
	}
	users := make([]map[string]any, len(done.Accounts))
	for i, acc := range done.Accounts {
		u := before[acc.UserID]
		users[i] = map[string]any{"id": itoa(acc.UserID), "username": acc.Username, "banId": deref64(acc.BanID), "hiddenPosts": acc.HiddenPosts,
			"before": map[string]any{"status": u.Status, "isActive": u.IsActive},
			"after":  map[string]any{"status": models.UserBanned, "isActive": true}}
	}
	skipped := make([]string, len(p.Plan.Skipped))
	for i, id := range p.Plan.Skipped {
		skipped[i] = itoa(id)
	}
	blocks := make([]map[string]any, 0, len(done.Blocks))
	for i := range done.Blocks {
		f := blockFields(&done.Blocks[i])
		f["id"] = done.Blocks[i].ID
		blocks = append(blocks, f)
	}
	return map[string]any{"purgeId": done.Purge.ID, "reason": done.Purge.Reason, "count": len(done.Accounts), "users": users,
		"skipped": skipped, "hiddenPosts": done.Posts, "endedSessions": done.Sessions, "blocks": blocks,
		"undoUntil": done.Purge.UndoUntil}
}

// UndoPurge puts back what purge id did to the accounts of userIDs (every
// account not undone yet when empty), within models.UndoWindow of the
// purge (models.Sanctions.UndoPurge says exactly what comes back), with
// its audit entry (users.purge_undo). Undoing someone else's purge takes
// a role above theirs. Like an unban, it sends no webhook.
func (a *Actions) UndoPurge(ctx context.Context, who *access.Principal, id int64, userIDs []int64) (*models.PurgeUndone, error) {
	var out *models.PurgeUndone
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		rec, err := a.Store.Sanctions.PurgeByID(ctx, id)
		if err != nil {
			return err
		}
		t := policy.Platform
		if rec.CreatedBy != nil {
			maker, err := a.Store.Users.ListedUserByID(ctx, *rec.CreatedBy)
			if err != nil && !errors.Is(err, models.ErrNotFound) {
				return err
			}
			if err == nil {
				t = person(maker)
			}
		}
		if err := a.Policy.Check(who, policy.UndoPurge, t); err != nil {
			return err
		}
		out, err = a.Store.Sanctions.UndoPurge(ctx, id, userIDs)
		var nip *models.NotInPurgeError
		switch {
		case errors.Is(err, models.ErrPurgeUndoOver):
			return &InvalidError{Field: "id", Reason: "a purge can be undone for " + models.UndoWindow.String() + " after it; this one's time is over"}
		case errors.Is(err, models.ErrPurgeUndone):
			return &InvalidError{Field: "userIds", Reason: "these accounts' purge is undone already"}
		case errors.As(err, &nip):
			ids := make([]string, len(nip.IDs))
			for i, id := range nip.IDs {
				ids[i] = itoa(id)
			}
			return &MissingError{Kind: "purged account", IDs: ids}
		case err != nil:
			return err
		}
		audit.Target(ctx, "purge", itoa(id), undoDetails(out))
		return nil
	})
	return out, err
}

// undoDetails is the undo's audit entry: each account undone, before and
// after, and what came back.
func undoDetails(u *models.PurgeUndone) map[string]any {
	users := make([]map[string]any, len(u.Accounts))
	for i, acc := range u.Accounts {
		restored := false
		for _, id := range u.Restored {
			restored = restored || id == acc.UserID
		}
		after := map[string]any{"status": models.UserBanned}
		if restored {
			after = map[string]any{"status": acc.StatusBefore, "isActive": acc.IsActiveBefore}
		}
		users[i] = map[string]any{"id": itoa(acc.UserID), "username": acc.Username, "restored": restored,
			"before": map[string]any{"status": models.UserBanned}, "after": after}
	}
	blocks := make([]map[string]any, len(u.Blocks))
	for i, b := range u.Blocks {
		blocks[i] = map[string]any{"id": b.BlockID, "kind": b.Kind, "value": b.Value}
	}
	return map[string]any{"purgeId": u.Purge.ID, "count": len(u.Accounts), "users": users, "restoredPosts": u.Posts,
		"postsLeft": u.PostsLeft, "removedBlocks": blocks, "whole": u.Purge.UndoneAt != nil}
}
