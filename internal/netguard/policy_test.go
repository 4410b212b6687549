package netguard

import (
	"net/netip"
	"testing"
)

func TestAllowed(t *testing.T) {
	refused := []string{
		// IPv4
		"0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254", "127.0.0.1",
		"127.255.255.254", "169.254.169.254", "169.254.0.1", "172.16.0.1", "172.31.255.255", "192.0.0.1",
		"192.0.0.170", "192.88.99.1", "192.168.0.1", "192.168.255.255", "198.18.0.1", "198.19.255.255",
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
		// IPv6
		"::", "::1", "::127.0.0.1", "::8.8.8.8", "::ffff:0:7f00:1", "fc00::1", "fd12:3456:789a::1", "fe80::1",
		"febf:ffff::1", "fec0::1", "ff02::1", "ff05::2", "100::1", "2001:2::1", "64:ff9b:1::a00:1",
		// IPv4-mapped forms of refused IPv4
		"::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:0.0.0.0",
		// NAT64, 6to4 and Teredo forms that lead to refused IPv4
		"64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:a00:1::1",
		"2002:c0a8:101::", "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo client 127.0.0.1
		"2001:0:7f00:1::1", // Teredo server 127.0.0.1
		// zoned
		"fe80::1%eth0", "2606:4700::1%eth0",
	}
	allowed := []string{
		"1.1.1.1", "8.8.8.8", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1",
		"192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255", "169.253.255.255", "11.0.0.1",
		"203.0.113.10", "198.51.100.7", "192.0.2.1", // documentation ranges: routed nowhere, used by tests
		"2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450::1", "2001:db8::1",
		"::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
	}
	for _, s := range refused {
		if Allowed(netip.MustParseAddr(s)) {
			t.Errorf("Allowed(%s) = true, want false", s)
		}
	}
	for _, s := range allowed {
		if !Allowed(netip.MustParseAddr(s)) {
			t.Errorf("Allowed(%s) = false, want true", s)
		}
	}
	if Allowed(netip.Addr{}) {
		t.Error("Allowed(invalid) = true")
	}
}

func TestParseHost(t *testing.T) {
	tests := []struct {
		in   string
		addr string // "" when the host is a name
		name string
	}{
		{"127.0.0.1", "127.0.0.1", ""},
		{"2130706433", "127.0.0.1", ""},
		{"017700000001", "127.0.0.1", ""},
		{"0177.0.0.1", "127.0.0.1", ""},
		{"0177.0.0.01", "127.0.0.1", ""},
		{"127.000.000.001", "127.0.0.1", ""},
		{"0x7f.1", "127.0.0.1", ""},
		{"0X7F.0X0.0X0.0X1", "127.0.0.1", ""},
		{"0x7f000001", "127.0.0.1", ""},
		{"0x7f.0.1", "127.0.0.1", ""},
		{"127.1", "127.0.0.1", ""},
		{"127.0.1", "127.0.0.1", ""},
		{"127.0.0.1.", "127.0.0.1", ""},
		{"0", "0.0.0.0", ""},
		{"0x", "0.0.0.0", ""},
		{"10.0.258", "10.0.1.2", ""},
		{"169.254.43518", "169.254.169.254", ""},
		{"0xa9fea9fe", "169.254.169.254", ""},
		{"3232235777", "192.168.1.1", ""},
		{"１２７.０.０.１", "127.0.0.1", ""},
		{"①②⑦.0.0.1", "127.0.0.1", ""},
		{"::1", "::1", ""},
		{"::ffff:127.0.0.1", "::ffff:127.0.0.1", ""},
		{"fe80::1%eth0", "fe80::1%eth0", ""},
		{"Example.COM", "", "example.com"},
		{"example.com.", "", "example.com"},
		{"LOCALHOST.", "", "localhost"},
		{"bücher.example", "", "xn--bcher-kva.example"},
		{"1.2.3.4.example", "", "1.2.3.4.example"},
		{"0x7g.example", "", "0x7g.example"},
	}
	for _, tt := range tests {
		h, err := parseHost(tt.in)
		if err != nil {
			t.Errorf("parseHost(%q): %v", tt.in, err)
			continue
		}
		switch {
		case tt.addr != "" && h.addr != netip.MustParseAddr(tt.addr):
			t.Errorf("parseHost(%q) addr = %v, want %s", tt.in, h.addr, tt.addr)
		case tt.addr == "" && (h.addr.IsValid() || h.name != tt.name):
			t.Errorf("parseHost(%q) = %+v, want name %q", tt.in, h, tt.name)
		}
	}
	for _, bad := range []string{"", "1.2.3.256", "1.2.3.4.5", "256.1", "0x100000000", "4294967296", "08.1.2.3", "1..2.3",
		"example.com..", ".", "::ffff:0x7f.1", "[::1]", "a.0x"} {
		if h, err := parseHost(bad); err == nil {
			t.Errorf("parseHost(%q) = %+v, want an error", bad, h)
		}
	}
}

func TestIsLocalName(t *testing.T) {
	for _, n := range []string{"localhost", "foo.localhost", "a.b.localhost"} {
		if !isLocalName(n) {
			t.Errorf("isLocalName(%q) = false", n)
		}
	}
	for _, n := range []string{"localhost.example", "mylocalhost", "example.com"} {
		if isLocalName(n) {
			t.Errorf("isLocalName(%q) = true", n)
		}
	}
}

// TestControl checks the socket-level hook without opening a socket: it
// must refuse before the connection is attempted.
func TestControl(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:80", "[::1]:443", "10.0.0.1:8080", "[::ffff:127.0.0.1]:80", "[fe80::1%eth0]:80", "169.254.169.254:80", "junk"} {
		if err := control("tcp", addr, nil); err == nil {
			t.Errorf("control(%s) = nil, want a refusal", addr)
		}
	}
	for _, addr := range []string{"203.0.113.10:80", "[2606:4700::1]:443"} {
		if err := control("tcp", addr, nil); err != nil {
			t.Errorf("control(%s) = %v, want nil", addr, err)
		}
	}
	// The default dialer carries the hook unless private targets are allowed.
	if g := New(Config{}); g.dialer == nil || g.dialer.Control == nil {
		t.Error("default dialer has no Control hook")
	}
	if g := New(Config{AllowPrivate: true}); g.dialer == nil || g.dialer.Control != nil {
		t.Error("AllowPrivate dialer still has the Control hook")
	}
}
