package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

const testFrom = "Plaza <no-reply@plaza.test>"

func newSender(t *testing.T, rawURL string, opts ...Option) *Sender {
	t.Helper()
	server, err := ParseURL(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSender(server, testFrom, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func resetMessage(t *testing.T) Message {
	t.Helper()
	m, err := testComposer(t).PasswordReset("Ana <ana@example.com>", "tok-123", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const resetLink = "http://plaza.test/reset-password?token=tok-123"

// received is a delivered message, read back as a mail program would.
type received struct {
	header     netmail.Header
	subject    string
	text, html string
}

func read(t *testing.T, data []byte) received {
	t.Helper()
	m, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := received{header: m.Header}
	if r.subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); err != nil {
		t.Fatal(err)
	}
	typ, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || typ != "multipart/alternative" {
		t.Fatalf("Content-Type %q (%v), want multipart/alternative", m.Header.Get("Content-Type"), err)
	}
	parts := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := parts.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		switch typ, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); typ {
		case "text/plain":
			r.text = string(body)
		case "text/html":
			r.html = string(body)
		default:
			t.Errorf("unexpected part %s", typ)
		}
	}
	return r
}

func address(t *testing.T, h netmail.Header, key string) netmail.Address {
	t.Helper()
	a, err := h.AddressList(key)
	if err != nil || len(a) != 1 {
		t.Fatalf("%s: %v %v", key, a, err)
	}
	return *a[0]
}

// TestSendPlain: through a server on 127.0.0.1 with tls=none, a reset
// mail arrives with its From, To and Subject, a text and an HTML part,
// and the link in both.
func TestSendPlain(t *testing.T) {
	ts := startServer(t, serverSetup{})
	m := resetMessage(t)
	if err := newSender(t, "smtp://"+ts.addr+"?tls=none").Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	d := ts.next(t)
	if d.from != "no-reply@plaza.test" || !slices.Equal(d.to, []string{"ana@example.com"}) || d.tls {
		t.Errorf("envelope from %q to %v (TLS %v), want no-reply@plaza.test to ana@example.com in the clear", d.from, d.to, d.tls)
	}
	// Paths in angle brackets, as RFC 5321 has them: go-smtp lets bare
	// ones pass, Mailpit refuses them.
	for _, cmd := range []string{"MAIL FROM:<no-reply@plaza.test>", "RCPT TO:<ana@example.com>"} {
		if !strings.Contains(ts.said.String(), cmd) {
			t.Errorf("no %q in\n%s", cmd, ts.said.String())
		}
	}
	r := read(t, d.data)
	if from := address(t, r.header, "From"); from != (netmail.Address{Name: "Plaza", Address: "no-reply@plaza.test"}) {
		t.Errorf("From %+v", from)
	}
	if to := address(t, r.header, "To"); to != (netmail.Address{Name: "Ana", Address: "ana@example.com"}) {
		t.Errorf("To %+v", to)
	}
	if r.subject != "Reset your password on Plaza" || r.subject != m.Subject {
		t.Errorf("Subject %q, want %q", r.subject, m.Subject)
	}
	if !strings.Contains(r.text, resetLink) || !strings.Contains(r.html, `href="`+resetLink+`"`) {
		t.Errorf("the link %s is missing from\n%s\n%s", resetLink, r.text, r.html)
	}
	if r.header.Get("Auto-Submitted") != "auto-generated" || !strings.HasSuffix(r.header.Get("Message-Id"), "@plaza.test>") {
		t.Errorf("Auto-Submitted %q, Message-ID %q", r.header.Get("Auto-Submitted"), r.header.Get("Message-Id"))
	}
}

// TestSendStartTLS: smtp:// upgrades with STARTTLS and checks the
// server's certificate; it sends nothing to a server that does not offer
// STARTTLS, or whose certificate it cannot trust, unless the URL allows
// it (?tls=optional).
func TestSendStartTLS(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	trust := WithTLSConfig(&tls.Config{RootCAs: roots})

	t.Run("upgraded", func(t *testing.T) {
		ts := startServer(t, serverSetup{tls: serverTLS})
		if err := newSender(t, "smtp://"+ts.addr, trust).Send(t.Context(), resetMessage(t)); err != nil {
			t.Fatal(err)
		}
		if d := ts.next(t); !d.tls {
			t.Error("the message went in the clear")
		}
	})
	t.Run("not offered", func(t *testing.T) {
		ts := startServer(t, serverSetup{})
		err := newSender(t, "smtp://"+ts.addr, trust).Send(t.Context(), resetMessage(t))
		wantError(t, err, StageTLS, 0, false)
		if !errors.Is(err, ErrNoStartTLS) || !strings.Contains(err.Error(), "does not offer STARTTLS") {
			t.Errorf("got %v, want one saying the server does not offer STARTTLS", err)
		}
		ts.none(t)
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		ts := startServer(t, serverSetup{tls: serverTLS})
		err := newSender(t, "smtp://"+ts.addr).Send(t.Context(), resetMessage(t))
		wantError(t, err, StageTLS, 0, false)
		var untrusted *tls.CertificateVerificationError
		if !errors.As(err, &untrusted) {
			t.Errorf("got %v, want a certificate error", err)
		}
		ts.none(t)
	})
	t.Run("optional, not offered", func(t *testing.T) {
		ts := startServer(t, serverSetup{})
		if err := newSender(t, "smtp://"+ts.addr+"?tls=optional").Send(t.Context(), resetMessage(t)); err != nil {
			t.Fatal(err)
		}
		if d := ts.next(t); d.tls {
			t.Error("TLS without the server offering it?")
		}
	})
	t.Run("optional, offered", func(t *testing.T) {
		ts := startServer(t, serverSetup{tls: serverTLS})
		if err := newSender(t, "smtp://"+ts.addr+"?tls=optional", trust).Send(t.Context(), resetMessage(t)); err != nil {
			t.Fatal(err)
		}
		if d := ts.next(t); !d.tls {
			t.Error("offered STARTTLS was not used")
		}
	})
}

// TestSendImplicitTLS: smtps:// speaks TLS from the first byte.
func TestSendImplicitTLS(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	ts := startServer(t, serverSetup{tls: serverTLS, implicit: true})
	s := newSender(t, "smtps://"+ts.addr, WithTLSConfig(&tls.Config{RootCAs: roots}))
	if err := s.Send(t.Context(), resetMessage(t)); err != nil {
		t.Fatal(err)
	}
	if d := ts.next(t); !d.tls {
		t.Error("the message went in the clear")
	}
}

// TestSendAuth: the URL's user and password (percent-decoded) sign in; a
// refused sign-in is permanent and its error names the user, never the
// password.
func TestSendAuth(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	trust := WithTLSConfig(&tls.Config{RootCAs: roots})
	ts := startServer(t, serverSetup{tls: serverTLS, user: "plaza", password: "s3cret/pw"})

	if err := newSender(t, "smtp://plaza:s3cret%2Fpw@"+ts.addr, trust).Send(t.Context(), resetMessage(t)); err != nil {
		t.Fatal(err)
	}
	if d := ts.next(t); d.user != "plaza" || !d.tls {
		t.Errorf("signed in as %q (TLS %v), want plaza over TLS", d.user, d.tls)
	}

	err := newSender(t, "smtp://plaza:wrong-password-77@"+ts.addr, trust).Send(t.Context(), resetMessage(t))
	wantError(t, err, StageAuth, 535, true)
	if !strings.Contains(err.Error(), "as plaza") || strings.Contains(err.Error(), "wrong-password-77") {
		t.Errorf("got %q, want the user named and the password left out", err)
	}

	err = newSender(t, "smtp://"+ts.addr, trust).Send(t.Context(), resetMessage(t))
	wantError(t, err, StageSender, 502, true)
	ts.none(t)
}

// TestSendAuthInTheClear: with tls=none, PLAIN sends the password only to
// the machine itself (a mail catcher), never across a network.
func TestSendAuthInTheClear(t *testing.T) {
	ts := startServer(t, serverSetup{user: "plaza", password: "pw"})
	if err := newSender(t, "smtp://plaza:pw@"+ts.addr+"?tls=none").Send(t.Context(), resetMessage(t)); err != nil {
		t.Fatal(err)
	}
	if d := ts.next(t); d.user != "plaza" {
		t.Errorf("signed in as %q", d.user)
	}
}

// TestSendRecipientRefused: a 5xx to RCPT TO is permanent, a 4xx
// (greylisting, a full mailbox) temporary; the error names the
// recipient and the server's words.
func TestSendRecipientRefused(t *testing.T) {
	ts := startServer(t, serverSetup{refuse: map[string]*smtp.SMTPError{
		"nobody@example.com": {Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"},
		"later@example.com":  {Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "greylisted, try again"},
	}})
	s := newSender(t, "smtp://"+ts.addr+"?tls=none")
	m := resetMessage(t)

	m.To = "nobody@example.com"
	err := s.Send(t.Context(), m)
	wantError(t, err, StageRecipient, 550, true)
	if want := "smtp recipient <nobody@example.com> refused: 550 5.1.1 no such user"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}

	m.To = "later@example.com"
	wantError(t, s.Send(t.Context(), m), StageRecipient, 451, false)
	ts.none(t)
}

// TestSendServerDown: a closed port is a temporary failure to connect.
func TestSendServerDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	err = newSender(t, "smtp://"+addr+"?tls=none").Send(t.Context(), resetMessage(t))
	wantError(t, err, StageConnect, 0, false)
	if !strings.Contains(err.Error(), "connect to "+addr) {
		t.Errorf("got %q, want it to name %s", err, addr)
	}
}

// TestSendTimeout: a server that never answers fails the send within
// the timeout, and a caller's cancel ends it at once; both temporary.
func TestSendTimeout(t *testing.T) {
	silent := func(t *testing.T, accepted func()) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held, done := make(chan net.Conn, 1), make(chan struct{})
		go func() {
			defer close(done)
			if c, err := l.Accept(); err == nil {
				held <- c
				accepted()
			}
		}()
		t.Cleanup(func() {
			_ = l.Close()
			<-done
			select {
			case c := <-held:
				_ = c.Close()
			default:
			}
		})
		return l.Addr().String()
	}

	addr := silent(t, func() {})
	err := newSender(t, "smtp://"+addr+"?tls=none", WithTimeout(100*time.Millisecond)).Send(t.Context(), resetMessage(t))
	wantError(t, err, StageGreeting, 0, false)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline", err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	addr = silent(t, cancel)
	err = newSender(t, "smtp://"+addr+"?tls=none").Send(ctx, resetMessage(t))
	if !errors.Is(err, context.Canceled) || Permanent(err) {
		t.Errorf("got %v, want a temporary error of a cancelled send", err)
	}
}

// TestSendBadAddress: a recipient that is not an address is the
// message's fault, permanent, and nothing is dialled.
func TestSendBadAddress(t *testing.T) {
	m := resetMessage(t)
	m.To = "ana at example.com"
	err := newSender(t, "smtp://127.0.0.1:1?tls=none").Send(t.Context(), m)
	wantError(t, err, StageMessage, 0, true)
}

func TestNewSender(t *testing.T) {
	server, _ := ParseURL("smtp://127.0.0.1:25")
	if _, err := NewSender(Server{}, testFrom); err == nil {
		t.Error("no server: no error")
	}
	if _, err := NewSender(server, "no-reply"); err == nil {
		t.Error("from without a domain: no error")
	}
	s, err := NewSender(server, testFrom)
	if err != nil || s.From() != `"Plaza" <no-reply@plaza.test>` || s.Server() != server {
		t.Errorf("From %q, server %v, %v", s.From(), s.Server(), err)
	}
}

func wantError(t *testing.T, err error, stage Stage, code int, permanent bool) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want a *mail.Error", err, err)
	}
	if e.Stage != stage || e.Code != code || e.Permanent() != permanent || Permanent(err) != permanent {
		t.Errorf("got stage %s, code %d, permanent %v (%v); want %s, %d, %v", e.Stage, e.Code, e.Permanent(), err, stage, code, permanent)
	}
}
