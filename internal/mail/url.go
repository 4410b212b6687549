// Package mail sends Plaza's outgoing mail over SMTP and writes its
// messages: ParseURL reads SMTP_URL, a Sender delivers one Message, and a
// Composer writes each kind of message from its templates. It knows
// nothing of HTTP or the database: keeping messages (the outbox) and
// retrying them (a job) are the callers' business.
package mail

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// Security is how a Sender protects its connection to the mail server.
type Security string

// The ways SMTP_URL can ask for a connection to be protected.
const (
	// StartTLS upgrades the connection with STARTTLS and sends nothing
	// when the server does not offer it: smtp://, or ?tls=starttls.
	StartTLS Security = "starttls"
	// StartTLSOptional upgrades with STARTTLS when the server offers it
	// and goes on in the clear when it does not: ?tls=optional.
	StartTLSOptional Security = "optional"
	// NoTLS never encrypts: ?tls=none, for a mail catcher on the same
	// machine.
	NoTLS Security = "none"
	// ImplicitTLS speaks TLS from the first byte: smtps://.
	ImplicitTLS Security = "implicit"
)

// Default ports: submission with STARTTLS, and submission over TLS.
const (
	DefaultPort    = 587
	DefaultTLSPort = 465
)

// Server is a mail server as SMTP_URL names it.
type Server struct {
	Host     string
	Port     int
	Username string
	Password string
	Security Security
}

// Addr is the server's host:port.
func (s Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// String is the server as a URL with its password masked, fit for logs
// and the console.
func (s Server) String() string {
	u := url.URL{Scheme: "smtp", Host: s.Addr()}
	if s.Security == ImplicitTLS {
		u.Scheme = "smtps"
	}
	if s.Security == StartTLSOptional || s.Security == NoTLS {
		u.RawQuery = "tls=" + string(s.Security)
	}
	if s.Username != "" {
		u.User = url.UserPassword(s.Username, "xxxxx")
	}
	return u.String()
}

const urlForm = "expected smtp://[user:password@]host[:port][?tls=optional|none] or smtps://[user:password@]host[:port]"

// ParseURL reads an SMTP URL: smtp://user:password@host:587 (STARTTLS
// required unless ?tls=optional or ?tls=none says otherwise) or
// smtps://user:password@host:465 (TLS from the start). A user name and
// password with reserved characters are percent-encoded. Its errors never
// repeat the URL, which may hold a password.
func ParseURL(raw string) (Server, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.Fragment != "" {
		return Server{}, errors.New(urlForm)
	}
	s := Server{Host: u.Hostname(), Port: DefaultPort, Security: StartTLS}
	switch u.Scheme {
	case "smtp":
	case "smtps":
		s.Port, s.Security = DefaultTLSPort, ImplicitTLS
	default:
		return Server{}, errors.New(urlForm)
	}
	if !hostName(s.Host) {
		return Server{}, errors.New("expected a host name or an IP address")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Server{}, errors.New("expected a port from 1 to 65535")
		}
		s.Port = n
	}
	if err := s.readUser(u.User); err != nil {
		return Server{}, err
	}
	if err := s.readQuery(u.RawQuery); err != nil {
		return Server{}, err
	}
	return s, nil
}

// hostName accepts an IP address or a DNS name (letters, digits, "-",
// "_" and dots).
func hostName(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	valid := h != "" && !strings.HasPrefix(h, ".") && !strings.HasPrefix(h, "-")
	for _, r := range h {
		valid = valid && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.", r))
	}
	return valid
}

func (s *Server) readUser(user *url.Userinfo) error {
	if user == nil {
		return nil
	}
	s.Username = user.Username()
	s.Password, _ = user.Password()
	if s.Username == "" || s.Password == "" {
		return errors.New("expected both a user name and a password (user:password@), or neither")
	}
	return nil
}

// readQuery reads ?tls=; any other option is refused, so that a typo does
// not silently send mail some other way.
func (s *Server) readQuery(raw string) error {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return errors.New(urlForm)
	}
	for key, values := range q {
		if key != "tls" {
			return fmt.Errorf("unknown option %q: the only one is tls (starttls, optional or none)", key)
		}
		if len(values) != 1 {
			return errors.New("expected tls once")
		}
		if s.Security == ImplicitTLS {
			return errors.New("smtps:// is always TLS; tls= is for smtp:// only")
		}
		switch v := Security(strings.ToLower(values[0])); v {
		case StartTLS, StartTLSOptional, NoTLS:
			s.Security = v
		default:
			return fmt.Errorf("tls=%s: expected tls=starttls (the default), optional or none", values[0])
		}
	}
	return nil
}

// Redact returns raw, an SMTP URL that may not parse, with everything
// between "://" (or the start) and its last "@" masked: a password with an unencoded
// "/", "?" or "#" must not end the masking early.
func Redact(raw string) string {
	prefix, rest := "", raw
	if scheme, after, ok := strings.Cut(raw, "://"); ok {
		prefix, rest = scheme+"://", after
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return raw
	}
	return prefix + "xxxxx" + rest[at:]
}
