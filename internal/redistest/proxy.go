package redistest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Proxy stands between a client and the test Redis on a local port, so
// that a test can take Redis away and bring it back (Down, Up) without
// touching the server other tests share.
type Proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]struct{}
}

// NewProxy starts a proxy to the test Redis (skipped or failed as Client
// is when none answers) and returns it with a client that goes through it.
func NewProxy(t testing.TB) (*Proxy, *redis.Client) {
	t.Helper()
	direct := Client(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: direct.Options().Addr, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.Down()
	})
	opts := *direct.Options()
	opts.Addr = ln.Addr().String()
	c := redis.NewClient(&opts)
	t.Cleanup(func() { c.Close() })
	return p, c
}

// Down ends every connection through the proxy and refuses new ones, as
// a Redis that went away.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Up lets connections through again.
func (p *Proxy) Up() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

func (p *Proxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(in)
	}
}

func (p *Proxy) pipe(in net.Conn) {
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		in.Close()
		return
	}
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		p.mu.Unlock()
		in.Close()
		return
	}
	p.conns[in], p.conns[out] = struct{}{}, struct{}{}
	p.mu.Unlock()
	go func() {
		io.Copy(out, in) //nolint:errcheck // ends when either side closes
		out.Close()
	}()
	io.Copy(in, out) //nolint:errcheck
	in.Close()
}
