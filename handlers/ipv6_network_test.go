package handlers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// The tests below send requests from many addresses of one IPv6 /64, as
// one subscriber may, through a trusted proxy (proxy, from): every
// per-address limit and block counts the /64 as one client.

// inNet is the i-th address of the /64 net (2001:db8:1:2::/64, say), its
// host bits spread so that no two share more than the prefix.
func inNet(net string, i int) string {
	b := netip.MustParsePrefix(net).Addr().As16()
	b[8], b[11], b[13], b[15] = byte(i*37), byte(i), byte(i>>8), byte(i+1)
	return netip.AddrFrom16(b).String()
}

const (
	spray = "2001:db8:1:2::/64" // the abuser's network
	other = "2001:db8:1:3::/64" // the neighbour's
)

func networkApp(t *testing.T, db *bun.DB, mutate func(*web.Deps)) *apptest.App {
	t.Helper()
	return apptest.New(t, db, func(d *web.Deps) {
		d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix(proxy)}
		mutate(d)
	})
}

// TestIPv6NetworkSharesRateLimits: for each family's per-address limit,
// requests from different addresses of one /64 spend one window, and the
// next /64 has its own; an IPv4-mapped address is counted as the IPv4
// address it carries. Before, each /128 had a window of its own.
func TestIPv6NetworkSharesRateLimits(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		set                      func(*web.Deps)
	}{
		{"general API, anonymous", "GET", api.PathPosts, "", func(d *web.Deps) { d.Config.RateLimit.APIAnonymous = 3 }},
		{"next-auth", "GET", "/api/auth/providers", "", func(d *web.Deps) { d.Config.RateLimit.APIAnonymous = 3 }},
		{"versioned admin, anonymous", "GET", api.PathAdminV1Users, "", func(d *web.Deps) { d.Config.RateLimit.AdminGeneral = 3 }},
		{"unversioned admin, anonymous", "GET", api.PathAdminUsers, "", func(d *web.Deps) { d.Config.RateLimit.AdminUsers = 3 }},
		{"avatar", "GET", "/api/avatar-image?seed=ada&size=64", "", func(d *web.Deps) { d.Config.RateLimit.Avatar = 3 }},
		{"og-image", "GET", api.PathOGImage + "?type=svg&seed=1", "", func(d *web.Deps) { d.Config.RateLimit.OGImage = 3 }},
	}
	db := dbtest.Open(t, "sqlite")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := networkApp(t, db, tt.set)
			send := func(ip string) *httptest.ResponseRecorder {
				return apptest.DoBody(t, app, tt.method, tt.path, from(nil, ip), tt.body)
			}
			for i := range 3 {
				if res := send(inNet(spray, i)); res.Code == http.StatusTooManyRequests {
					t.Fatalf("request %d from %s: 429 within the limit", i+1, inNet(spray, i))
				}
			}
			if res := send(inNet(spray, 99)); res.Code != http.StatusTooManyRequests || res.Header().Get("Retry-After") == "" {
				t.Errorf("a fourth address of the same /64: %d, want 429", res.Code)
			}
			if res := send(inNet(other, 0)); res.Code == http.StatusTooManyRequests {
				t.Errorf("the next /64: 429, want a window of its own")
			}
			for range 3 {
				send("198.51.100.7")
			}
			if res := send("::ffff:198.51.100.7"); res.Code != http.StatusTooManyRequests {
				t.Errorf("the IPv4-mapped spelling of a spent IPv4 address: %d, want 429", res.Code)
			}
		})
	}
}

// TestSignInSprayFromOneIPv6Network: failed sign-ins from different
// addresses of one /64 count against one address's throttle, whether they
// guess one email's password or spray one password over many emails;
// the next /64 still signs in. Before, each /128 had 50 failures per 15
// minutes of its own (and 10 per email), so one /64 guessed without end.
func TestSignInSprayFromOneIPv6Network(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := networkApp(t, db, func(d *web.Deps) { d.Config.RateLimit.SignInByIP = 7; d.Config.RateLimit.SignInByEmail = 3 })
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		app.UserWithPassword(t, "bob@example.com", "correct horse")
		signIn := func(ip, email, password string) *httptest.ResponseRecorder {
			return apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, ip), `{"email":"`+email+`","password":"`+password+`"}`)
		}
		for i := range 3 {
			if res := signIn(inNet(spray, i), "ada@example.com", "guess"); res.Code != http.StatusUnauthorized {
				t.Fatalf("guess %d at ada's password: %d %s, want 401", i+1, res.Code, res.Body)
			}
		}
		if res := signIn(inNet(spray, 50), "ada@example.com", "correct horse"); res.Code != http.StatusTooManyRequests {
			t.Errorf("a fourth try at ada from another address of the /64: %d, want 429", res.Code)
		}
		for i := range 3 {
			if res := signIn(inNet(spray, 100+i), fmt.Sprintf("user%d@example.com", i), "Summer2026!"); res.Code != http.StatusUnauthorized {
				t.Fatalf("spray %d: %d %s, want 401", i+1, res.Code, res.Body)
			}
		}
		if res := signIn(inNet(spray, 200), "bob@example.com", "correct horse"); res.Code != http.StatusTooManyRequests {
			t.Errorf("a seventh sign-in from the /64 (another email, another address): %d, want 429", res.Code)
		}
		if res := signIn(inNet(other, 1), "ada@example.com", "correct horse"); res.Code != http.StatusOK {
			t.Errorf("ada from the next /64: %d %s, want 200", res.Code, res.Body)
		}
	})
}

// TestRegisterLimitPerIPv6Network: registrations from different addresses
// of one /64 spend one window (RATE_LIMIT_REGISTER); a taken email is
// still 422 on email; the next /64 registers. Before, each /128 had a
// window of its own.
func TestRegisterLimitPerIPv6Network(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := networkApp(t, db, func(d *web.Deps) { d.Config.RateLimit.Register = 3 })
		register := func(ip string, i int) *httptest.ResponseRecorder {
			body := fmt.Sprintf(`{"name":"Sock %d","email":"sock%d@example.com","password":"long enough secret"}`, i, i)
			return apptest.DoBody(t, app, "POST", api.PathUsers, from(nil, ip), body)
		}
		for i := range 2 {
			if res := register(inNet(spray, i), i); res.Code != http.StatusCreated {
				t.Fatalf("registration %d: %d %s", i+1, res.Code, res.Body)
			}
		}
		wantError(t, register(inNet(spray, 2), 0), http.StatusUnprocessableEntity, api.CodeValidationError, "email")
		wantError(t, register(inNet(spray, 3), 3), http.StatusTooManyRequests, api.CodeRateLimited, "")
		if res := register(inNet(other, 0), 4); res.Code != http.StatusCreated {
			t.Errorf("the next /64: %d %s, want 201", res.Code, res.Body)
		}
	})
}

// TestIPv6BlockCoversItsNetwork: a block of one IPv6 address, or of any
// range narrower than the client's /64, refuses the whole /64, from
// whichever of its addresses a request comes; a range wider than the /64
// refuses what it contains, as before; the next /64 is not refused; a
// block covering the maker's own /64 is refused. Before, a block of an
// IPv6 address refused that /128 alone, and its owner moved to the next.
func TestIPv6BlockCoversItsNetwork(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := networkApp(t, db, func(*web.Deps) {})
		super, _ := app.Admin(t)
		admin := from(super, "2001:db8:5:5::1")
		app.UserWithPassword(t, "ada@example.org", "correct horse")
		block(t, app, admin, `{"kind":"ip","value":"`+inNet(spray, 7)+`"}`)
		block(t, app, admin, `{"kind":"ip","value":"2001:db8:9:9:8000::/65"}`)
		block(t, app, admin, `{"kind":"ip","value":"2001:db8:ff00::/40"}`)

		signIn := `{"email":"ada@example.org","password":"correct horse"}`
		for _, ip := range []string{inNet(spray, 7), inNet(spray, 8), inNet(spray, 250), "2001:db8:9:9::1", "2001:db8:ff12:3::4"} {
			res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, ip), signIn)
			wantBlocked(t, res, res.Body.String(), "sign-in from "+ip)
			res = apptest.DoBody(t, app, "POST", api.PathUsers, from(nil, ip), `{"name":"Eve","email":"eve@example.net","password":"long enough pw"}`)
			wantBlocked(t, res, res.Body.String(), "registration from "+ip)
		}
		for _, ip := range []string{inNet(other, 7), "2001:db8:9:8::1", "2001:db9::1"} {
			if res := apptest.DoBody(t, app, "POST", api.PathSignIn, from(nil, ip), signIn); res.Code != http.StatusOK {
				t.Errorf("sign-in from %s: %d %s, want 200", ip, res.Code, res.Body)
			}
		}
		res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, admin, `{"kind":"ip","value":"2001:db8:5:5::9"}`)
		if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), "your own address") {
			t.Errorf("a block of another address of the maker's /64: %d %s, want 422", res.Code, res.Body)
		}
	})
}
