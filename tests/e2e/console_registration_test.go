package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleRegistration: during a wave a super admin opens Registration
// from the sidebar, pauses every sign-up for 6 hours (htmx, a toast, the
// state saying until when), and a sign-up is refused at once; ending the
// pause lets the next one in. Then the same page, as a plain form without
// JavaScript, sets approval with a question, and a sign-up becomes an
// application. An admin sees the state but no forms.
func TestConsoleRegistration(t *testing.T) {
	pz := startPlaza(t)
	signUp := func(name string) (int, string) {
		body := `{"name":"` + name + `","email":"` + name + `@example.org","password":"long enough secret"}`
		res := apptest.DoBody(t, pz.App, "POST", api.PathUsers, nil, body)
		return res.Code, res.Body.String()
	}
	p, c := pz.as(t, pz.super, "/admin")
	step(t, p, "open Registration from the sidebar", func(p *rod.Page) {
		p.MustElement(`a[href="` + api.PathConsoleRegistration + `"]`).MustClick()
		p.MustWaitLoad()
		p.MustElement(`[data-testid="registration-pause-form"]`)
	})
	accessible(t, p, "the Registration page")
	step(t, p, "pause sign-ups for 6 hours", func(p *rod.Page) {
		p.MustElement(`[data-testid="registration-pause-hours"]`).MustSelect("6 hours")
		p.MustElement(`[data-testid="registration-pause"]`).MustClick()
	})
	toast(t, p, "Sign-ups paused until")
	step(t, p, "the page says the pause and offers to end it", func(p *rod.Page) {
		p.MustElement(`[data-testid="registration-paused"]`)
		p.MustElement(`[data-testid="registration-resume"]`)
	})
	if code, body := signUp("waveone"); code != http.StatusForbidden || !strings.Contains(body, "REGISTRATION_PAUSED") {
		t.Fatalf("a sign-up during the pause: %d %s", code, body)
	}
	step(t, p, "end the pause", func(p *rod.Page) {
		p.MustElement(`[data-testid="registration-resume"]`).MustClick()
	})
	toast(t, p, "Sign-ups: Open")
	if code, body := signUp("afterwave"); code != http.StatusCreated {
		t.Fatalf("a sign-up after the pause: %d %s", code, body)
	}

	step(t, p, "approval with a question, as a plain form", func(p *rod.Page) {
		p.MustElement(`[data-testid="registration-mode-approval"]`).MustClick()
		p.MustElement(`[data-testid="registration-question"]`).MustInput("What do you grow?")
		wait := p.MustWaitNavigation()
		p.MustEval(`() => HTMLFormElement.prototype.submit.call(document.querySelector('[data-testid="registration-form"]'))`)
		wait()
		p.MustElement(`[data-testid="registration-saved"]`)
	})
	var rules struct{ Data api.RegistrationRules }
	pz.api(t, pz.super, "GET", api.PathAdminV1Registration, &rules)
	if rules.Data.Mode != "approval" || rules.Data.Question != "What do you grow?" || rules.Data.Paused {
		t.Fatalf("after the plain form: %+v", rules.Data)
	}
	res := apptest.DoBody(t, pz.App, "POST", api.PathUsers, nil, `{"name":"grower","email":"grower@example.org","password":"long enough secret","answer":"Beans"}`)
	if res.Code != http.StatusCreated || !strings.Contains(res.Body.String(), `"application":"pending"`) {
		t.Fatalf("a sign-up under approval: %d %s", res.Code, res.Body)
	}
	clean(t, c)

	a, c2 := pz.as(t, pz.admin, api.PathConsoleRegistration)
	step(t, a, "an admin reads the state without the forms", func(p *rod.Page) {
		p.MustElement(`[data-testid="registration-readonly"]`)
		if has, _, _ := p.Has(`[data-testid="registration-form"]`); has {
			t.Error("an admin who is no super admin is offered the rules form")
		}
	})
	clean(t, c2)
}
