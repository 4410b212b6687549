package mail

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// testServer is a real SMTP server in the test's process (go-smtp) that
// keeps what it is sent.
type testServer struct {
	addr string
	got  chan delivery
	// said is what the client sent, commands and message alike.
	said transcript

	// user and password, when set, are the only sign-in it takes; it
	// then refuses mail from anyone not signed in.
	user, password string
	// refuse answers RCPT TO for these recipients with an error.
	refuse map[string]*smtp.SMTPError
}

// delivery is one message as the server received it.
type delivery struct {
	from string
	to   []string
	data []byte
	user string
	tls  bool
}

type serverSetup struct {
	tls            *tls.Config // offered with STARTTLS, or from the start with implicit
	implicit       bool
	user, password string
	refuse         map[string]*smtp.SMTPError
}

func startServer(t *testing.T, setup serverSetup) *testServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{
		addr: l.Addr().String(), got: make(chan delivery, 4),
		user: setup.user, password: setup.password, refuse: setup.refuse,
	}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: ts, conn: c}, nil
	}))
	s.Domain = "localhost"
	// Sends that fail on purpose hang up mid-session; that is no news.
	s.ErrorLog = log.New(io.Discard, "", 0)
	s.Debug = &ts.said
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	if setup.implicit {
		l = tls.NewListener(l, setup.tls)
	} else {
		s.TLSConfig = setup.tls
		// Sign-in in the clear, for the tls=none cases on 127.0.0.1.
		s.AllowInsecureAuth = setup.tls == nil
	}
	served := make(chan struct{})
	go func() { defer close(served); _ = s.Serve(l) }()
	t.Cleanup(func() { _ = s.Close(); <-served })
	return ts
}

// next is the message the server received; Send returns only after the
// server has taken it, so it is there at once or not at all.
func (ts *testServer) next(t *testing.T) delivery {
	t.Helper()
	select {
	case d := <-ts.got:
		return d
	default:
		t.Fatal("the server received no message")
		return delivery{}
	}
}

func (ts *testServer) none(t *testing.T) {
	t.Helper()
	select {
	case d := <-ts.got:
		t.Errorf("the server received a message from %s to %v", d.from, d.to)
	default:
	}
}

// transcript keeps a session's commands and replies (the server's
// Debug), for a test to read once Send has returned.
type transcript struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (tr *transcript) Write(p []byte) (int, error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.buf.Write(p)
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.buf.String()
}

type session struct {
	server *testServer
	conn   *smtp.Conn
	user   string
	d      delivery
}

func (s *session) AuthMechanisms() []string {
	if s.server.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != s.server.user || password != s.server.password {
			return smtp.ErrAuthFailed
		}
		s.user = user
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.server.user != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.d = delivery{from: from, user: s.user}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if e := s.server.refuse[to]; e != nil {
		return e
	}
	s.d.to = append(s.d.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.d.data = data
	_, s.d.tls = s.conn.TLSConnectionState()
	select {
	case s.server.got <- s.d:
		return nil
	default:
		return errors.New("test server: too many messages")
	}
}

func (s *session) Reset()        { s.d = delivery{} }
func (s *session) Logout() error { return nil }

var _ smtp.AuthSession = (*session)(nil)

// selfSigned makes a certificate for 127.0.0.1, and the pool a client
// trusts it through.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "plaza test smtp"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}
