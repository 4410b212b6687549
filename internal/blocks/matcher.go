package blocks

import (
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Matcher answers whether an address or email is blocked. It is built once
// from the list and never changed, so any number of goroutines may use it.
type Matcher struct {
	// prefixes holds each prefix's expiry (zero: never), by prefix length,
	// so that a lookup costs one map probe per length in use.
	prefixes map[int]map[netip.Prefix]time.Time
	lengths  []int
	// v6 holds the IPv6 prefixes again, sorted by address, so that the
	// blocks inside a client's network are found by a binary search.
	v6      []held
	domains map[string]time.Time
}

// held is a blocked prefix and its expiry.
type held struct {
	p       netip.Prefix
	expires time.Time
}

// NewMatcher builds a matcher over list; values that do not parse are
// skipped (the store only keeps normalised ones).
func NewMatcher(list []Block) *Matcher {
	m := &Matcher{prefixes: map[int]map[netip.Prefix]time.Time{}, domains: map[string]time.Time{}}
	for _, b := range list {
		switch b.Kind {
		case KindIP:
			p, err := ParsePrefix(b.Value)
			if err != nil {
				continue
			}
			byLen := m.prefixes[p.Bits()]
			if byLen == nil {
				byLen = map[netip.Prefix]time.Time{}
				m.prefixes[p.Bits()] = byLen
				m.lengths = append(m.lengths, p.Bits())
			}
			byLen[p] = later(byLen[p], b.ExpiresAt, hasKey(byLen, p))
			if p.Addr().Is6() {
				m.v6 = append(m.v6, held{p, b.ExpiresAt})
			}
		case KindEmailDomain:
			d, err := ParseDomain(b.Value)
			if err != nil {
				continue
			}
			_, seen := m.domains[d]
			m.domains[d] = later(m.domains[d], b.ExpiresAt, seen)
		}
	}
	slices.SortFunc(m.v6, func(a, b held) int { return a.p.Addr().Compare(b.p.Addr()) })
	return m
}

func hasKey(m map[netip.Prefix]time.Time, p netip.Prefix) bool {
	_, ok := m[p]
	return ok
}

// later keeps the expiry that lasts longer when one value is blocked
// twice; zero means never and outlasts every time.
func later(held, next time.Time, seen bool) time.Time {
	if !seen {
		return next
	}
	if held.IsZero() || next.IsZero() {
		return time.Time{}
	}
	if next.After(held) {
		return next
	}
	return held
}

func active(expires, now time.Time) bool {
	return expires.IsZero() || now.Before(expires)
}

// IPBlocked reports whether a block in force at now covers addr. An
// IPv4-mapped IPv6 address is matched as the IPv4 address it carries.
func (m *Matcher) IPBlocked(addr netip.Addr, now time.Time) bool {
	if !addr.IsValid() {
		return false
	}
	addr = addr.Unmap().WithZone("")
	return m.NetworkBlocked(netip.PrefixFrom(addr, addr.BitLen()), now)
}

// NetworkBlocked reports whether a block in force at now overlaps the
// client network n (clientnet.Of): a block that contains n, or one
// inside it. One IPv6 subscriber holds the whole network, so a block of
// one of its addresses (or of any range narrower than n) refuses all of
// them; for an IPv4 client, n is its address alone.
func (m *Matcher) NetworkBlocked(n netip.Prefix, now time.Time) bool {
	if m == nil || !n.IsValid() {
		return false
	}
	n = n.Masked()
	for _, bits := range m.lengths {
		if bits > n.Bits() {
			continue
		}
		p, err := n.Addr().Prefix(bits)
		if err != nil {
			continue
		}
		if expires, ok := m.prefixes[bits][p]; ok && active(expires, now) {
			return true
		}
	}
	return n.Addr().Is6() && m.blocksInside(n, now)
}

// blocksInside reports whether an IPv6 block in force at now lies inside n.
func (m *Matcher) blocksInside(n netip.Prefix, now time.Time) bool {
	i, _ := slices.BinarySearchFunc(m.v6, n.Addr(), func(h held, a netip.Addr) int { return h.p.Addr().Compare(a) })
	for ; i < len(m.v6) && n.Contains(m.v6[i].p.Addr()); i++ {
		if m.v6[i].p.Bits() >= n.Bits() && active(m.v6[i].expires, now) {
			return true
		}
	}
	return false
}

// IPStringBlocked is IPBlocked for an address as text; text that is not
// an address is not blocked.
func (m *Matcher) IPStringBlocked(ip string, now time.Time) bool {
	addr, err := netip.ParseAddr(ip)
	return err == nil && m.IPBlocked(addr, now)
}

// EmailBlocked reports whether a block in force at now covers the
// email's domain or any domain above it: blocking example.com blocks
// a@mail.example.com too.
func (m *Matcher) EmailBlocked(email string, now time.Time) bool {
	if m == nil || len(m.domains) == 0 {
		return false
	}
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return false
	}
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(email[at+1:])), ".")
	for d != "" {
		if expires, ok := m.domains[d]; ok && active(expires, now) {
			return true
		}
		dot := strings.IndexByte(d, '.')
		if dot < 0 {
			break
		}
		d = d[dot+1:]
	}
	return false
}
