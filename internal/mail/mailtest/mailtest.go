// Package mailtest runs a real SMTP server (go-smtp) in a test's process,
// on 127.0.0.1, and keeps what it is sent, so that tests of the mail
// outbox read the messages as a mail server received them.
package mailtest

import (
	"bytes"
	"io"
	"log"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Server is an SMTP server that takes every message, without TLS or
// sign-in (SMTP_URL's ?tls=none).
type Server struct {
	addr string
	mu   sync.Mutex
	got  []Received
	// changed is closed and replaced whenever a message arrives.
	changed chan struct{}
}

// Received is one message as the server took it.
type Received struct {
	From string
	To   []string
	Data []byte
}

// Subject is the message's decoded subject.
func (r Received) Subject() string {
	m, err := netmail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		return ""
	}
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return ""
	}
	return s
}

// Text is the whole message with quoted-printable undone, for a test
// to look for a link or a phrase in.
func (r Received) Text() string {
	b, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(r.Data)))
	if err != nil {
		return string(r.Data)
	}
	return string(b)
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &Server{addr: l.Addr().String(), changed: make(chan struct{})}
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{server: ts}, nil }))
	s.Domain = "localhost"
	s.ErrorLog = log.New(io.Discard, "", 0)
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	served := make(chan struct{})
	go func() { defer close(served); _ = s.Serve(l) }()
	t.Cleanup(func() { _ = s.Close(); <-served })
	return ts
}

// URL is the server as SMTP_URL names it.
func (s *Server) URL() string { return "smtp://" + s.addr + "?tls=none" }

// Received is what the server has taken so far, oldest first.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// Wait waits until the server has taken n messages, for at most bound,
// and returns them.
func (s *Server) Wait(t testing.TB, n int, bound time.Duration) []Received {
	t.Helper()
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := append([]Received(nil), s.got...), s.changed
		s.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("the SMTP server received %d messages in %s, want %d", len(got), bound, n)
		}
	}
}

// DownURL is an SMTP_URL where no server listens: every send is refused
// at once.
func DownURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "smtp://" + addr + "?tls=none"
}

type session struct {
	server *Server
	r      Received
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.r = Received{From: from}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.r.To = append(s.r.To, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.r.Data = data
	s.server.mu.Lock()
	s.server.got = append(s.server.got, s.r)
	close(s.server.changed)
	s.server.changed = make(chan struct{})
	s.server.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.r = Received{} }
func (s *session) Logout() error { return nil }
