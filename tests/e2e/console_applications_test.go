package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

// TestDeskApplications: a super admin puts sign-ups under approval; three
// people apply from one range; a moderator opens the desk's Applications
// tab and sees them with their answers and signals, approves the first
// with the keyboard (j, a), and rejects the other two in one bulk decision
// with a reason. Each applicant finds the decision in their mail; axe
// passes the tab.
func TestDeskApplications(t *testing.T) {
	pz := startPlaza(t, func(d *web.Deps) { d.Config.RateLimit.Register = 1000 })
	res := apptest.DoBody(t, pz.App, "PUT", api.PathAdminV1Registration, pz.SessionFor(t, pz.super.ID),
		`{"mode":"approval","question":"What brings you here?"}`)
	if res.Code != http.StatusOK {
		t.Fatalf("approval mode: %d %s", res.Code, res.Body)
	}
	var ids []string
	for i, name := range []string{"appl-one", "appl-two", "appl-three"} {
		ids = append(ids, applyFrom(t, pz, fmt.Sprintf("198.51.100.%d", 10+i), name))
	}

	p, c := pz.as(t, pz.modUser, api.PathConsoleApplications)
	accessible(t, p, "the desk's applications")
	step(t, p, "the tab lists the three, oldest first, with answers and signals", func(p *rod.Page) {
		p.MustElement(`[data-testid="desk-tab-applications"][aria-current="page"]`)
		p.MustElement(`[data-live-queue][data-live-state="open"]`)
		var got []string
		for _, el := range p.MustElements(`[data-rows] [data-row]`) {
			got = append(got, *el.MustAttribute("data-row-id"))
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			panic(fmt.Sprintf("rows %v, want %v", got, ids))
		}
		last := `[data-row-id="` + ids[2] + `"] `
		if s := p.MustElement(last + `[data-testid="application-answer"]`).MustText(); s != "I am appl-three" {
			panic("answer: " + s)
		}
		if s := p.MustElement(last + `[data-testid="signal-related"]`).MustText(); !strings.Contains(s, "2 related accounts") {
			panic("related: " + s)
		}
		if s := p.MustElement(last + `[data-testid="signal-range"]`).MustText(); !strings.Contains(s, "2 other sign-ups from its range") {
			panic("range: " + s)
		}
		if s := p.MustElement(last + `[data-testid="signal-domain"]`).MustText(); s != "@example.net" {
			panic("domain: " + s)
		}
	})
	selectRow(t, p, ids[0])
	step(t, p, "a approves the first, and the next is selected", func(p *rod.Page) {
		p.Keyboard.MustType('a')
		p.MustWait(`() => !document.querySelector('[data-row-id="` + ids[0] + `"]')`)
		waitSelected(t, p, ids[1])
		deskSettled(p)
	})
	toast(t, p, "appl-one is approved")
	step(t, p, "tick the other two and reject them together with a reason", func(p *rod.Page) {
		p.MustElement(`[data-testid="select-` + ids[1] + `"]`).MustClick()
		p.MustElement(`[data-testid="select-` + ids[2] + `"]`).MustClick()
		p.MustElement(`[data-testid="bulk-open"]`).MustClick()
		p.MustElement(`[data-testid="bulk-reason"]`).MustInput("Spam wave from one network")
		p.MustElement(`[data-testid="bulk-apply"]`).MustClick()
		p.MustElement(`[data-testid="application-list"] [data-testid="empty-state"]`)
	})
	toast(t, p, "2 applications turned down")

	ctx := t.Context()
	for i, name := range []string{"appl-one", "appl-two", "appl-three"} {
		u, err := pz.Store.Users.UserByEmail(ctx, name+"@example.net")
		if err != nil {
			t.Fatal(err)
		}
		ap, err := pz.Store.Users.ApplicationOf(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		kind, status, want := mail.KindApplicationRejected, models.ApplicationRejected, "Spam wave from one network"
		if i == 0 {
			kind, status, want = mail.KindApplicationApproved, models.ApplicationApproved, api.PathSignIn
		}
		if ap.Status != status || (i == 0) != (u.Status == models.UserActive) {
			t.Errorf("%s: application %s, account %s", name, ap.Status, u.Status)
		}
		msgs, err := pz.Store.Mail.MailTo(ctx, u.Email)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range msgs {
			found = found || m.Kind == string(kind) && strings.Contains(m.TextBody, want)
		}
		if !found {
			t.Errorf("%s has no %s mail saying %q among %d", name, kind, want, len(msgs))
		}
	}
	clean(t, c)
}

// applyFrom signs name up from ip under approval, answering the question,
// and returns the applicant's id.
func applyFrom(t *testing.T, pz *plaza, ip, name string) string {
	t.Helper()
	body := fmt.Sprintf(`{"name":%q,"email":"%s@example.net","password":"long enough secret","answer":"I am %s"}`, name, name, name)
	req := httptest.NewRequest("POST", api.PathUsers, strings.NewReader(body))
	req.RemoteAddr = ip + ":40000"
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	pz.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"application":"pending"`) {
		t.Fatalf("apply %s: %d %s", name, rec.Code, rec.Body)
	}
	u, err := pz.Store.Users.UserByEmail(t.Context(), name+"@example.net")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(u.ID)
}
