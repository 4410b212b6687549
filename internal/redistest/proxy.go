package redistest

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/plazahq/plaza/internal/tcpproxy"
)

// Proxy stands between a client and the test Redis on a local port, so
// that a test can take Redis away and bring it back (Down, Up) without
// touching the server other tests share.
type Proxy struct {
	*tcpproxy.Proxy
	t   testing.TB
	url string
}

// NewProxy starts a proxy to the test Redis (skipped or failed as Client
// is when none answers) and returns it with a client that goes through it.
func NewProxy(t testing.TB) (*Proxy, *redis.Client) {
	t.Helper()
	direct := Client(t)
	tp, err := tcpproxy.New(direct.Options().Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tp.Close)
	opts := *direct.Options()
	opts.Addr = tp.Addr()
	c := redis.NewClient(&opts)
	t.Cleanup(func() { c.Close() })
	u := url.URL{Scheme: "redis", Host: tp.Addr(), Path: "/" + strconv.Itoa(opts.DB)}
	if opts.Password != "" {
		u.User = url.UserPassword(opts.Username, opts.Password)
	}
	return &Proxy{Proxy: tp, t: t, url: u.String()}, c
}

// URL is the REDIS_URL that reaches the test Redis through the proxy.
func (p *Proxy) URL() string { return p.url }

// Up lets connections through again.
func (p *Proxy) Up() {
	p.t.Helper()
	if err := p.Proxy.Up(); err != nil {
		p.t.Fatalf("bring Redis back: %v", err)
	}
}
