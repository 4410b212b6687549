package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
)

// resetLink finds the reset link in a mail.
var resetLink = regexp.MustCompile(`https?://[^\s"<>]+/reset-password\?token=[A-Za-z0-9]+`)

// TestPasswordResetWalk follows a forgotten password as a member would,
// with no help from the test but a mail server: from the sign-in page to
// the page that asks for the address, the mail's link, a new password
// typed twice, and signing in with it. The pages fit a phone, light and
// dark.
func TestPasswordResetWalk(t *testing.T) {
	srv := mailtest.Start(t)
	cfg := apptest.Config(t)
	server, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMTPURL, cfg.SMTP = mail.Redact(srv.URL()), server
	pz := startPlazaConfig(t, cfg, app.Options{})
	u := pz.UserWithPassword(t, "forgetful@plaza.test", "old password, long enough")
	const newPassword = "a new one, long enough too"

	p, c := openPage(t, pz.base+"/api/auth/signin")
	step(t, p, "follow the link from the sign-in page", func(p *rod.Page) {
		clickToLoad(p, `[data-testid="signin-forgot"]`)
		p.MustElement(`[data-testid="forgot-form"]`)
	})
	fitsPhone(t, p, "the forgot-password page")
	accessible(t, p, "the forgot-password page")
	step(t, p, "ask for a link", func(p *rod.Page) {
		p.MustElement(`[data-testid="forgot-email"]`).MustInput(u.Email)
		clickToLoad(p, `[data-testid="forgot-submit"]`)
		p.MustElementR(`[data-testid="forgot-sent"]`, "If an account uses this address")
	})
	if p.MustHas(`[data-testid="forgot-mail-kept"]`) {
		t.Error("with a mail server set, the page says the mail is kept on the console")
	}
	got := srv.Wait(t, 1, 20*time.Second)
	if len(got[0].To) != 1 || got[0].To[0] != u.Email {
		t.Fatalf("the reset mail went to %v, want %s", got[0].To, u.Email)
	}
	link := resetLink.FindString(got[0].Text())
	if !strings.HasPrefix(link, pz.base+"/reset-password?token=") {
		t.Fatalf("no reset link to %s in the mail:\n%s", pz.base, got[0].Text())
	}

	step(t, p, "open the mail's link", func(p *rod.Page) {
		p.MustNavigate(link).MustWaitLoad()
		p.MustElement(`[data-testid="reset-form"]`)
	})
	fitsPhone(t, p, "the reset-password page")
	accessible(t, p, "the reset-password page")
	step(t, p, "two passwords that differ: told on the second", func(p *rod.Page) {
		p.MustElement(`[data-testid="reset-password"]`).MustInput(newPassword)
		p.MustElement(`[data-testid="reset-confirm"]`).MustInput(newPassword + "!")
		clickToLoad(p, `[data-testid="reset-submit"]`)
		p.MustElementR(`[data-testid="confirm-error"]`, "differ")
	})
	step(t, p, "the same twice: on to sign in", func(p *rod.Page) {
		p.MustElement(`[data-testid="reset-password"]`).MustInput(newPassword)
		p.MustElement(`[data-testid="reset-confirm"]`).MustInput(newPassword)
		clickToLoad(p, `[data-testid="reset-submit"]`)
		p.MustElementR(`[data-testid="signin-notice"]`, "Your password is changed")
	})
	step(t, p, "sign in with the new password", func(p *rod.Page) {
		p.MustElement(`#email`).MustInput(u.Email)
		p.MustElement(`#password`).MustInput(newPassword)
		clickToLoad(p, `[data-testid="signin-submit"]`)
	})
	var session string
	step(t, p, "signed in", func(p *rod.Page) {
		session = p.MustEval(`() => fetch('/api/auth/session').then(r => r.text())`).Str()
	})
	if !strings.Contains(session, `"email":"`+u.Email+`"`) {
		t.Errorf("after signing in with the new password at %s, the session is %s", p.MustInfo().URL, session)
	}
	// The refusals the walk meets: the two passwords that differ, and the
	// console's dashboard, where sign-in sends everyone and which is for
	// staff (a member signed in is refused, not sent to sign in again).
	clean(t, c, "422 (Unprocessable Entity)", "403 (Forbidden) "+pz.base+"/admin")
}

// fitsPhone checks the page at 390 px, light and dark: no sideways
// scroll.
func fitsPhone(t *testing.T, p *rod.Page, what string) {
	t.Helper()
	resize(t, p, phone)
	for _, scheme := range []string{"light", "dark"} {
		noSideways(t, p, what, phone, scheme)
	}
	resize(t, p, laptop)
}
