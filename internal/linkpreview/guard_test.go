package linkpreview

import (
	"context"
	"net/url"
	"testing"
)

// TestGuardOnItsOwn: the guard webhooks share refuses what previews refuse,
// before any lookup or dial, and lets public names through to the resolver.
func TestGuardOnItsOwn(t *testing.T) {
	n := newFakeNet(t)
	n.host("inside.example", "10.0.0.7")
	g := NewGuard(GuardConfig{Resolver: n, Dial: n.Dial})
	for raw, want := range map[string]Kind{
		"http://10.0.0.1/":          KindForbidden,
		"http://169.254.169.254/":   KindForbidden,
		"http://[::1]/":             KindForbidden,
		"http://0x7f.1/":            KindForbidden,
		"http://localhost./":        KindForbidden,
		"file:///etc/passwd":        KindBadURL,
		"http://u:p@example.com/":   KindBadURL,
		"https://example.com:0/":    KindBadURL,
		"https://hooks.example.com": 0,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		err = g.CheckURL(u)
		switch e, _ := err.(*Error); {
		case want == 0 && err != nil:
			t.Errorf("%s: %v", raw, err)
		case want != 0 && (e == nil || e.Kind != want):
			t.Errorf("%s: %v, want kind %v", raw, err, want)
		}
	}
	if _, err := g.DialContext(context.Background(), "tcp", "inside.example:80"); !Refused(err) {
		t.Errorf("a name resolving to a private address: %v", err)
	}
	if _, err := NewGuard(GuardConfig{AllowPrivate: true}).DialContext(context.Background(), "tcp", "bad host:80"); err == nil || Refused(err) {
		t.Errorf("a malformed host: %v", err)
	}
}
