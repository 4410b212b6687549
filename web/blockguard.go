package web

import (
	"context"
	"time"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/internal/clientnet"
)

// BlockRuleStore reads the blocks in force.
type BlockRuleStore interface {
	BlockRules(ctx context.Context) ([]blocks.Block, error)
}

// BlockGuard is the pipeline's block check: it answers whether an address or an email's domain is blocked,
// from the instance's cache of the list (blocks.Cache): once loaded, a
// check costs no query.
type BlockGuard struct {
	Store BlockRuleStore
	Cache *blocks.Cache
	Now   func() time.Time
	// IPv6Prefix is the length of the network an IPv6 client is refused
	// by (RATE_LIMIT_IPV6_PREFIX; 0: clientnet's default).
	IPv6Prefix int
}

func (b BlockGuard) matcher(ctx context.Context) (*blocks.Matcher, error) {
	return b.Cache.Get(func() ([]blocks.Block, error) { return b.Store.BlockRules(ctx) })
}

// RefuseIP is api.ErrIPBlocked when a block of all access overlaps ip's network: one
// that covers ip, or, for IPv6, one inside the /64 ip belongs to
// (blocks.Matcher.NetworkBlocked).
func (b BlockGuard) RefuseIP(ctx context.Context, ip string) error {
	m, err := b.matcher(ctx)
	if err != nil {
		return err
	}
	if m.NetworkBlocked(clientnet.Parse(ip, b.IPv6Prefix), b.Now()) {
		return api.ErrIPBlocked
	}
	return nil
}

// EmailBlocked reports whether a block covers the email's domain.
func (b BlockGuard) EmailBlocked(ctx context.Context, email string) (bool, error) {
	m, err := b.matcher(ctx)
	if err != nil {
		return false, err
	}
	return m.EmailBlocked(email, b.Now()), nil
}

// SignUpSeverities are the strongest severities of the blocks on ip's
// network (as RefuseIP matches it) and on email's domain; "" where none
// applies.
func (b BlockGuard) SignUpSeverities(ctx context.Context, ip, email string) (network, domain string, err error) {
	m, err := b.matcher(ctx)
	if err != nil {
		return "", "", err
	}
	now := b.Now()
	return m.NetworkSeverity(clientnet.Parse(ip, b.IPv6Prefix), now), m.EmailSeverity(email, now), nil
}
