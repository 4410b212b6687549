package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeNet is the only network guard tests use: its resolver answers from a
// table (a name nobody declared fails the test) and its dialer opens no
// socket, handing back one end of an in-memory pipe, so no test can send
// anything anywhere and no real DNS query is made.
type fakeNet struct {
	t *testing.T

	mu      sync.Mutex
	hosts   map[string][]netip.Addr
	nx      map[string]bool
	lookups map[string]int
	dials   []string
}

func newFakeNet(t *testing.T) *fakeNet {
	return &fakeNet{t: t, hosts: map[string][]netip.Addr{}, nx: map[string]bool{}, lookups: map[string]int{}}
}

// host declares that name resolves to addrs.
func (n *fakeNet) host(name string, addrs ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, a := range addrs {
		n.hosts[name] = append(n.hosts[name], netip.MustParseAddr(a))
	}
}

func (n *fakeNet) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lookups[host]++
	addrs, ok := n.hosts[host]
	if !ok {
		if !n.nx[host] {
			n.t.Errorf("fakeNet: unexpected lookup of %q", host)
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, len(addrs))
	for i, a := range addrs {
		out[i] = net.IPAddr{IP: a.AsSlice()}
	}
	return out, nil
}

func (n *fakeNet) Dial(_ context.Context, _, addr string) (net.Conn, error) {
	n.mu.Lock()
	n.dials = append(n.dials, addr)
	n.mu.Unlock()
	c, peer := net.Pipe()
	peer.Close()
	return c, nil
}

func (n *fakeNet) lookupCount(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lookups[host]
}

func (n *fakeNet) dialed() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dials...)
}

// TestGuardOnItsOwn: the guard refuses internal targets before any lookup
// or dial, tells a refused address from a URL of the wrong shape, and lets
// public names through to the resolver.
func TestGuardOnItsOwn(t *testing.T) {
	const (
		ok = iota
		bad
		forbidden
	)
	n := newFakeNet(t)
	n.host("inside.example", "10.0.0.7")
	g := New(Config{Resolver: n, Dial: n.Dial})
	for raw, want := range map[string]int{
		"http://10.0.0.1/":          forbidden,
		"http://169.254.169.254/":   forbidden,
		"http://[::1]/":             forbidden,
		"http://0x7f.1/":            forbidden,
		"http://localhost./":        forbidden,
		"file:///etc/passwd":        bad,
		"http://u:p@example.com/":   bad,
		"https://example.com:0/":    bad,
		"https://hooks.example.com": ok,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		err = g.CheckURL(u)
		var e *Error
		switch errors.As(err, &e); {
		case want == ok && err != nil:
			t.Errorf("%s: %v", raw, err)
		case want != ok && (e == nil || e.Forbidden != (want == forbidden) || e.Details == ""):
			t.Errorf("%s: %v, want forbidden=%v", raw, err, want == forbidden)
		case want != ok && Refused(err) != (want == forbidden):
			t.Errorf("%s: Refused = %v", raw, Refused(err))
		}
	}
	if _, err := g.DialContext(context.Background(), "tcp", "inside.example:80"); !Refused(err) {
		t.Errorf("a name resolving to a private address: %v", err)
	}
	n.nx["bad host"] = true
	open := New(Config{AllowPrivate: true, Resolver: n, Dial: n.Dial})
	for _, addr := range []string{"bad host:80", "1.2.3.256:80"} {
		if _, err := open.DialContext(context.Background(), "tcp", addr); err == nil || Refused(err) {
			t.Errorf("a malformed host %q: %v", addr, err)
		}
	}
	if d := n.dialed(); len(d) != 0 {
		t.Errorf("dialled %v, want nothing", d)
	}
}

// TestDialsTheCheckedAddress: the dialer connects to the address it
// checked, never the name, and refuses a name if any of its addresses is
// refused.
func TestDialsTheCheckedAddress(t *testing.T) {
	n := newFakeNet(t)
	n.host("public.example", "203.0.113.7")
	n.host("mixed.example", "203.0.113.8", "127.0.0.1")
	n.host("mapped.example", "::ffff:203.0.113.9")
	g := New(Config{Resolver: n, Dial: n.Dial})
	for _, addr := range []string{"public.example:443", "mapped.example:80", "[2606:4700::1]:80"} {
		c, err := g.DialContext(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		c.Close()
	}
	if _, err := g.DialContext(context.Background(), "tcp", "mixed.example:80"); !Refused(err) {
		t.Errorf("a name with one loopback address: %v", err)
	}
	if _, err := g.DialContext(context.Background(), "tcp", "localhost:80"); !Refused(err) {
		t.Errorf("localhost: %v", err)
	}
	want := []string{"203.0.113.7:443", "203.0.113.9:80", "[2606:4700::1]:80"}
	if got := n.dialed(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dialled %v, want %v", got, want)
	}
}

func TestRefusalCache(t *testing.T) {
	n := newFakeNet(t)
	n.host("internal.test", "10.0.0.5")
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cache := NewMemoryCache(16, func() time.Time { return now })
	g := New(Config{Resolver: n, Dial: n.Dial, RefusalCache: cache, RefusalTTL: time.Minute})
	for range 3 {
		if _, err := g.DialContext(context.Background(), "tcp", "internal.test:80"); !Refused(err) {
			t.Fatalf("internal.test: %v", err)
		}
	}
	if got := n.lookupCount("internal.test"); got != 1 {
		t.Errorf("%d lookups, want 1 (later refusals come from the cache)", got)
	}
	now = now.Add(2 * time.Minute)
	if _, err := g.DialContext(context.Background(), "tcp", "internal.test:80"); !Refused(err) {
		t.Fatalf("internal.test after expiry: %v", err)
	}
	if got := n.lookupCount("internal.test"); got != 2 {
		t.Errorf("%d lookups after expiry, want 2", got)
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if len(cache.entries) != 1 {
		t.Errorf("cache holds %d entries, want 1", len(cache.entries))
	}
	for k := range cache.entries {
		if strings.Contains(k, "internal") || k != refusalKey("internal.test") {
			t.Errorf("unexpected cache key %q", k)
		}
	}
}

// TestPortsAllowed: with Ports set, a URL on any other port (spelled or
// implied by its scheme) is refused as forbidden before any connection,
// even when private addresses are allowed; without, any port goes.
func TestPortsAllowed(t *testing.T) {
	g := New(Config{Ports: []int{80, 443}})
	open := New(Config{Ports: []int{80, 443}, AllowPrivate: true})
	for raw, ok := range map[string]bool{
		"http://example.com/":       true,
		"https://example.com/":      true,
		"http://example.com:443/":   true,
		"https://example.com:80/":   true,
		"http://example.com:22/":    false,
		"https://example.com:8443/": false,
		"http://example.com:6379/":  false,
		"http://93.184.215.14:25/":  false,
	} {
		u, _ := url.Parse(raw)
		for _, guard := range []*Guard{g, open} {
			err := guard.CheckURL(u)
			var ge *Error
			if ok != (err == nil) || !ok && (!errors.As(err, &ge) || !ge.Forbidden || !strings.Contains(ge.Details, "port")) {
				t.Errorf("%s: %v, want allowed %t", raw, err, ok)
			}
		}
	}
	u, _ := url.Parse("http://example.com:8080/")
	if err := New(Config{}).CheckURL(u); err != nil {
		t.Errorf("no port list: %v", err)
	}
}
