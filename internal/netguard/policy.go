package netguard

import (
	"errors"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// blocked4 are the IPv4 ranges a guarded request may never reach: they lead to this
// machine, to the local network, or nowhere on the public Internet.
// Documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24) are not
// listed: they are routed nowhere, so they cannot reach anything internal,
// and tests use them as stand-ins for public addresses.
var blocked4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network", includes the unspecified address
	netip.MustParsePrefix("10.0.0.0/8"),     // private (RFC 1918)
	netip.MustParsePrefix("100.64.0.0/10"),  // shared address space, carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("127.0.0.0/8"),    // loopback
	netip.MustParsePrefix("169.254.0.0/16"), // link-local, cloud metadata services
	netip.MustParsePrefix("172.16.0.0/12"),  // private (RFC 1918)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments, DS-Lite, NAT64 discovery
	netip.MustParsePrefix("192.88.99.0/24"), // 6to4 relay anycast (deprecated)
	netip.MustParsePrefix("192.168.0.0/16"), // private (RFC 1918)
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking; also the fake-IP range of local DNS proxies
	netip.MustParsePrefix("224.0.0.0/4"),    // multicast
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, includes 255.255.255.255 (limited broadcast)
}

// blocked6 are the IPv6 ranges refused outright. IPv4-mapped addresses are
// unmapped before the check; the ranges that embed an IPv4 address that a
// translator or tunnel would forward to (NAT64, 6to4, Teredo) are judged by
// that embedded address in embedded4.
var blocked6 = []netip.Prefix{
	netip.MustParsePrefix("::/96"),           // unspecified, loopback, IPv4-compatible (deprecated)
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated (SIIT)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64 (RFC 8215)
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:2::/48"),     // benchmarking
	netip.MustParsePrefix("fc00::/7"),        // unique local
	netip.MustParsePrefix("fe80::/10"),       // link-local
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
	netip.MustParsePrefix("ff00::/8"),        // multicast
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96") // well-known NAT64: the last 32 bits are the IPv4 target
	sixto4  = netip.MustParsePrefix("2002::/16")    // 6to4: bits 16–47 are the IPv4 tunnel end point
	teredo  = netip.MustParsePrefix("2001::/32")    // Teredo: server IPv4 in bits 32–63, client IPv4 inverted in the last 32
	mapped4 = netip.MustParsePrefix("::ffff:0:0/96")
)

// Allowed reports whether a guarded request may connect to addr. It refuses
// loopback, private (RFC 1918), carrier-grade NAT, link-local, unique-local,
// site-local, multicast, unspecified, reserved and benchmarking addresses,
// in both families; IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged
// as the IPv4 address they map; NAT64 (64:ff9b::/96), 6to4 (2002::/16) and
// Teredo (2001::/32) addresses are refused when the IPv4 address they embed
// is. Zoned addresses (fe80::1%eth0) and invalid ones are refused.
func Allowed(addr netip.Addr) bool {
	if !addr.IsValid() || addr.Zone() != "" {
		return false
	}
	addr = addr.Unmap()
	if addr.Is4() {
		return allowed4(addr)
	}
	if mapped4.Contains(addr) { // Unmap handles these; kept so a change there cannot open a hole
		return false
	}
	for _, p := range blocked6 {
		if p.Contains(addr) {
			return false
		}
	}
	for _, a := range embedded4(addr) {
		if !allowed4(a) {
			return false
		}
	}
	return true
}

func allowed4(a netip.Addr) bool {
	for _, p := range blocked4 {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// embedded4 returns the IPv4 addresses an IPv6 address forwards to through a
// translator or tunnel.
func embedded4(a netip.Addr) []netip.Addr {
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})}
	case sixto4.Contains(a):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})}
	case teredo.Contains(a):
		return []netip.Addr{
			netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]}),
			netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}),
		}
	}
	return nil
}

// host is a URL host as a resolver or browser understands it.
type host struct {
	name string     // lower-case ASCII form, without a trailing dot
	addr netip.Addr // valid when the host is an address literal, however spelled
}

var errBadHost = errors.New("invalid host")

// parseHost interprets a URL host (url.URL.Hostname: no port, no brackets)
// the way browsers and inet_aton do, so that every spelling of an address is
// judged as that address: IPv6 literals (with IPv4-mapped or IPv4-embedded
// forms), IDNA forms that map to ASCII digits ("１２７.０.０.１"), and the
// WHATWG/inet_aton IPv4 forms: decimal ("2130706433"), octal ("0177.0.0.1",
// "017700000001"), hexadecimal ("0x7f.1", "0x7f000001"), short forms
// ("127.1", "127.0.1") and a trailing dot ("127.0.0.1."). A host whose last
// label is numeric but that is not a valid IPv4 address ("1.2.3.256",
// "1.2.3.4.5") is malformed, as in a browser.
func parseHost(raw string) (host, error) {
	if raw == "" {
		return host{}, errBadHost
	}
	if strings.IndexByte(raw, ':') >= 0 {
		a, err := netip.ParseAddr(raw)
		if err != nil {
			return host{}, errBadHost
		}
		return host{name: strings.ToLower(raw), addr: a}, nil
	}
	name := raw
	if !isASCII(name) {
		a, err := idna.Lookup.ToASCII(name)
		if err != nil {
			return host{}, errBadHost
		}
		name = a
	}
	name = strings.ToLower(name)
	if endsInNumber(name) {
		a, ok := parseIPv4(name)
		if !ok {
			return host{}, errBadHost
		}
		return host{name: a.String(), addr: a}, nil
	}
	name = strings.TrimSuffix(name, ".")
	if name == "" || strings.HasSuffix(name, ".") {
		return host{}, errBadHost
	}
	return host{name: name}, nil
}

// isLocalName reports whether name (as returned by parseHost) is localhost
// or under it (RFC 6761: such names always resolve to loopback).
func isLocalName(name string) bool {
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// endsInNumber is the WHATWG "ends in a number" check: it decides whether a
// host is to be parsed as IPv4.
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4 is the WHATWG IPv4 parser, which accepts what inet_aton accepts.
func parseIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// parseIPv4Number parses one part of an IPv4 spelling: decimal, octal with a
// leading 0, or hexadecimal with 0x. Values beyond 32 bits fail.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		var d uint64
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		n = n*base + d
		if n > 1<<32 {
			return 0, false
		}
	}
	return n, true
}
