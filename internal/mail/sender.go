package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"os"
	"slices"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// DefaultTimeout bounds one Send, from dialling to the server's answer to
// the message.
const DefaultTimeout = 30 * time.Second

// Sender delivers messages to one SMTP server, one connection per
// message: Plaza's mail is a trickle that a job sends, and a connection
// kept open would only go stale between messages. It is safe for
// concurrent use.
type Sender struct {
	server  Server
	from    *netmail.Address
	timeout time.Duration
	tls     *tls.Config
	helo    string
}

// Option changes how a Sender works.
type Option func(*Sender)

// WithTimeout bounds each Send to d instead of DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(s *Sender) { s.timeout = d }
}

// WithTLSConfig makes the Sender check the server's certificate with c
// (its RootCAs, say, for a server signed by a private authority, or a
// test's own). The server name and the TLS 1.2 floor are kept unless c
// sets them.
func WithTLSConfig(c *tls.Config) Option {
	return func(s *Sender) {
		s.tls = c.Clone()
		if s.tls.ServerName == "" {
			s.tls.ServerName = s.server.Host
		}
		if s.tls.MinVersion == 0 {
			s.tls.MinVersion = tls.VersionTLS12
		}
	}
}

// NewSender returns a Sender that delivers through server, with from
// ("Name <address>" or a bare address) as every message's From.
func NewSender(server Server, from string, opts ...Option) (*Sender, error) {
	if server.Host == "" || server.Port == 0 || server.Security == "" {
		return nil, errors.New("mail sender: no server (SMTP_URL) given")
	}
	addr, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail sender: from address %q: %w", from, err)
	}
	helo, err := os.Hostname()
	if err != nil || helo == "" {
		helo = "localhost"
	}
	s := &Sender{
		server:  server,
		from:    addr,
		timeout: DefaultTimeout,
		tls:     &tls.Config{ServerName: server.Host, MinVersion: tls.VersionTLS12},
		helo:    helo,
	}
	for _, opt := range opts {
		opt(s)
	}
	return s, nil
}

// Server is the server the Sender delivers through.
func (s *Sender) Server() Server { return s.server }

// From is the From of every message, as it is written in the header.
func (s *Sender) From() string { return s.from.String() }

// Send delivers m within the Sender's timeout (or ctx's deadline, if
// sooner). A failure is an *Error naming the step that failed; Permanent
// tells whether retrying can help.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg, rcpt, err := s.build(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.server.Addr())
	if err != nil {
		return withCause(ctx, fail(StageConnect, "to "+s.server.Addr(), err))
	}
	defer conn.Close()
	// The SMTP client reads and writes without a context: the timeout,
	// or a cancel, reaches it through the connection's deadline, set only
	// once ctx is done so that a failed step can tell why (withCause).
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	c, err := s.open(ctx, conn)
	if err == nil {
		err = s.deliver(c, msg, rcpt)
	}
	if err != nil {
		return withCause(ctx, err)
	}
	// The server has taken the message: a failed goodbye changes nothing.
	_ = c.Quit()
	return nil
}

// withCause says so when the step failed because time ran out or the
// caller gave up, rather than leaving a bare "i/o timeout".
func withCause(ctx context.Context, err error) error {
	var e *Error
	if cause := ctx.Err(); cause != nil && errors.As(err, &e) && !errors.Is(e.Err, cause) {
		e.Err = fmt.Errorf("%w: %w", cause, e.Err)
	}
	return err
}

// open greets the server, secures the connection as SMTP_URL asks, and
// signs in.
func (s *Sender) open(ctx context.Context, conn net.Conn) (*smtp.Client, error) {
	if s.server.Security == ImplicitTLS {
		tc := tls.Client(conn, s.tls)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, fail(StageTLS, "", err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, s.server.Host)
	if err != nil {
		return nil, fail(StageGreeting, "", err)
	}
	if err := c.Hello(s.helo); err != nil {
		return nil, fail(StageGreeting, "", err)
	}
	if err := s.startTLS(c); err != nil {
		return nil, err
	}
	return c, s.auth(c)
}

func (s *Sender) startTLS(c *smtp.Client) error {
	if s.server.Security != StartTLS && s.server.Security != StartTLSOptional {
		return nil
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		if s.server.Security == StartTLSOptional {
			return nil
		}
		return fail(StageTLS, "", ErrNoStartTLS)
	}
	if err := c.StartTLS(s.tls); err != nil {
		return fail(StageTLS, "", err)
	}
	return nil
}

// auth signs in with the strongest mechanism both sides know: SCRAM sends
// no password; PLAIN and LOGIN send it only over TLS (or to localhost).
func (s *Sender) auth(c *smtp.Client) error {
	if s.server.Username == "" {
		return nil
	}
	about := "as " + s.server.Username
	ok, offered := c.Extension("AUTH")
	if !ok {
		return fail(StageAuth, about, ErrNoAuth)
	}
	mechs := strings.Fields(strings.ToUpper(offered))
	var a smtp.Auth
	switch u, p, h := s.server.Username, s.server.Password, s.server.Host; {
	case slices.Contains(mechs, "SCRAM-SHA-256"):
		a = smtp.ScramSHA256Auth(u, p)
	case slices.Contains(mechs, "SCRAM-SHA-1"):
		a = smtp.ScramSHA1Auth(u, p)
	case slices.Contains(mechs, "PLAIN"):
		a = smtp.PlainAuth("", u, p, h, false)
	case slices.Contains(mechs, "LOGIN"):
		a = smtp.LoginAuth(u, p, h, false)
	default:
		return fail(StageAuth, about, fmt.Errorf("the server offers %s; Plaza signs in with SCRAM-SHA-256, SCRAM-SHA-1, PLAIN or LOGIN", offered))
	}
	if err := c.Auth(a); err != nil {
		if errors.Is(err, smtp.ErrUnencrypted) {
			err = errors.New("the password would cross an unencrypted connection; use STARTTLS or smtps://")
		}
		return fail(StageAuth, about, err)
	}
	return nil
}

func (s *Sender) deliver(c *smtp.Client, msg *gomail.Msg, rcpt string) error {
	from := path(s.from.Address)
	if err := c.Mail(from); err != nil {
		return fail(StageSender, from, err)
	}
	to := path(rcpt)
	if err := c.Rcpt(to); err != nil {
		return fail(StageRecipient, to, err)
	}
	w, err := c.Data()
	if err != nil {
		return fail(StageData, "", err)
	}
	if _, err := msg.WriteTo(w); err != nil {
		return fail(StageData, "", err)
	}
	if err := w.Close(); err != nil {
		return fail(StageData, "", err)
	}
	return nil
}

// path is an address as MAIL FROM and RCPT TO take it: in angle
// brackets, its local part quoted if need be (RFC 5321, 4.1.2).
func path(address string) string { return (&netmail.Address{Address: address}).String() }

// build writes m as a MIME message: its text, and its HTML as the
// alternative a mail program prefers.
func (s *Sender) build(m Message) (*gomail.Msg, string, error) {
	to, err := netmail.ParseAddress(m.To)
	if err != nil {
		return nil, "", fail(StageMessage, "", fmt.Errorf("recipient address %q: %w", m.To, err))
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	msg.ToMailAddress(to)
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageIDWithValue(messageID(s.from.Address))
	// Auto-Submitted keeps vacation responders from answering (RFC 3834).
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	return msg, to.Address, nil
}

// messageID is unique to one attempt, on the sender's own domain (the
// machine's name means nothing to a reader).
func messageID(from string) string {
	domain := from[strings.LastIndexByte(from, '@')+1:]
	return rand.Text() + "@" + domain
}
