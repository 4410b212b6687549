package actions

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/models"
)

// BlockInput is a new block. Value may be in any spelling Normalize reads;
// the block keeps the normalised one, whichever door it came through, so
// that one range or domain is never blocked twice under two spellings.
type BlockInput struct {
	Kind   string
	Value  string
	Reason string
	// Severity is what the block refuses (blocks.Severities); empty is the
	// kind's default (blocks.DefaultSeverity).
	Severity string
	// ExpiresAt is when the block stops applying (nil: never); it must be
	// in the future.
	ExpiresAt *time.Time
	// CallerIP is the address the request came from ("" from the command
	// line), and CallerNetwork the network it is refused by
	// (clientnet.Of; its IPv6 /64): a block overlapping it is refused.
	CallerIP      string
	CallerNetwork netip.Prefix
}

// CreateBlock stores a block of an address range or an email domain, with
// its audit entry in the same commit; the instance's cache and every other
// instance's learn of it as it commits (models.Store.Changed, the change
// channel). A kind and value blocked already is *models.DuplicateBlockError.
func (a *Actions) CreateBlock(ctx context.Context, who *access.Principal, in BlockInput) (*models.Block, error) {
	var b *models.Block
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		var err error
		if b, err = a.newBlock(who, in); err != nil {
			if perr := a.Policy.Check(who, policy.CreateBlock, policy.Platform); perr != nil {
				return perr
			}
			return err
		}
		t, err := a.blockTarget(ctx, who, b)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.CreateBlock, t); err != nil {
			return err
		}
		if err := a.Store.Blocklist.CreateBlock(ctx, b); err != nil {
			return err
		}
		audit.Target(ctx, "block", itoa(b.ID), blockFields(b))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// newBlock is the block in asks for, its value normalised, or why it is
// not one.
func (a *Actions) newBlock(who *access.Principal, in BlockInput) (*models.Block, error) {
	value, err := blocks.Normalize(in.Kind, in.Value)
	if err != nil {
		field := "value"
		if errors.Is(err, blocks.ErrKind) {
			field = "kind"
		}
		return nil, &InvalidError{Field: field, Reason: err.Error()}
	}
	severity := in.Severity
	if severity == "" {
		severity = blocks.DefaultSeverity(in.Kind)
	}
	if !slices.Contains(blocks.Severities, severity) {
		return nil, &InvalidError{Field: "severity", Reason: blocks.ErrSeverity.Error()}
	}
	if in.Kind == blocks.KindEmailDomain && severity == blocks.SeverityAll {
		return nil, &InvalidError{Field: "severity", Reason: "an email domain block refuses new accounts (signup) or sends them for approval (approval); " +
			"accounts that exist already are stopped by banning them"}
	}
	if in.Kind == blocks.KindIP && severity == blocks.SeverityAll { // milder blocks lock nobody out
		if err := tooWide(value, in.CallerIP, in.CallerNetwork); err != nil {
			return nil, err
		}
	}
	if in.ExpiresAt != nil && !in.ExpiresAt.After(a.Now()) {
		return nil, &InvalidError{Field: "expiresAt", Reason: "expiresAt must be in the future"}
	}
	b := &models.Block{Kind: in.Kind, Value: value, Reason: in.Reason, Severity: severity, ExpiresAt: in.ExpiresAt}
	if id := callerID(who); id != 0 {
		b.CreatedBy = &id
	}
	return b, nil
}

// blockTarget is whom an address block acts on: of the staff members
// who signed in from, or hold a session at, an address it covers, the
// highest ranked one other than the caller (the rank rule then protects
// them); no one for a domain block or a range no staff member used.
func (a *Actions) blockTarget(ctx context.Context, who *access.Principal, b *models.Block) (policy.Target, error) {
	if b.Kind != blocks.KindIP {
		return policy.Platform, nil
	}
	p, err := blocks.ParsePrefix(b.Value)
	if err != nil {
		return policy.Target{}, &InvalidError{Field: "value", Reason: err.Error()}
	}
	addrs, err := a.Store.Blocklist.StaffAddresses(ctx)
	if err != nil {
		return policy.Target{}, err
	}
	t, best := policy.Platform, -1
	for _, sa := range addrs {
		ip, err := netip.ParseAddr(sa.IP)
		if err != nil || sa.UserID == callerID(who) || !p.Contains(ip.Unmap()) {
			continue
		}
		if r := access.RoleRank(sa.TopRole); r > best {
			t, best = policy.Person(sa.UserID, access.ImpliedRoles(sa.TopRole)), r
		}
	}
	return t, nil
}

// tooWide refuses an address block that covers every address, or the
// caller's own (or, for IPv6, any of the caller's network, which a block
// refuses whole): either locks its maker out of signing in and of every
// blockable route at once (the admin routes stay open, but the maker may
// not notice until their session ends).
func tooWide(value, callerIP string, callerNet netip.Prefix) error {
	p, err := blocks.ParsePrefix(value)
	if err != nil {
		return &InvalidError{Field: "value", Reason: err.Error()}
	}
	if p.Bits() == 0 {
		return &InvalidError{Field: "value", Reason: value + " covers every address and would lock everyone out; block a narrower range"}
	}
	ip, err := netip.ParseAddr(callerIP)
	if err != nil {
		return nil
	}
	if ip = ip.Unmap(); p.Contains(ip) {
		return &InvalidError{Field: "value", Reason: value + " covers your own address (" + ip.String() +
			") and would lock you out; block a range that leaves it out"}
	}
	if callerNet.IsValid() && p.Overlaps(callerNet) {
		return &InvalidError{Field: "value", Reason: value + " lies in your own address's network (" + callerNet.String() +
			", which a block refuses whole) and would lock you out; block a range that leaves it out"}
	}
	return nil
}

// DeleteBlock removes block id and returns it, with its audit entry in the
// same commit; an unknown id is models.ErrNotFound.
func (a *Actions) DeleteBlock(ctx context.Context, who *access.Principal, id int64) (*models.Block, error) {
	var gone *models.Block
	err := a.Store.Change(ctx, func(ctx context.Context) (err error) {
		if err := a.Policy.Check(who, policy.DeleteBlock, policy.Platform); err != nil {
			return err
		}
		if gone, err = a.Store.Blocklist.DeleteBlock(ctx, id); err != nil {
			return err
		}
		audit.Target(ctx, "block", itoa(id), map[string]any{"before": blockFields(gone)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return gone, nil
}

// blockFields are what the audit entry keeps of a block.
func blockFields(b *models.Block) map[string]any {
	return map[string]any{"kind": b.Kind, "value": b.Value, "reason": b.Reason, "severity": b.Severity, "expiresAt": stamp(b.ExpiresAt)}
}
