package blocks

import (
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, kind, value, want string
		err                     error
	}{
		{"ipv4 address", KindIP, "203.0.113.7", "203.0.113.7/32", nil},
		{"ipv4 cidr", KindIP, "203.0.113.0/24", "203.0.113.0/24", nil},
		{"ipv4 cidr with host bits", KindIP, "203.0.113.9/24", "203.0.113.0/24", nil},
		{"ipv6 address", KindIP, "2001:DB8::1", "2001:db8::1/128", nil},
		{"ipv6 cidr", KindIP, " 2001:db8::/32 ", "2001:db8::/32", nil},
		{"ipv4-mapped address", KindIP, "::ffff:203.0.113.7", "203.0.113.7/32", nil},
		{"ipv4-mapped range", KindIP, "::ffff:203.0.113.0/120", "203.0.113.0/24", nil},
		{"bad address", KindIP, "203.0.113.256", "", ErrIP},
		{"bad prefix length", KindIP, "203.0.113.0/33", "", ErrIP},
		{"zone", KindIP, "fe80::1%eth0", "", ErrIP},
		{"domain in capitals", KindEmailDomain, "Example.COM.", "example.com", nil},
		{"domain after @", KindEmailDomain, "@mail.example.com", "mail.example.com", nil},
		{"one label", KindEmailDomain, "localhost", "", ErrDomain},
		{"hyphen at label end", KindEmailDomain, "bad-.example.com", "", ErrDomain},
		{"space inside", KindEmailDomain, "exa mple.com", "", ErrDomain},
		{"email address", KindEmailDomain, "a@example.com", "", ErrDomain},
		{"unknown kind", "asn", "64496", "", ErrKind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.kind, tt.value)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("Normalize(%q, %q) = %q, %v; want %q, %v", tt.kind, tt.value, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestMatcher(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	m := NewMatcher([]Block{
		{Kind: KindIP, Value: "203.0.113.7/32"},
		{Kind: KindIP, Value: "198.51.100.0/24"},
		{Kind: KindIP, Value: "2001:db8::/32"},
		{Kind: KindIP, Value: "192.0.2.1/32", ExpiresAt: now.Add(-time.Second)},
		{Kind: KindIP, Value: "192.0.2.2/32", ExpiresAt: now.Add(time.Hour)},
		{Kind: KindEmailDomain, Value: "example.com"},
		{Kind: KindEmailDomain, Value: "old.test", ExpiresAt: now},
		// One value twice: the longer block wins.
		{Kind: KindEmailDomain, Value: "twice.test", ExpiresAt: now.Add(-time.Hour)},
		{Kind: KindEmailDomain, Value: "twice.test"},
	})
	ips := []struct {
		ip   string
		want bool
	}{
		{"203.0.113.7", true},
		{"203.0.113.8", false},
		{"198.51.100.200", true},
		{"198.51.101.1", false},
		{"2001:db8:1234::9", true},
		{"2001:db9::1", false},
		{"::ffff:203.0.113.7", true},
		{"::ffff:198.51.100.1", true},
		{"fe80::1%eth0", false},
		{"192.0.2.1", false},
		{"192.0.2.2", true},
		{"not an ip", false},
	}
	for _, tt := range ips {
		if got := m.IPStringBlocked(tt.ip, now); got != tt.want {
			t.Errorf("IPStringBlocked(%q) = %v, want %v", tt.ip, got, tt.want)
		}
	}
	emails := []struct {
		email string
		want  bool
	}{
		{"a@example.com", true},
		{"a@EXAMPLE.com", true},
		{"a@mail.example.com", true},
		{"a@deep.mail.example.com.", true},
		{"a@notexample.com", false},
		{"a@example.community", false},
		{"a@old.test", false},
		{"a@twice.test", true},
		{"no at sign", false},
	}
	for _, tt := range emails {
		if got := m.EmailBlocked(tt.email, now); got != tt.want {
			t.Errorf("EmailBlocked(%q) = %v, want %v", tt.email, got, tt.want)
		}
	}
	if m.IPBlocked(netip.Addr{}, now) {
		t.Error("the zero address is blocked")
	}
	var none *Matcher
	if none.IPStringBlocked("203.0.113.7", now) || none.EmailBlocked("a@example.com", now) {
		t.Error("a nil matcher blocks")
	}
}

// TestCache: a purge while a load runs keeps the load's answer out of the
// cache; a disabled cache loads every time.
// TestNetworkBlocked: a client network is refused by a block that
// contains it or lies inside it, and by no block in force outside it.
func TestNetworkBlocked(t *testing.T) {
	now := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	m := NewMatcher([]Block{
		{Kind: KindIP, Value: "2001:db8:1:2::7/128"},
		{Kind: KindIP, Value: "2001:db8:1:4:8000::/65"},
		{Kind: KindIP, Value: "2001:db8:1:5::9/128", ExpiresAt: now.Add(-time.Second)},
		{Kind: KindIP, Value: "2001:db8:ff00::/40"},
		{Kind: KindIP, Value: "203.0.113.7/32"},
	})
	nets := []struct {
		net  string
		want bool
	}{
		{"2001:db8:1:2::/64", true},  // holds a blocked address
		{"2001:db8:1:3::/64", false}, // the next /64
		{"2001:db8:1:4::/64", true},  // holds a blocked /65
		{"2001:db8:1:5::/64", false}, // the block inside it has expired
		{"2001:db8:1::/56", true},    // a wider network holds them all
		{"2001:db8:1:2::8/128", false},
		{"2001:db8:ff12:3::/64", true}, // inside a blocked /40
		{"203.0.113.7/32", true},
		{"203.0.113.8/32", false},
	}
	for _, tt := range nets {
		if got := m.NetworkBlocked(netip.MustParsePrefix(tt.net), now); got != tt.want {
			t.Errorf("NetworkBlocked(%s) = %v, want %v", tt.net, got, tt.want)
		}
	}
	var none *Matcher
	if none.NetworkBlocked(netip.MustParsePrefix("2001:db8:1:2::/64"), now) || m.NetworkBlocked(netip.Prefix{}, now) {
		t.Error("a nil matcher or the zero prefix is blocked")
	}
}

func TestCache(t *testing.T) {
	var c Cache
	loads := 0
	load := func() ([]Block, error) { loads++; return []Block{{Kind: KindIP, Value: "203.0.113.7/32"}}, nil }
	c.Get(load)
	c.Get(load)
	if loads != 2 || c.Loaded() {
		t.Fatalf("disabled: %d loads, loaded %v; want 2, false", loads, c.Loaded())
	}
	c.SetEnabled(true)
	c.Get(load)
	m, _ := c.Get(load)
	if loads != 3 || !m.IPStringBlocked("203.0.113.7", time.Now()) {
		t.Fatalf("enabled: %d loads; want 3", loads)
	}
	c.Purge()
	c.Get(func() ([]Block, error) { c.Purge(); return nil, nil })
	if c.Loaded() {
		t.Error("a load that raced a purge was kept")
	}
	if _, err := c.Get(func() ([]Block, error) { return nil, errors.New("down") }); err == nil {
		t.Error("a failed load answered no error")
	}
}

// TestCacheConcurrent is for -race: readers, purges and loads at once.
func TestCacheConcurrent(t *testing.T) {
	var c Cache
	c.SetEnabled(true)
	load := func() ([]Block, error) { return []Block{{Kind: KindIP, Value: "203.0.113.0/24"}}, nil }
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if i%4 == 0 {
					c.Purge()
					continue
				}
				m, err := c.Get(load)
				if err != nil || !m.IPStringBlocked("203.0.113.9", time.Now()) {
					t.Error("a reader missed the block")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzNormalize: whatever Normalize accepts is already normal and matches
// itself.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"203.0.113.7", "2001:db8::/32", "::ffff:1.2.3.4/120", "Example.com.", "@a.b", "1.2.3.4/0", "a..b", "xn--bcher-kva.example"} {
		f.Add(KindIP, s)
		f.Add(KindEmailDomain, s)
	}
	f.Fuzz(func(t *testing.T, kind, value string) {
		got, err := Normalize(kind, value)
		if err != nil {
			return
		}
		again, err := Normalize(kind, got)
		if err != nil || again != got {
			t.Fatalf("Normalize(%q, %q) = %q, which normalises to %q, %v", kind, value, got, again, err)
		}
		m := NewMatcher([]Block{{Kind: kind, Value: got}})
		now := time.Now()
		switch kind {
		case KindIP:
			if !m.IPStringBlocked(netip.MustParsePrefix(got).Addr().String(), now) {
				t.Fatalf("block %q does not cover its own address", got)
			}
		case KindEmailDomain:
			if !m.EmailBlocked("a@"+got, now) || !m.EmailBlocked("a@sub."+got, now) {
				t.Fatalf("block %q does not cover its own domain", got)
			}
		}
	})
}

// TestSeverities: the strongest block in force wins, over the client's
// network and over the email's domains; an expired block says nothing;
// only a block of all access refuses the network (NetworkBlocked), and
// only signup or stronger refuses the email (EmailBlocked).
func TestSeverities(t *testing.T) {
	now := time.Date(2026, 12, 8, 12, 0, 0, 0, time.UTC)
	m := NewMatcher([]Block{
		{Kind: KindIP, Value: "203.0.113.0/24", Severity: SeverityApproval},
		{Kind: KindIP, Value: "203.0.113.128/25", Severity: SeveritySignUp},
		{Kind: KindIP, Value: "2001:db8:1::5/128", Severity: SeverityApproval},
		{Kind: KindIP, Value: "198.51.100.0/24", Severity: SeverityAll, ExpiresAt: now.Add(-time.Minute)},
		{Kind: KindEmailDomain, Value: "example.net", Severity: SeverityApproval},
		{Kind: KindEmailDomain, Value: "mail.example.net"},
	})
	network := func(s string) netip.Prefix { return netip.MustParsePrefix(s) }
	for _, tt := range []struct {
		n, want string
	}{
		{"203.0.113.7/32", SeverityApproval},
		{"203.0.113.200/32", SeveritySignUp},
		{"2001:db8:1::/64", SeverityApproval}, // a block inside the client's /64
		{"198.51.100.1/32", ""},               // expired
		{"192.0.2.1/32", ""},
	} {
		if got := m.NetworkSeverity(network(tt.n), now); got != tt.want {
			t.Errorf("NetworkSeverity(%s) = %q, want %q", tt.n, got, tt.want)
		}
		if m.NetworkBlocked(network(tt.n), now) {
			t.Errorf("%s is refused all access by a milder block", tt.n)
		}
	}
	for _, tt := range []struct {
		email, want string
		refused     bool
	}{
		{"a@example.net", SeverityApproval, false},
		{"a@mail.example.net", SeveritySignUp, true}, // the default of a domain, stronger than its parent's
		{"a@example.org", "", false},
	} {
		if got := m.EmailSeverity(tt.email, now); got != tt.want || m.EmailBlocked(tt.email, now) != tt.refused {
			t.Errorf("%s: severity %q (refused %v), want %q (%v)", tt.email, got, m.EmailBlocked(tt.email, now), tt.want, tt.refused)
		}
	}
}
