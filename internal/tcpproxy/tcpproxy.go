// Package tcpproxy is a TCP proxy on the loopback that a test (or the
// outage bench) can cut and restore: Down refuses new connections and ends
// the open ones, as a server that went away; Up lets connections through
// again. Standing between Plaza and PostgreSQL or Redis, it takes the
// server away from one Plaza without touching the server others share.
package tcpproxy

import (
	"errors"
	"io"
	"net"
	"sync"
)

// Proxy forwards connections on its address to a target.
type Proxy struct {
	target string
	addr   string

	mu     sync.Mutex
	ln     net.Listener // nil while down
	conns  map[net.Conn]struct{}
	closed bool
}

// New starts a proxy on a free port of 127.0.0.1 to target (host:port).
func New(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{target: target, addr: ln.Addr().String(), ln: ln, conns: map[net.Conn]struct{}{}}
	go p.serve(ln)
	return p, nil
}

// Addr is the proxy's host:port, the one to connect to instead of the target.
func (p *Proxy) Addr() string { return p.addr }

// Down stops listening, so that new connections are refused (ECONNREFUSED,
// as from a server that is not running), and ends every open connection
// in both directions, as a server that went away mid-query.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Up listens again on the same address.
func (p *Proxy) Up() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errors.New("tcpproxy: closed")
	}
	if p.ln != nil {
		return nil
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return err
	}
	p.ln = ln
	go p.serve(ln)
	return nil
}

// Close ends the proxy and every connection through it.
func (p *Proxy) Close() {
	p.Down()
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

func (p *Proxy) serve(ln net.Listener) {
	for {
		in, err := ln.Accept()
		if err != nil {
			return // closed by Down or Close
		}
		go p.pipe(ln, in)
	}
}

// pipe forwards one connection accepted on ln, unless the proxy went down
// since (ln is no longer the one listening).
func (p *Proxy) pipe(ln net.Listener, in net.Conn) {
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		in.Close()
		return
	}
	p.mu.Lock()
	if p.ln != ln {
		p.mu.Unlock()
		in.Close()
		out.Close()
		return
	}
	p.conns[in], p.conns[out] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{})
	go func() {
		io.Copy(out, in) //nolint:errcheck // ends when either side closes
		out.Close()
		close(done)
	}()
	io.Copy(in, out) //nolint:errcheck // ends when either side closes
	in.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, in)
	delete(p.conns, out)
	p.mu.Unlock()
}
