package clientnet

import (
	"net/netip"
	"testing"
)

func TestKey(t *testing.T) {
	tests := []struct {
		ip   string
		bits int
		want string
	}{
		{"203.0.113.7", 64, "203.0.113.7"},
		{"::ffff:203.0.113.7", 64, "203.0.113.7"},
		{"2001:db8:1:2::7", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", 64, "2001:db8:1:2::/64"},
		{"2001:DB8:1:2::7%eth0", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2::7", 56, "2001:db8:1::/56"},
		{"2001:db8:1:2::7", 128, "2001:db8:1:2::7"},
		{"2001:db8:1:2::7", 8, "2001:db8::/32"}, // clamped: config refuses it anyway
		{"2001:db8:1:2::7", 0, "2001:db8:1:2::/64"},
		{"not an address", 64, "not an address"},
		{"", 64, ""},
	}
	for _, tt := range tests {
		if got := Key(tt.ip, tt.bits); got != tt.want {
			t.Errorf("Key(%q, %d) = %q, want %q", tt.ip, tt.bits, got, tt.want)
		}
	}
}

// TestOneNetworkOneKey: every address of one /64 is one key, and the
// next /64 another.
func TestOneNetworkOneKey(t *testing.T) {
	base := netip.MustParseAddr("2001:db8:1:2::")
	want := Key(base.String(), DefaultIPv6Bits)
	a := base
	for i := range 1000 {
		a = a.Next()
		if i%97 == 0 {
			b := a.As16()
			b[8], b[15] = byte(i), byte(i>>8) // vary the host bits widely
			a = netip.AddrFrom16(b)
		}
		if got := Key(a.String(), DefaultIPv6Bits); got != want {
			t.Fatalf("Key(%s) = %s, want %s", a, got, want)
		}
	}
	if Key("2001:db8:1:3::1", DefaultIPv6Bits) == want {
		t.Error("the next /64 shares the key")
	}
	if p := Parse("bogus", 64); p.IsValid() {
		t.Errorf("Parse(bogus) = %v", p)
	}
}

func TestRange(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"203.0.113.7", "203.0.113.0/24"},
		{"203.0.113.255", "203.0.113.0/24"},
		{"203.0.114.7", "203.0.114.0/24"},
		{"::ffff:203.0.113.7", "203.0.113.0/24"},
		{"2001:db8:1:2::7", "2001:db8:1:2::/64"},
		{"2001:DB8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::7%eth0", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::7", "2001:db8:1:3::/64"},
		{"::1", "::/64"},
		{"not an address", ""},
		{"203.0.113.0/24", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Range(tt.ip); got != tt.want {
			t.Errorf("Range(%q) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}

func TestAddress(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"},
		{"2001:DB8:0:0::7%eth0", "2001:db8::7"},
		{"bogus", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Address(tt.ip); got != tt.want {
			t.Errorf("Address(%q) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}
