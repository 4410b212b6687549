// Package netguard is the address policy of every request Plaza sends on
// someone else's say-so: link previews fetch what anonymous callers name,
// webhooks post where admins said. Either could otherwise be pointed at
// this machine, the local network or a cloud metadata service.
//
// The policy applies at three points: the URL's host as written (every
// spelling of an address, see parseHost), each address a name resolves to
// before dialling, and (with the default dialer) the address the socket is
// about to connect to, in net.Dialer.Control, so DNS rebinding cannot slip
// a second answer in between. The package knows only URLs, addresses,
// resolving and dialling, so that what needs the policy (webhooks, and the
// models through them) does not link the preview fetcher.
package netguard

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Defaults of Config.
const (
	DefaultDialTimeout = 10 * time.Second
	DefaultRefusalTTL  = time.Minute
)

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Cache is where refusals are remembered for a short while. Keys are
// opaque and never hold a URL or host in clear.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// Config configures a Guard. The zero value applies the policy with the
// system resolver and a plain dialer.
type Config struct {
	// AllowPrivate lifts the address policy, for tests and intranets.
	AllowPrivate bool
	// Ports, when not empty, are the only ports a URL may name (or imply
	// by its scheme): a caller who may choose the port could otherwise
	// reach mail, database or admin services on public hosts. AllowPrivate
	// does not lift it.
	Ports []int
	// Resolver resolves host names. Default net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address that has passed the policy. Default: a
	// net.Dialer whose Control hook checks the address once more, at the
	// socket.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// DialTimeout bounds the default dialer's connect. Default 10 s.
	DialTimeout time.Duration
	// RefusalCache, if set, remembers refused host names for RefusalTTL
	// (default 1 min), so repeated attempts skip DNS.
	RefusalCache Cache
	RefusalTTL   time.Duration
}

// Guard is the policy as a URL check before anything touches the network,
// and a dialer that resolves, checks every address and connects to the
// checked address itself. It is safe for concurrent use.
type Guard struct {
	cfg      Config
	resolver Resolver
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	dialer   *net.Dialer // the default dialer, when Config.Dial is nil
}

// New builds a Guard, filling in defaults.
func New(cfg Config) *Guard {
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
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

// Error is a URL the guard refuses before any connection. Details is safe
// to show to whoever supplied the URL: it never holds an address the host
// resolved to. Err, when set, is the cause, for logs only.
type Error struct {
	// Forbidden is set when the host is a refused address (however
	// spelled) or a localhost name, and clear when the URL's shape is at
	// fault: callers answer the two differently.
	Forbidden bool
	// Private is set when the host is a private, loopback, link-local or
	// localhost address, which a setting of the caller's may allow.
	Private bool
	Details string
	Err     error
}

func (e *Error) Error() string {
	msg := "address guard: " + e.Details
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

func badURL(details string, cause error) *Error { return &Error{Details: details, Err: cause} }

// CheckURL checks an absolute URL before any connection: http(s), a host,
// no credentials, a valid port, and a host that is not a refused address
// (however spelled) or a localhost name. Failures are *Error values.
func (g *Guard) CheckURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return badURL("only http and https URLs are supported", nil)
	}
	if u.Opaque != "" || u.Host == "" {
		return badURL("URL has no host", nil)
	}
	if u.User != nil {
		return badURL("URL must not contain credentials", nil)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return badURL("invalid port", nil)
		}
	}
	h, err := parseHost(u.Hostname())
	if err != nil {
		return badURL("invalid host", err)
	}
	if port := effectivePort(u); len(g.cfg.Ports) > 0 && !slices.Contains(g.cfg.Ports, port) {
		return &Error{Forbidden: true, Details: fmt.Sprintf("port %d is not allowed (allowed: %s)", port, portList(g.cfg.Ports))}
	}
	if g.cfg.AllowPrivate {
		return nil
	}
	if isLocalName(h.name) || (h.addr.IsValid() && !Allowed(h.addr)) {
		return &Error{Forbidden: true, Private: true, Details: "target address is not allowed"}
	}
	return nil
}

// effectivePort is the port u names, or its scheme's (CheckURL has
// checked both).
func effectivePort(u *url.URL) int {
	if p := u.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		return n
	}
	if u.Scheme == "https" {
		return 443
	}
	return 80
}

func portList(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}

// Refused reports whether err (from CheckURL, DialContext, or a client
// request that used it) is the address policy refusing a target.
func Refused(err error) bool {
	var fe *forbiddenAddrError
	var ge *Error
	return errors.As(err, &fe) || (errors.As(err, &ge) && ge.Forbidden)
}

// RefusedPrivate reports whether err is the policy refusing a private,
// loopback or link-local address or a localhost name (not a port), which
// the caller's setting may allow.
func RefusedPrivate(err error) bool {
	var fe *forbiddenAddrError
	var ge *Error
	return errors.As(err, &fe) || (errors.As(err, &ge) && ge.Private)
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

// refusalKey keeps the prefix refusals were stored under before the guard
// had a package of its own, so a cache shared across an upgrade still
// finds them.
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
