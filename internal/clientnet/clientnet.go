// Package clientnet says which network a client address stands for when
// Plaza counts or refuses requests per address. An IPv4 address stands
// for itself. An IPv6 subscriber is handed a whole prefix (a /64 at
// least, as a rule) and may pick any of its 2^64 addresses for each
// request, so an IPv6 address stands for its prefix: counting it per /128
// would give one subscriber as many rate-limit windows, sign-in throttles
// and sign-ups as it cares to spend addresses on. Range is the wider,
// fixed range staff compare when they look for accounts that sign up or
// sign in from one place.
package clientnet

import "net/netip"

// The IPv6 prefix lengths an operator may choose (RATE_LIMIT_IPV6_PREFIX):
// nothing wider than a /32 (a whole provider's allocation), up to /128 (the
// address alone, as before).
const (
	DefaultIPv6Bits = 64
	MinIPv6Bits     = 32
	MaxIPv6Bits     = 128
)

// Of is the network addr stands for: an IPv4 address, or an IPv4-mapped
// IPv6 one, as its /32; any other IPv6 address masked to v6Bits (its zone
// dropped; 0 means DefaultIPv6Bits, and a length out of range is taken to
// the nearest in range). An invalid addr gives the zero Prefix.
func Of(addr netip.Addr, v6Bits int) netip.Prefix {
	if !addr.IsValid() {
		return netip.Prefix{}
	}
	addr = addr.Unmap().WithZone("")
	bits := addr.BitLen()
	if addr.Is6() {
		if v6Bits == 0 {
			v6Bits = DefaultIPv6Bits
		}
		bits = min(max(v6Bits, MinIPv6Bits), MaxIPv6Bits)
	}
	p, _ := addr.Prefix(bits)
	return p
}

// Key is the network ip (an address as text) stands for, spelt as the
// rate limiter's keys take it: a single address plainly (203.0.113.7),
// an IPv6 network as a CIDR range (2001:db8:1:2::/64). Text that is not an
// address is its own key.
func Key(ip string, v6Bits int) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	p := Of(addr, v6Bits)
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// Parse is Of for an address as text; text that is not an address gives
// the zero Prefix.
func Parse(ip string, v6Bits int) netip.Prefix {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return netip.Prefix{}
	}
	return Of(addr, v6Bits)
}

// The widths of the range two addresses share when staff look for
// accounts that belong together (Range): a /24 is what a small provider,
// an office or a VPN exit hands out in IPv4, a /64 one IPv6 subscriber.
// Fixed, not RATE_LIMIT_IPV6_PREFIX: ranges are stored beside each
// sign-in, and a setting changed later must not split the stored ones.
const (
	RangeIPv4Bits = 24
	RangeIPv6Bits = 64
)

// Range is the range ip (an address as text) belongs to, as a CIDR
// prefix: an IPv4 address (or an IPv4-mapped IPv6 one) its /24
// (203.0.113.0/24), any other IPv6 address its /64 (2001:db8:1:2::/64).
// Text that is not an address, and "", give "".
func Range(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	addr = addr.Unmap().WithZone("")
	bits := RangeIPv6Bits
	if addr.Is4() {
		bits = RangeIPv4Bits
	}
	p, err := addr.Prefix(bits)
	if err != nil {
		return ""
	}
	return p.String()
}

// Address is ip as one spelling of it: an IPv4-mapped IPv6 address as
// IPv4, without a zone, IPv6 in its shortest lower-case form, so that two
// sign-ins from one address store one text. Text that is not an address
// is "".
func Address(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	return addr.Unmap().WithZone("").String()
}
