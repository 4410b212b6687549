package mail

import (
	"net/url"
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, tt := range []struct {
		in     string
		want   Server
		string string
	}{
		{"smtp://mail.example.com", Server{Host: "mail.example.com", Port: 587, Security: StartTLS}, "smtp://mail.example.com:587"},
		{"smtp://u:p%40ss@mail.example.com:2525/", Server{Host: "mail.example.com", Port: 2525, Username: "u", Password: "p@ss", Security: StartTLS}, "smtp://u:xxxxx@mail.example.com:2525"},
		{"smtp://127.0.0.1:1025?tls=none", Server{Host: "127.0.0.1", Port: 1025, Security: NoTLS}, "smtp://127.0.0.1:1025?tls=none"},
		{"smtp://mail.example.com?tls=optional", Server{Host: "mail.example.com", Port: 587, Security: StartTLSOptional}, "smtp://mail.example.com:587?tls=optional"},
		{"smtp://mail.example.com?tls=STARTTLS", Server{Host: "mail.example.com", Port: 587, Security: StartTLS}, "smtp://mail.example.com:587"},
		{"smtps://apikey:SG.x-y@smtp.example.com", Server{Host: "smtp.example.com", Port: 465, Username: "apikey", Password: "SG.x-y", Security: ImplicitTLS}, "smtps://apikey:xxxxx@smtp.example.com:465"},
		{"smtp://[::1]:25?tls=none", Server{Host: "::1", Port: 25, Security: NoTLS}, "smtp://[::1]:25?tls=none"},
	} {
		got, err := ParseURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			continue
		}
		if got.String() != tt.string {
			t.Errorf("ParseURL(%q).String() = %q, want %q", tt.in, got.String(), tt.string)
		}
		if again, err := ParseURL(strings.Replace(got.String(), "xxxxx", got.Password, 1)); err != nil || again != got {
			t.Errorf("%q does not read back: %+v, %v", got.String(), again, err)
		}
	}
}

func TestParseURLRejects(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "expected smtp://",
		"mail.example.com:587":               "expected smtp://",
		"http://mail.example.com":            "expected smtp://",
		"smtp://":                            "expected a host name",
		"smtp://::":                          "expected a host name",
		"smtp://mail.example.com!":           "expected a host name",
		"smtp://-mail.example.com":           "expected a host name",
		"smtp:mail.example.com":              "expected smtp://",
		"smtp://mail.example.com/inbox":      "expected smtp://",
		"smtp://mail.example.com:0":          "expected a port from 1 to 65535",
		"smtp://mail.example.com:99999":      "expected a port from 1 to 65535",
		"smtp://user@mail.example.com":       "expected both a user name and a password",
		"smtp://:secret@mail.example.com":    "expected both a user name and a password",
		"smtp://mail.example.com?tls=off":    "tls=off: expected tls=starttls (the default), optional or none",
		"smtp://mail.example.com?tsl=none":   `unknown option "tsl"`,
		"smtp://h?tls=none&tls=optional":     "expected tls once",
		"smtps://mail.example.com?tls=none":  "smtps:// is always TLS",
		"smtp://u:pa ss@mail.example.com":    "expected smtp://",
		"smtp://u:p%zz@mail.example.com:587": "expected smtp://",
	} {
		_, err := ParseURL(in)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseURL(%q): got %v, want an error starting %q", in, err, want)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"smtp://u:secret@mail.example.com:587": "smtp://xxxxx@mail.example.com:587",
		"smtp://u:sec/ret@mail.example.com":    "smtp://xxxxx@mail.example.com",
		"smtp://u:p%zz@mail.example.com":       "smtp://xxxxx@mail.example.com",
		"u:secret@mail.example.com":            "xxxxx@mail.example.com",
		"smtp://mail.example.com?tls=none":     "smtp://mail.example.com?tls=none",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseURL: SMTP_URL never crashes the parser, and neither the
// parsed server's String nor an error repeats its password.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"smtp://u:p@h:25?tls=none", "smtps://u:p%2F@h", "smtp://h?tls=optional", "smtp://[::1]:1025"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := ParseURL(raw)
		if err != nil {
			u, perr := url.Parse(raw)
			if perr != nil && err.Error() != urlForm {
				t.Errorf("the error %q for an unreadable URL is not the form", err)
			}
			if perr == nil && u.User != nil {
				p, _ := u.User.Password()
				if p != "" && !strings.Contains(u.RawQuery, p) && !strings.Contains(urlForm, p) && strings.Contains(err.Error(), p) {
					t.Errorf("the error %q repeats the password %q", err, p)
				}
			}
			return
		}
		if shown, err := url.Parse(s.String()); err != nil || (s.Username != "" && shown.User.String() != url.UserPassword(s.Username, "xxxxx").String()) {
			t.Errorf("String() %q does not mask the password (%v)", s.String(), err)
		}
		if s.Host == "" || s.Port < 1 || s.Port > 65535 {
			t.Errorf("parsed %+v", s)
		}
	})
}
