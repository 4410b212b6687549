package web_test

import (
	"net/netip"
	"testing"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestClientIP checks X-Forwarded-For is believed only from TRUSTED_PROXIES,
// as the audit log's ipAddress shows.
func TestClientIP(t *testing.T) {
	tests := []struct {
		name    string
		trusted []netip.Prefix
		want    string
	}{
		{"no trusted proxies: the socket peer", nil, "192.0.2.1"},
		{"peer is a trusted proxy: the forwarded client", []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}, "203.0.113.9"},
		{"peer is not trusted: the socket peer", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, "192.0.2.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := apptest.New(t, dbtest.Open(t, "sqlite"), func(d *web.Deps) { d.Config.TrustedProxies = tt.trusted })
			h, _ := app.Admin(t)
			h.Set("X-Forwarded-For", "203.0.113.9")
			apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", h)
			rows := auditRows(t, app)
			if len(rows) != 1 || rows[0].IPAddress != tt.want {
				t.Errorf("audit ip = %+v, want %s", rows, tt.want)
			}
		})
	}
}
