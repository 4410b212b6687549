package linkpreview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeNet is the only network fetch tests use. Its resolver answers from a
// table and its dialer connects only to loopback listeners that a route
// maps a fake address to. Anything else (a name nobody declared, an address
// no route maps, a route to a non-loopback address) fails the test and the
// call, so a bug in the code under test can never send traffic anywhere
// but 127.0.0.1/::1, and no real DNS query is ever made.
type fakeNet struct {
	t *testing.T

	mu      sync.Mutex
	hosts   map[string][]netip.Addr           // name → answer
	answers map[string][][]netip.Addr         // name → successive answers (DNS rebinding)
	nx      map[string]bool                   // names expected to fail lookup
	routes  map[netip.AddrPort]netip.AddrPort // fake address → loopback listener
	lookups map[string]int
	dials   []string
	read    atomic.Int64 // bytes read from all dialled connections
}

func newFakeNet(t *testing.T) *fakeNet {
	return &fakeNet{
		t:       t,
		hosts:   map[string][]netip.Addr{},
		answers: map[string][][]netip.Addr{},
		nx:      map[string]bool{},
		routes:  map[netip.AddrPort]netip.AddrPort{},
		lookups: map[string]int{},
	}
}

// host declares that name resolves to addrs.
func (n *fakeNet) host(name string, addrs ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, a := range addrs {
		n.hosts[name] = append(n.hosts[name], netip.MustParseAddr(a))
	}
}

// rebinding declares that name answers first, then second on every later
// lookup.
func (n *fakeNet) rebinding(name, first, second string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.answers[name] = [][]netip.Addr{{netip.MustParseAddr(first)}, {netip.MustParseAddr(second)}}
}

// route makes a dial of fake reach the listener at listenAddr, which must be
// a loopback address.
func (n *fakeNet) route(fake string, listenAddr string) {
	n.t.Helper()
	to := netip.MustParseAddrPort(listenAddr)
	if !to.Addr().IsLoopback() {
		n.t.Fatalf("fakeNet: route to %s refused: tests may only reach loopback", to)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[netip.MustParseAddrPort(fake)] = to
}

func (n *fakeNet) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lookups[host]++
	var addrs []netip.Addr
	if seq, ok := n.answers[host]; ok {
		addrs = seq[min(n.lookups[host]-1, len(seq)-1)]
	} else if a, ok := n.hosts[host]; ok {
		addrs = a
	} else {
		if !n.nx[host] {
			n.t.Errorf("fakeNet: unexpected lookup of %q (declare it with host or nx)", host)
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, len(addrs))
	for i, a := range addrs {
		out[i] = net.IPAddr{IP: a.AsSlice()}
	}
	return out, nil
}

func (n *fakeNet) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(addr)
	n.mu.Lock()
	n.dials = append(n.dials, addr)
	to, ok := n.routes[ap]
	n.mu.Unlock()
	if err != nil || !ok {
		n.t.Errorf("fakeNet: refusing to dial %s %s: no route to loopback declared", network, addr)
		return nil, fmt.Errorf("fakeNet: no route for %s", addr)
	}
	if !to.Addr().IsLoopback() {
		n.t.Errorf("fakeNet: refusing to dial non-loopback %s", to)
		return nil, errors.New("fakeNet: non-loopback target")
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", to.String())
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &n.read}, nil
}

func (n *fakeNet) lookupCount(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lookups[host]
}

func (n *fakeNet) dialCount() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.dials)
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// newTestFetcher builds a Fetcher on n. Every test Fetcher goes through
// here, so none can reach the real resolver or dialer.
func newTestFetcher(t *testing.T, n *fakeNet, cfg Config) *Fetcher {
	t.Helper()
	if cfg.PublicAppURL == "" {
		cfg.PublicAppURL = "http://example.test"
	}
	cfg.Resolver = n
	cfg.Dial = n.Dial
	return New(cfg)
}

// corpusEntry is one page of testdata/corpus.json with what Preview must
// answer for it.
type corpusEntry struct {
	Name            string `json:"name"`
	File            string `json:"file"`
	ContentType     string `json:"content_type"`
	ContentEncoding string `json:"content_encoding"`
	Path            string `json:"path"`
	RedirectFrom    string `json:"redirect_from"`
	Note            string `json:"note"`
	Want            struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Image       string `json:"image"`
	} `json:"want"`
}

func (e corpusEntry) path() string {
	if e.Path != "" {
		return e.Path
	}
	return "/corpus/" + e.Name
}

// requestPath is where a client starts to get this page.
func (e corpusEntry) requestPath() string {
	if e.RedirectFrom != "" {
		return e.RedirectFrom
	}
	return e.path()
}

func (e corpusEntry) isHTML() bool { return filepath.Ext(e.File) == ".html" }

func (e corpusEntry) want() Meta {
	return Meta{Title: e.Want.Title, Description: e.Want.Description, Image: e.Want.Image}
}

func (e corpusEntry) body(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pages", e.File))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadCorpus(t testing.TB) []corpusEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []corpusEntry
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	return entries
}

const corpusHost = "http://example.test"

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
