package web

import (
	"net"
	"net/netip"

	"github.com/labstack/echo/v4"
)

// ipExtractor returns the socket peer's address unless TRUSTED_PROXIES
// lists the peer; then X-Forwarded-For is read from the right, skipping
// trusted hops. Nothing is trusted by default, not
// even loopback or private ranges.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		_, n, err := net.ParseCIDR(p.String())
		if err == nil {
			opts = append(opts, echo.TrustIPRange(n))
		}
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
