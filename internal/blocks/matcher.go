package blocks

import (
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Matcher answers whether an address or email is blocked, and how
// strongly. It is built once from the list and never changed, so any
// number of goroutines may use it.
type Matcher struct {
	// prefixes holds each prefix's entry by prefix length, so that a
	// lookup costs one map probe per length in use.
	prefixes map[int]map[netip.Prefix]entry
	lengths  []int
	// v6 holds the IPv6 prefixes again, sorted by address, so that the
	// blocks inside a client's network are found by a binary search.
	v6      []held
	domains map[string]entry
}

// entry is what one blocked value refuses (its severity's rank) and until
// when (zero: never).
type entry struct {
	expires time.Time
	rank    int
}

// held is a blocked prefix and its entry.
type held struct {
	p netip.Prefix
	entry
}

// NewMatcher builds a matcher over list; values that do not parse are
// skipped (the store only keeps normalised ones).
func NewMatcher(list []Block) *Matcher {
	m := &Matcher{prefixes: map[int]map[netip.Prefix]entry{}, domains: map[string]entry{}}
	for _, b := range list {
		severity := b.Severity
		if severity == "" {
			severity = DefaultSeverity(b.Kind)
		}
		e := entry{expires: b.ExpiresAt, rank: rank(severity)}
		switch b.Kind {
		case KindIP:
			p, err := ParsePrefix(b.Value)
			if err != nil {
				continue
			}
			byLen := m.prefixes[p.Bits()]
			if byLen == nil {
				byLen = map[netip.Prefix]entry{}
				m.prefixes[p.Bits()] = byLen
				m.lengths = append(m.lengths, p.Bits())
			}
			held, seen := byLen[p]
			byLen[p] = merge(held, e, seen)
			if p.Addr().Is6() {
				m.v6 = append(m.v6, heldOf(p, e))
			}
		case KindEmailDomain:
			d, err := ParseDomain(b.Value)
			if err != nil {
				continue
			}
			held, seen := m.domains[d]
			m.domains[d] = merge(held, e, seen)
		}
	}
	slices.SortFunc(m.v6, func(a, b held) int { return a.p.Addr().Compare(b.p.Addr()) })
	return m
}

func heldOf(p netip.Prefix, e entry) held { return held{p: p, entry: e} }

// merge joins two blocks of one value: the stronger severity, and the
// expiry that lasts longer (zero means never and outlasts every time).
func merge(held, next entry, seen bool) entry {
	if !seen {
		return next
	}
	out := entry{expires: held.expires, rank: max(held.rank, next.rank)}
	if held.expires.IsZero() || next.expires.IsZero() {
		out.expires = time.Time{}
	} else if next.expires.After(held.expires) {
		out.expires = next.expires
	}
	return out
}

func (e entry) active(now time.Time) bool {
	return e.expires.IsZero() || now.Before(e.expires)
}

// IPBlocked reports whether a block of severity all in force at now covers
// addr. An IPv4-mapped IPv6 address is matched as the IPv4 address it
// carries.
func (m *Matcher) IPBlocked(addr netip.Addr, now time.Time) bool {
	if !addr.IsValid() {
		return false
	}
	addr = addr.Unmap().WithZone("")
	return m.NetworkBlocked(netip.PrefixFrom(addr, addr.BitLen()), now)
}

// NetworkBlocked reports whether a block of severity all in force at now
// overlaps the client network n (clientnet.Of): a block that contains n,
// or one inside it. One IPv6 subscriber holds the whole network, so a
// block of one of its addresses (or of any range narrower than n) refuses
// all of them; for an IPv4 client, n is its address alone.
func (m *Matcher) NetworkBlocked(n netip.Prefix, now time.Time) bool {
	return m.NetworkSeverity(n, now) == SeverityAll
}

// NetworkSeverity is the strongest severity of the blocks in force at now
// that overlap the client network n, as NetworkBlocked matches them; ""
// when none does.
func (m *Matcher) NetworkSeverity(n netip.Prefix, now time.Time) string {
	if m == nil || !n.IsValid() {
		return ""
	}
	n = n.Masked()
	strongest := 0
	for _, bits := range m.lengths {
		if bits > n.Bits() {
			continue
		}
		p, err := n.Addr().Prefix(bits)
		if err != nil {
			continue
		}
		if e, ok := m.prefixes[bits][p]; ok && e.active(now) {
			strongest = max(strongest, e.rank)
		}
	}
	if n.Addr().Is6() {
		strongest = max(strongest, m.strongestInside(n, now))
	}
	return severityOf(strongest)
}

// strongestInside is the rank of the strongest IPv6 block in force at now
// that lies inside n.
func (m *Matcher) strongestInside(n netip.Prefix, now time.Time) int {
	strongest := 0
	i, _ := slices.BinarySearchFunc(m.v6, n.Addr(), func(h held, a netip.Addr) int { return h.p.Addr().Compare(a) })
	for ; i < len(m.v6) && n.Contains(m.v6[i].p.Addr()); i++ {
		if m.v6[i].p.Bits() >= n.Bits() && m.v6[i].active(now) {
			strongest = max(strongest, m.v6[i].rank)
		}
	}
	return strongest
}

// IPStringBlocked is IPBlocked for an address as text; text that is not
// an address is not blocked.
func (m *Matcher) IPStringBlocked(ip string, now time.Time) bool {
	addr, err := netip.ParseAddr(ip)
	return err == nil && m.IPBlocked(addr, now)
}

// EmailBlocked reports whether a block in force at now refuses sign-up
// with the email: one of severity signup or all on its domain or any
// domain above it (blocking example.com blocks a@mail.example.com too).
func (m *Matcher) EmailBlocked(email string, now time.Time) bool {
	return rank(m.EmailSeverity(email, now)) >= rank(SeveritySignUp)
}

// EmailSeverity is the strongest severity of the blocks in force at now
// on the email's domain or any domain above it; "" when none.
func (m *Matcher) EmailSeverity(email string, now time.Time) string {
	if m == nil || len(m.domains) == 0 {
		return ""
	}
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return ""
	}
	strongest := 0
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(email[at+1:])), ".")
	for d != "" {
		if e, ok := m.domains[d]; ok && e.active(now) {
			strongest = max(strongest, e.rank)
		}
		dot := strings.IndexByte(d, '.')
		if dot < 0 {
			break
		}
		d = d[dot+1:]
	}
	return severityOf(strongest)
}
