package apptest

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/plazahq/plaza/app"
)

// ReceiverName is the host name a Receiver answers on, and ReceiverAddr
// the public-looking address (a documentation range) it resolves to.
const (
	ReceiverName = "receiver.test"
	ReceiverAddr = "203.0.113.10"
)

// Received is one request a Receiver got.
type Received struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Receiver is a webhook receiver on 127.0.0.1 that an app reaches as
// http://receiver.test:<port>/hooks through Net: a resolver that answers
// from a table and a dialer that connects only to the receiver's
// listener. Every other dial is refused and reported as a test failure,
// so webhook tests send nothing to any other address, whatever the code
// under test does; the address policy stays on.
type Receiver struct {
	URL string
	Net *app.WebhookNet

	srv     *httptest.Server
	port    string
	mu      sync.Mutex
	hosts   map[string]string
	answers []int
	got     []Received
	strays  []string
	changed chan struct{}
}

// NewReceiver starts a receiver that answers 200 unless told otherwise;
// it stops when the test ends.
func NewReceiver(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{hosts: map[string]string{ReceiverName: ReceiverAddr}, changed: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	_, r.port, _ = net.SplitHostPort(r.srv.Listener.Addr().String())
	r.URL = "http://" + ReceiverName + ":" + r.port + "/hooks"
	r.Net = &app.WebhookNet{Resolver: r, Dial: r.dial}
	t.Cleanup(func() {
		r.srv.Close()
		for _, s := range r.Strays() {
			t.Errorf("a webhook dialled %s, which no test route leads to", s)
		}
	})
	return r
}

// Host makes name resolve to addr (a private one, to see it refused).
func (r *Receiver) Host(name, addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hosts[name] = addr
}

// Answer queues the statuses of the next answers; 200 after them.
func (r *Receiver) Answer(codes ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers = append(r.answers, codes...)
}

// Received is every request so far.
func (r *Receiver) Received() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Received(nil), r.got...)
}

// Changed is closed at the next request.
func (r *Receiver) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}

// Strays are the addresses dialled that lead nowhere in the test.
func (r *Receiver) Strays() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.strays...)
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.got = append(r.got, Received{Path: req.URL.Path, Header: req.Header.Clone(), Body: body})
	code := http.StatusOK
	if len(r.answers) > 0 {
		code, r.answers = r.answers[0], r.answers[1:]
	}
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
	w.WriteHeader(code)
}

// LookupIPAddr answers from the receiver's table only: no real DNS.
func (r *Receiver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
}

func (r *Receiver) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr != net.JoinHostPort(ReceiverAddr, r.port) {
		r.mu.Lock()
		r.strays = append(r.strays, addr)
		r.mu.Unlock()
		return nil, errors.New("test network: no route to " + addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, r.srv.Listener.Addr().String())
}

// ReceiverPort is the receiver's port, for URLs on other names.
func (r *Receiver) ReceiverPort() int {
	n, _ := strconv.Atoi(r.port)
	return n
}
