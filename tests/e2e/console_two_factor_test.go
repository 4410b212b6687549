package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/web"
)

// shiftedClock is the app's clock, moved forward by the test: to the next
// TOTP step (a code works once), and past the 10-minute confirmation window.
type shiftedClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *shiftedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *shiftedClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// settled waits until no htmx request is in flight (the inbox bell loads
// after the page), so leaving the page aborts none.
func settled(p *rod.Page) {
	p.MustWait(`() => document.readyState === 'complete' && !document.querySelector('.htmx-request')`)
}

func totp(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	code, err := auth.TOTPCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// TestConsoleTwoFactor: a super admin turns on two-factor sign-in from the
// account menu (password, QR code, key, code, then ten recovery codes), signs out,
// signs in again with password and code, and, once the sign-in is over 10
// minutes old, confirms with a code before a new API token is made.
func TestConsoleTwoFactor(t *testing.T) {
	clock := &shiftedClock{}
	pz := startPlaza(t, func(d *web.Deps) { d.Now = clock.Now })
	u := pz.UserWithPassword(t, "tess@plaza.test", "correct horse battery", access.RoleAdmin, access.RoleSuperAdmin)
	p, c := pz.as(t, u, "/admin")
	step(t, p, "open the page from the account menu", func(p *rod.Page) {
		settled(p)
		p.MustElement(`[data-testid="viewer-menu"] summary`).MustClick()
		clickToLoad(p, `[data-testid="menu-twofa"]`)
		p.MustElement(`[data-testid="twofa-setup"]`)
	})
	accessible(t, p, "the two-factor page")
	var secret string
	step(t, p, "set up with the password: a QR code and the key", func(p *rod.Page) {
		p.MustElement(`[data-testid="twofa-setup-password"]`).MustInput("correct horse battery")
		p.MustElement(`[data-testid="twofa-setup"]`).MustClick()
		if src := p.MustElement(`[data-testid="twofa-qr"]`).MustProperty("src").Str(); !strings.HasPrefix(src, "data:image/png;base64,") {
			panic("the QR code is " + src[:min(len(src), 40)])
		}
		secret = p.MustElement(`[data-testid="twofa-secret"]`).MustText()
	})
	accessible(t, p, "the setup panel")
	step(t, p, "turn on with the app's code", func(p *rod.Page) {
		p.MustElement(`[data-testid="twofa-code"]`).MustInput(totp(t, secret, clock.Now()))
		p.MustElement(`[data-testid="twofa-enable"]`).MustClick()
	})
	codes := strings.Fields(waitText(t, p, `[data-testid="twofa-codes"]`, "-").MustText())
	if len(codes) != 10 {
		t.Fatalf("recovery codes shown: %v", codes)
	}
	step(t, p, "the codes can be downloaded", func(p *rod.Page) {
		href := p.MustElement(`[data-testid="twofa-codes-download"]`).MustProperty("href").Str()
		if !strings.HasPrefix(href, "data:text/plain") || !strings.Contains(href, codes[0]) {
			panic("download link " + href)
		}
	})
	accessible(t, p, "the recovery codes")
	if on, err := pz.Store.Auth.TwoFactorEnabled(t.Context(), u.ID); err != nil || !on {
		t.Fatalf("enrolled: %v %v", on, err)
	}

	step(t, p, "sign out", func(p *rod.Page) {
		settled(p)
		p.MustElement(`[data-testid="viewer-menu"] summary`).MustClick()
		clickToLoad(p, `[data-testid="sign-out"]`)
		p.MustElement(`[data-testid="signin-form"]`)
	})
	step(t, p, "sign in with the password", func(p *rod.Page) {
		p.MustElement(`#email`).MustInput(u.Email)
		p.MustElement(`#password`).MustInput("correct horse battery")
		clickToLoad(p, `[data-testid="signin-submit"]`)
		p.MustElement(`[data-testid="signin-code-form"]`)
	})
	accessible(t, p, "the code step of signing in")
	clock.Add(30 * time.Second) // the code that turned it on is spent
	step(t, p, "then with the code", func(p *rod.Page) {
		p.MustElement(`[data-testid="signin-code"]`).MustInput(totp(t, secret, clock.Now()))
		clickToLoad(p, `[data-testid="signin-code-submit"]`)
		p.MustElement(`[data-testid="page-title"]`)
		settled(p)
	})

	clock.Add(11 * time.Minute)
	step(t, p, "make a token: asked to confirm first", func(p *rod.Page) {
		p.MustNavigate(pz.base + "/admin/tokens").MustWaitLoad()
		p.MustElement(`[data-testid="token-new-open"]`).MustClick()
		p.MustElement(`[data-testid="token-new-name"]`).MustInput("after confirming")
		p.MustElement(`[data-testid="token-perm-admin:read"]`).MustClick()
		p.MustElement(`[data-testid="token-new-submit"]`).MustClick()
		p.MustWait(`() => document.getElementById('sudo-confirm').open`)
	})
	accessible(t, p, "the confirmation dialog")
	step(t, p, "confirm with a code", func(p *rod.Page) {
		p.MustElement(`[data-testid="sudo-totp"]`).MustInput(totp(t, secret, clock.Now()))
		p.MustElement(`[data-testid="sudo-submit"]`).MustClick()
	})
	toast(t, p, "Token created")
	waitText(t, p, `[data-testid="token-list"]`, "after confirming")
	clean(t, c, "403")
}
