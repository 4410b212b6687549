package linkpreview

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// GuardConfig configures a Guard. The zero value applies the policy with
// the system resolver and a plain dialer.
type GuardConfig struct {
	// AllowPrivate lifts the address policy, for tests and intranets.
	AllowPrivate bool
	// Resolver resolves host names. Default net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address that has passed the policy. Default: a
	// net.Dialer whose Control hook checks the address once more, at the
	// socket.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// DialTimeout bounds the default dialer's connect. Default 10 s.
	DialTimeout time.Duration
	// RefusalCache, if set, remembers refused host names for RefusalTTL.
	RefusalCache Cache
	RefusalTTL   time.Duration
}

// Guard is the address policy of every request Plaza sends on someone
// else's say-so (link previews, webhooks): a URL check before anything
// touches the network, and a dialer that resolves, checks every address
// and connects to the checked address itself. It is safe for concurrent
// use.
type Guard struct {
	cfg      GuardConfig
	resolver Resolver
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	dialer   *net.Dialer // the default dialer, when GuardConfig.Dial is nil
}

// NewGuard builds a Guard, filling in defaults.
func NewGuard(cfg GuardConfig) *Guard {
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultTimeout
	}
	if cfg.RefusalTTL <= 0 {
		cfg.RefusalTTL = DefaultRefusalTTL
	}
	g := &Guard{cfg: cfg, resolver: cfg.Resolver, dial: cfg.Dial}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	if g.dial == nil {
		g.dialer = &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: -1}
		if !cfg.AllowPrivate {
			g.dialer.Control = control
		}
		g.dial = g.dialer.DialContext
	}
	return g
}

// CheckURL checks an absolute URL before any connection: http(s), a host,
// no credentials, a valid port, and a host that is not a refused address
// (however spelled) or a localhost name. Failures are *Error values:
// KindBadURL for the URL's shape, KindForbidden for a refused address.
func (g *Guard) CheckURL(u *url.URL) error { return g.checkURL(u, KindBadURL) }

// Refused reports whether err (from DialContext, or a client request that
// used it) is the address policy refusing a connection.
func Refused(err error) bool {
	var fe *forbiddenAddrError
	var pe *Error
	return errors.As(err, &fe) || (errors.As(err, &pe) && pe.Kind == KindForbidden)
}

// checkURL applies the rules every hop must pass: http(s), a host, no
// credentials, a valid port, and a host that is not a refused address or
// localhost name. Scheme and shape problems are reported as shapeKind (bad
// URL for the request, forbidden for a redirect).
func (g *Guard) checkURL(u *url.URL, shapeKind Kind) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return newError(shapeKind, "only http and https URLs are supported", nil)
	}
	if u.Opaque != "" || u.Host == "" {
		return newError(shapeKind, "URL has no host", nil)
	}
	if u.User != nil {
		return newError(shapeKind, "URL must not contain credentials", nil)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return newError(shapeKind, "invalid port", nil)
		}
	}
	h, err := parseHost(u.Hostname())
	if err != nil {
		return newError(shapeKind, "invalid host", err)
	}
	if g.cfg.AllowPrivate {
		return nil
	}
	if isLocalName(h.name) || (h.addr.IsValid() && !Allowed(h.addr)) {
		return newError(KindForbidden, "target address is not allowed", nil)
	}
	return nil
}

// forbiddenAddrError is a dial refused by the address policy.
type forbiddenAddrError struct{ addr netip.Addr }

func (e *forbiddenAddrError) Error() string {
	return "address " + e.addr.String() + " is not allowed"
}

// control is the net.Dialer hook that checks the address a socket is about
// to connect to: the last line of defence, after resolution.
func control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &forbiddenAddrError{}
	}
	if !Allowed(ap.Addr()) {
		return &forbiddenAddrError{addr: ap.Addr()}
	}
	return nil
}

// DialContext is a transport's dialer: resolve (or read the address
// literal however it is spelled), check every address, then dial the
// checked address itself, never the name.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	hostPart, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	h, err := parseHost(hostPart)
	if err != nil {
		return nil, &net.DNSError{Err: "invalid host", Name: hostPart, IsNotFound: true}
	}
	var addrs []netip.Addr
	switch {
	case h.addr.IsValid():
		addrs = []netip.Addr{h.addr}
	case isLocalName(h.name) && !g.cfg.AllowPrivate:
		return nil, &forbiddenAddrError{}
	default:
		if g.refusedBefore(ctx, h.name) {
			return nil, &forbiddenAddrError{}
		}
		ips, err := g.resolver.LookupIPAddr(ctx, h.name)
		if err != nil {
			return nil, err
		}
		for _, ip := range ips {
			a, ok := netip.AddrFromSlice(ip.IP)
			if !ok {
				continue
			}
			addrs = append(addrs, a.Unmap().WithZone(ip.Zone))
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: h.name, IsNotFound: true}
		}
	}
	if !g.cfg.AllowPrivate {
		for _, a := range addrs {
			if !Allowed(a) {
				if !h.addr.IsValid() {
					g.rememberRefusal(ctx, h.name)
				}
				return nil, &forbiddenAddrError{addr: a}
			}
		}
	}
	var lastErr error
	for _, a := range addrs {
		conn, err := g.dial(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

func refusalKey(host string) string {
	sum := sha256.Sum256([]byte(host))
	return "linkpreview:refused:" + hex.EncodeToString(sum[:])
}

func (g *Guard) refusedBefore(ctx context.Context, host string) bool {
	if g.cfg.RefusalCache == nil || g.cfg.AllowPrivate {
		return false
	}
	_, ok, err := g.cfg.RefusalCache.Get(ctx, refusalKey(host))
	return err == nil && ok
}

func (g *Guard) rememberRefusal(ctx context.Context, host string) {
	if g.cfg.RefusalCache == nil {
		return
	}
	_ = g.cfg.RefusalCache.Set(ctx, refusalKey(host), []byte{1}, g.cfg.RefusalTTL) // best effort: a lost entry only costs a lookup
}
